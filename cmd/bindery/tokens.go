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

func tokenListCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list API tokens (id, user, created, last used, expiry; never the secret)",
		Flags: []cli.Flag{
			databaseFlag(),
			&cli.StringFlag{Name: "email", Sources: cli.EnvVars("BINDERY_EMAIL"), Usage: "only this user's tokens (default: every user's)"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
		},
		Action: listTokens,
	}
}

func tokenRevokeCommand() *cli.Command {
	return &cli.Command{
		Name:  "revoke",
		Usage: "revoke an API token by id: it authenticates nothing from the next request on",
		Flags: []cli.Flag{
			databaseFlag(),
			&cli.StringFlag{Name: "id", Required: true, Usage: "the token's id, as admin token list prints it"},
		},
		Action: revokeToken,
	}
}

func listTokens(ctx context.Context, cmd *cli.Command) error {
	res, closeStore, err := open(ctx, cmd)
	if err != nil {
		return err
	}
	defer closeStore()
	tokens, err := res.ListAllAPITokens(ctx, cmd.String("email"))
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return json.NewEncoder(os.Stdout).Encode(map[string]any{"items": tokens, "count": len(tokens)})
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tUSER\tCREATED\tLAST USED\tEXPIRES")
	for _, t := range tokens {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", t.ID, t.UserEmail, stamp(&t.CreatedAt, ""), stamp(t.LastUsedAt, "never"), stamp(t.ExpiresAt, "never"))
	}
	return w.Flush()
}

func revokeToken(ctx context.Context, cmd *cli.Command) error {
	res, closeStore, err := open(ctx, cmd)
	if err != nil {
		return err
	}
	defer closeStore()
	if err := res.RevokeAnyAPIToken(ctx, cmd.String("id")); err != nil {
		return err
	}
	fmt.Println("revoked token", cmd.String("id"))
	return nil
}

func stamp(t *time.Time, none string) string {
	if t == nil {
		return none
	}
	return t.UTC().Format(time.RFC3339)
}
