package main

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/rest"
	"github.com/go-chi/httprate"
	"github.com/urfave/cli/v3"
)

// limitFlags are serve's flags for rate limits and the client address they count by
// (docs/security.md).
func limitFlags() []cli.Flag {
	d := rest.DefaultRateLimits()
	return []cli.Flag{
		&cli.IntFlag{Name: "rate-limit-token", Value: d.Token, Sources: cli.EnvVars("BINDERY_RATE_LIMIT_TOKEN"),
			Usage: "requests one API token may make per window (0: no limit)"},
		&cli.IntFlag{Name: "rate-limit-address", Value: d.Address, Sources: cli.EnvVars("BINDERY_RATE_LIMIT_ADDRESS"),
			Usage: "requests without a token (published sites, the explorer) one client address may make per window (0: no limit)"},
		&cli.IntFlag{Name: "rate-limit-auth-failures", Value: d.AuthFailures, Sources: cli.EnvVars("BINDERY_RATE_LIMIT_AUTH_FAILURES"),
			Usage: "requests with a wrong, expired or revoked token one client address, and one token, may make per window; past it they answer 429, while valid tokens still work (0: no limit)"},
		&cli.DurationFlag{Name: "rate-limit-window", Value: d.Window, Sources: cli.EnvVars("BINDERY_RATE_LIMIT_WINDOW"),
			Usage: "the window the rate limits count over"},
		&cli.StringFlag{Name: "rate-limit-store", Value: "memory", Sources: cli.EnvVars("BINDERY_RATE_LIMIT_STORE"),
			Usage: `where request counts are kept: "memory" (this server's own) or "database" (PostgreSQL only: shared by every server on the database)`},
		&cli.StringSliceFlag{Name: "trusted-proxy", Sources: cli.EnvVars("BINDERY_TRUSTED_PROXIES"),
			Usage: "an address or CIDR prefix of a reverse proxy whose X-Forwarded-For names the client (repeat, or comma-separate in the environment). Default: none; the client is the TCP peer"},
	}
}

// rateLimitOptions reads serve's rate-limit flags before anything is opened (a usage error
// touches nothing) and returns what sets them on the HTTP front's options once the database is.
func rateLimitOptions(cmd *cli.Command) (func(res *graph.Resolver, opts *rest.Options), error) {
	limits := rest.RateLimits{Token: int(cmd.Int("rate-limit-token")), Address: int(cmd.Int("rate-limit-address")),
		AuthFailures: int(cmd.Int("rate-limit-auth-failures")), Window: cmd.Duration("rate-limit-window")}
	if limits.Token < 0 || limits.Address < 0 || limits.AuthFailures < 0 {
		return nil, usage(cmd, "rate limits must be 0 (no limit) or more")
	}
	if limits.Window < time.Second {
		return nil, usage(cmd, "--rate-limit-window must be at least 1s")
	}
	shared := false
	switch store := cmd.String("rate-limit-store"); store {
	case "memory":
	case "database":
		if !isPostgres(cmd.String("database")) {
			return nil, usage(cmd, `--rate-limit-store database needs PostgreSQL (SQLite serves one server): use "memory"`)
		}
		shared = true
	default:
		return nil, usage(cmd, fmt.Sprintf(`--rate-limit-store is "memory" or "database", not %q`, store))
	}
	var proxies []string
	for _, flag := range cmd.StringSlice("trusted-proxy") {
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
	return func(res *graph.Resolver, opts *rest.Options) {
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
