package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/metrics"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/tracing"
)

// serveOptions builds the HTTP front's operational options from serve's flags, with the GraphQL
// extensions they add, and starts what runs beside it (the metrics listener). stop shuts that
// down.
func serveOptions(ctx context.Context, c opsConfig, res *domain.App) (opts rest.Options, exts []graphql.HandlerExtension, stop func(), err error) {
	stop = func() {}
	var origins []string
	for _, o := range c.CORSOrigins {
		for _, part := range strings.Split(o, ",") {
			if part = strings.TrimSpace(part); part != "" {
				origins = append(origins, part)
			}
		}
	}
	opts.CORSOrigins = origins

	if tracing.Enabled() {
		tp, shutdown, err := tracing.Setup(ctx, version)
		if err != nil {
			return opts, nil, stop, fmt.Errorf("set up OpenTelemetry tracing: %w", err)
		}
		res.Store.AddQueryHook(tracing.QueryHook(tp, string(res.Store.Dialect())))
		opts.Middleware = append(opts.Middleware, tracing.Middleware(tp))
		exts = append(exts, tracing.GraphQL(tp))
		stop = func() {
			flushCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := shutdown(flushCtx); err != nil {
				slog.Warn("flush traces", "err", err)
			}
		}
		slog.Info("exporting OpenTelemetry traces over OTLP")
	}

	addr := c.MetricsAddr
	if addr == "off" {
		return opts, exts, stop, nil
	}
	opts.Metrics = metrics.New(res.Store.SQLDB())
	if addr == "" {
		opts.ServeMetrics = true
		return opts, exts, stop, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return opts, exts, stop, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", opts.Metrics.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("metrics listener stopped", "err", err)
		}
	}()
	slog.Info("metrics listening", "addr", ln.Addr().String())
	stopTracing := stop
	return opts, exts, func() {
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdownCtx)
		stopTracing()
	}, nil
}
