package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v3"
)

func listTokens(ctx context.Context, cmd *cli.Command, c *config) error {
	res, closeStore, err := open(ctx, cmd, c)
	if err != nil {
		return err
	}
	defer closeStore()
	ctx = res.WithRequestState(ctx)
	tokens, err := res.ListAllAPITokens(ctx, c.Admin.Email)
	if err != nil {
		return err
	}
	if c.JSON {
		return json.NewEncoder(os.Stdout).Encode(map[string]any{"items": tokens, "count": len(tokens)})
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tUSER\tCREATED\tLAST USED\tEXPIRES")
	for _, t := range tokens {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", t.ID, t.UserEmail, stamp(&t.CreatedAt, ""), stamp(t.LastUsedAt, "never"), stamp(t.ExpiresAt, "never"))
	}
	return w.Flush()
}

func revokeToken(ctx context.Context, cmd *cli.Command, c *config) error {
	res, closeStore, err := open(ctx, cmd, c)
	if err != nil {
		return err
	}
	defer closeStore()
	ctx = res.WithRequestState(ctx)
	if err := res.RevokeAnyAPIToken(ctx, c.Admin.TokenID); err != nil {
		return err
	}
	fmt.Println("revoked token", c.Admin.TokenID)
	return nil
}

func stamp(t *time.Time, none string) string {
	if t == nil {
		return none
	}
	return t.UTC().Format(time.RFC3339)
}
