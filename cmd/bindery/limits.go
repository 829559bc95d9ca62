package main

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/rest"
	"github.com/go-chi/httprate"
	"github.com/urfave/cli/v3"
)

// rateLimitOptions reads serve's rate-limit flags before anything is opened (a usage error
// touches nothing) and returns what sets them on the HTTP front's options once the database is.
func rateLimitOptions(cmd *cli.Command, c *config) (func(res *domain.App, opts *rest.Options), error) {
	l := c.Serve.Limits
	limits := rest.RateLimits{Token: l.Token, Address: l.Address, AuthFailures: l.AuthFailures, Window: l.Window}
	if limits.Token < 0 || limits.Address < 0 || limits.AuthFailures < 0 {
		return nil, usage(cmd, "rate limits must be 0 (no limit) or more")
	}
	if limits.Window < time.Second {
		return nil, usage(cmd, "--rate-limit-window must be at least 1s")
	}
	shared := false
	switch l.Store {
	case "memory":
	case "database":
		if !isPostgres(c.Database) {
			return nil, usage(cmd, `--rate-limit-store database needs PostgreSQL (SQLite serves one server): use "memory"`)
		}
		shared = true
	default:
		return nil, usage(cmd, fmt.Sprintf(`--rate-limit-store is "memory" or "database", not %q`, l.Store))
	}
	var proxies []string
	for _, flag := range l.TrustedProxies {
		for _, p := range strings.Split(flag, ",") {
			if p = strings.TrimSpace(p); p == "" {
				continue
			}
			prefix, err := parsePrefix(p)
			if err != nil {
				return nil, usage(cmd, fmt.Sprintf("--trusted-proxy %q is not an address or a CIDR prefix", p))
			}
			proxies = append(proxies, prefix.String())
		}
	}
	return func(res *domain.App, opts *rest.Options) {
		if shared {
			limits.Counter = func() httprate.LimitCounter { return res.Store.RateCounter() }
		}
		opts.RateLimits, opts.TrustedProxies = &limits, proxies
	}, nil
}

func isPostgres(database string) bool {
	return strings.HasPrefix(database, "postgres://") || strings.HasPrefix(database, "postgresql://")
}

// parsePrefix reads a CIDR prefix, or an address as the prefix holding only it.
func parsePrefix(s string) (netip.Prefix, error) {
	if !strings.Contains(s, "/") {
		addr, err := netip.ParseAddr(s)
		if err != nil {
			return netip.Prefix{}, err
		}
		return netip.PrefixFrom(addr, addr.BitLen()), nil
	}
	return netip.ParsePrefix(s)
}
