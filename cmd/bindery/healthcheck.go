package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/urfave/cli/v3"
)

// healthcheckCommand probes a running server's /readyz: the container image's HEALTHCHECK, which
// has no curl. It touches no database.
func (c *config) healthcheckCommand() *cli.Command {
	h := &c.Health
	return &cli.Command{
		Name:  "healthcheck",
		Usage: "exit 0 when the server on --addr answers /readyz with 200 (for container health checks)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Sources: cli.EnvVars("BINDERY_ADDR"), Destination: &h.Addr, Usage: "the server's listen address"},
			&cli.DurationFlag{Name: "timeout", Value: 3 * time.Second, Destination: &h.Timeout},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			base, _, err := publicURLFor("", h.Addr)
			if err != nil {
				return usage(cmd, err.Error())
			}
			ctx, cancel := context.WithTimeout(ctx, h.Timeout)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/readyz", nil)
			if err != nil {
				return err
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				return fmt.Errorf("not ready: %w", err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				return fmt.Errorf("not ready: %s answered %s", req.URL, res.Status)
			}
			fmt.Fprintln(cmd.Root().Writer, "ready")
			return nil
		},
	}
}
