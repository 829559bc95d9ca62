// Command bindery runs the Bindery server and its operator commands. It wires configuration to
// storage, resolvers and HTTP; the behaviour lives in those packages.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/aiprovider"
	"github.com/bindery/bindery/domain/answer"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/embedding"
	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/domain/safefetch"
	"github.com/bindery/bindery/domain/translator"
	"github.com/bindery/bindery/doors"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/blob"
	"github.com/bindery/bindery/usercontent"
	"github.com/urfave/cli/v3"
)

func main() {
	slog.SetDefault(slog.New(rest.LogHandler{Handler: slog.NewJSONHandler(os.Stderr, nil)}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := app().Run(ctx, os.Args)
	stop()
	if err != nil {
		var u usageError
		if !errors.As(err, &u) { // usage errors were printed with the help already
			fmt.Fprintln(os.Stderr, "bindery:", err)
		}
		os.Exit(exitCode(err))
	}
}

func app() *cli.Command {
	c := &config{}
	root := &cli.Command{
		Name:      "bindery",
		Usage:     "a self-hostable documentation-publishing backend",
		Version:   version,
		Writer:    os.Stdout,
		ErrWriter: os.Stderr,
		Flags:     []cli.Flag{c.logLevelFlag()},
		Before: func(ctx context.Context, cmd *cli.Command) (context.Context, error) {
			if err := setupLogging(os.Stderr, c.LogLevel); err != nil {
				return ctx, usage(cmd, err.Error())
			}
			return ctx, nil
		},
		// No command runs serve; an unknown one is refused (strict) rather than served.
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Present() {
				return usage(cmd, fmt.Sprintf("unknown command %q", cmd.Args().First()))
			}
			return cmd.Command("serve").Run(ctx, []string{"serve"})
		},
		// Errors are turned into exit codes by main, not by os.Exit inside the library.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Commands: []*cli.Command{
			versionCommand(),
			c.healthcheckCommand(),
			c.backupCommand(),
			c.restoreCommand(),
			{
				Name:   "serve",
				Usage:  "run the HTTP server (applies migrations first)",
				Flags:  c.serveFlags(),
				Action: c.run(serve),
			},
			{
				Name:   "migrate",
				Usage:  "apply pending database migrations",
				Flags:  []cli.Flag{c.databaseFlag()},
				Action: c.run(migrate),
			},
			c.adminCommand(),
		},
	}
	strict(root)
	return root
}

// adminCommand holds the operator commands that act on the database directly.
func (c *config) adminCommand() *cli.Command {
	a := &c.Admin
	email := func(usage string, required bool) cli.Flag {
		return &cli.StringFlag{Name: "email", Required: required, Sources: cli.EnvVars("BINDERY_EMAIL"), Destination: &a.Email, Usage: usage}
	}
	name := func() cli.Flag {
		return &cli.StringFlag{Name: "name", Sources: cli.EnvVars("BINDERY_NAME"), Destination: &a.Name}
	}
	return &cli.Command{
		Name:  "admin",
		Usage: "operator commands that act on the database directly",
		Commands: []*cli.Command{
			{
				Name:  "bootstrap",
				Usage: "create an organization, its admin user and an API token",
				Flags: []cli.Flag{
					c.databaseFlag(),
					&cli.StringFlag{Name: "org-title", Required: true, Sources: cli.EnvVars("BINDERY_ORG_TITLE"), Destination: &a.OrgTitle},
					email("", true), name(), c.jsonFlag(),
				},
				Action: c.run(bootstrap),
			},
			{
				Name:  "user",
				Usage: "manage users",
				Commands: []*cli.Command{{
					Name:  "create",
					Usage: "create a user with an API token, optionally as a member of an organization",
					Flags: []cli.Flag{
						c.databaseFlag(), email("", true), name(),
						&cli.StringFlag{Name: "org", Sources: cli.EnvVars("BINDERY_ORG"), Destination: &a.Org, Usage: "organization id to join"},
						&cli.StringFlag{Name: "role", Value: "read", Sources: cli.EnvVars("BINDERY_ROLE"), Destination: &a.Role, Usage: "role in --org (admin, create, edit, review, comment, read, guest)"},
						c.jsonFlag(),
					},
					Action: c.run(createUser),
				}},
			},
			{
				Name:  "password",
				Usage: "people's passwords",
				Commands: []*cli.Command{{
					Name:  "reset-link",
					Usage: "print a one-time link that lets a user choose a new password (it ends their sessions); earlier links stop working",
					Flags: []cli.Flag{
						c.databaseFlag(), email("", true),
						&cli.StringFlag{Name: "public-url", Value: "http://127.0.0.1:8080", Sources: cli.EnvVars("BINDERY_PUBLIC_URL"), Destination: &a.PublicURL, Usage: "the server's external base URL, which the link starts with"},
						c.jsonFlag(),
					},
					Action: c.run(passwordResetLink),
				}},
			},
			{
				Name:  "token",
				Usage: "manage API tokens",
				Commands: []*cli.Command{{
					Name:  "create",
					Usage: "issue an API token for a user",
					Flags: []cli.Flag{
						c.databaseFlag(), email("", true),
						&cli.DurationFlag{Name: "expires", Sources: cli.EnvVars("BINDERY_TOKEN_EXPIRES"), Destination: &a.Expires, Usage: "lifetime, e.g. 720h (default: never expires)"},
						&cli.StringSliceFlag{Name: "scope", Destination: &a.Scopes, Usage: "limit the token to a scope, repeatable: read, space:content:read, openapi:write… (default: all the user may do)"},
						c.jsonFlag(),
					},
					Action: c.run(createToken),
				}, {
					Name:   "list",
					Usage:  "list API tokens (id, user, created, last used, expiry; never the secret)",
					Flags:  []cli.Flag{c.databaseFlag(), email("only this user's tokens (default: every user's)", false), c.jsonFlag()},
					Action: c.run(listTokens),
				}, {
					Name:  "revoke",
					Usage: "revoke an API token by id: it authenticates nothing from the next request on",
					Flags: []cli.Flag{
						c.databaseFlag(),
						&cli.StringFlag{Name: "id", Required: true, Destination: &a.TokenID, Usage: "the token's id, as admin token list prints it"},
					},
					Action: c.run(revokeToken),
				}},
			},
		},
	}
}

// open connects to the database and applies migrations; for serve, it opens the file store
// first, so that a store that does not answer stops it before the database is touched.
func open(ctx context.Context, cmd *cli.Command, c *config) (*domain.App, func(), error) {
	var blobs *blob.Store
	if cmd.Name == "serve" {
		location, err := filesLocation(cmd, c)
		if err != nil {
			return nil, nil, err
		}
		if blobs, err = openFiles(ctx, location); err != nil {
			return nil, nil, err
		}
	}
	closeBlobs := func() {
		if blobs != nil {
			blobs.Close()
		}
	}
	store, err := storage.Open(ctx, c.Database, storage.WithMaxConns(c.Serve.DBMaxConns),
		storage.WithTokenCache(storage.DefaultTokenTTL), storage.WithSearchTextIncluding(document.SearchTextIncluding, domain.IncludedForSearch))
	if err != nil {
		closeBlobs()
		return nil, nil, err
	}
	if err := store.Migrate(ctx); err != nil {
		store.Close()
		closeBlobs()
		return nil, nil, err
	}
	res := &domain.App{Store: store, Now: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
		Settings: domain.Settings{Version: version, Build: buildInfo()},
		// A token revoked through either door stops working at once on this instance.
		TokenRevoked: store.ForgetToken}
	if cmd.Name == "serve" {
		res.Settings.Fetch = safefetch.Policy{AllowHTTP: c.Serve.FetchAllowHTTP, AllowPrivate: c.Serve.FetchAllowPrivate}
		res.Settings.Webhooks = domain.WebhookSettings{Fetch: safefetch.Policy{AllowHTTP: c.Serve.WebhookAllowHTTP, AllowPrivate: c.Serve.WebhookAllowPrivate},
			DisableAfter: c.Serve.WebhookDisableAfter}
		res.Settings.EventRetention = c.Serve.EventRetention
		res.Settings.InsightsRetention = c.Serve.InsightsRetention
		res.Blobs = blobs
	}
	return res, func() { store.Close(); closeBlobs() }, nil
}

// filesDir is where uploaded files go: the flag, or a directory next to the SQLite file.
func filesDir(flag, database string) string {
	switch {
	case flag != "":
		return flag
	case isPostgres(database):
		return "bindery-files"
	}
	path := strings.TrimPrefix(database, "file:")
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	return strings.TrimSuffix(path, filepath.Ext(path)) + "-files"
}

func serve(ctx context.Context, cmd *cli.Command, c *config) error {
	s := c.Serve
	addr := s.Addr
	publicURL, derived, err := publicURLFor(s.PublicURL, addr)
	if err != nil {
		return usage(cmd, err.Error())
	}
	var filesOrigin *usercontent.Origin
	if s.FilesOrigin != "" {
		if filesOrigin, err = usercontent.NewOrigin(s.FilesOrigin, s.SecretKey); err != nil {
			return usage(cmd, err.Error())
		}
	}
	setRateLimits, err := rateLimitOptions(cmd, c)
	if err != nil {
		return err
	}
	if percent, limit, chosen := tuneGC(); chosen {
		slog.Info("garbage collector tuned (set GOGC or GOMEMLIMIT to choose yourself)", "gogc", percent, "memory_limit_bytes", limit)
	}
	res, closeStore, err := open(ctx, cmd, c)
	if err != nil {
		return err
	}
	defer closeStore()
	res.Settings.PublicURL = publicURL
	res.Settings.AppURL = strings.TrimRight(firstOf(s.AppURL, res.Settings.PublicURL), "/")
	if filesOrigin != nil {
		res.Settings.FilesURL = filesOrigin.URL()
	}

	if ai := s.AI; ai.URL != "" {
		provider, err := aiprovider.New(aiprovider.Config{URL: ai.URL, Model: ai.Model, EmbeddingModel: ai.EmbeddingModel, APIKey: ai.APIKey})
		if err != nil {
			return err
		}
		res.Translator = translator.New(provider, translator.Config{Concurrency: s.Translate.Concurrency, Timeout: s.Translate.Timeout})
		res.Answers = answer.New(provider, answer.Config{Timeout: ai.Timeout})
		res.Embeddings = embedding.New(provider)
		slog.Info("AI provider", "url", provider.URL(), "model", ai.Model, "embedding_model", ai.EmbeddingModel)
	}

	sessions, err := browserSignIn(ctx, res, s)
	if err != nil {
		return usage(cmd, err.Error())
	}
	creds, err := res.BootstrapIfEmpty(res.WithRequestState(ctx), domain.BootstrapInput{OrgTitle: "My Organization", Email: "admin@bindery.local", Name: "Admin"})
	if err != nil {
		return fmt.Errorf("bootstrap empty database: %w", err)
	}
	if creds != nil {
		setup, _, err := res.Accounts.IssueLink(ctx, "admin@bindery.local", storage.LinkSetup)
		if err != nil {
			return fmt.Errorf("first start: set-up link: %w", err)
		}
		printFirstStart(res.Settings.PublicURL, creds, setup)
	}

	res.GitSync = domain.GitSyncConfig{AllowLocal: s.GitAllowLocal, SecretKey: s.SecretKey}

	// Background jobs (and any left queued by the last run) start before requests can queue more.
	runner, err := res.StartJobs(ctx, jobs.Config{})
	if err != nil {
		return err
	}
	// Committed events become webhook deliveries (on every server; each event is dispatched once).
	dispatchCtx, stopDispatch := context.WithCancel(context.WithoutCancel(ctx))
	dispatched := make(chan struct{})
	go func() { defer close(dispatched); res.DispatchWebhooks(dispatchCtx) }()
	defer func() { stopDispatch(); <-dispatched }()
	defer func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := runner.Stop(stopCtx); err != nil {
			slog.Error("stop background jobs", "err", err)
		}
	}()

	limits := rest.DefaultServerLimits()
	ln, err := rest.Listen(addr, limits)
	if err != nil {
		return err
	}
	opts, exts, stopOps, err := serveOptions(ctx, s.Ops, res)
	if err != nil {
		return err
	}
	defer stopOps()
	if opts.Metrics != nil {
		opts.Metrics.SetJobSource(res.Store.JobStats)
		runner.OnFailed(opts.Metrics.JobFailed)
	}
	setRateLimits(res, &opts)
	opts.FilesOrigin = filesOrigin
	opts.Sessions = sessions
	srv := rest.NewHTTPServer(rest.NewServerWith(res, doors.Mount(res, opts, exts...)), limits)
	slog.Info("bindery listening", "addr", ln.Addr().String(), "public_url", res.Settings.PublicURL, "database", storeKind(res), "files", res.Blobs.String())
	if res.Blobs.Location().Local() && res.Store.Dialect() != storage.SQLite {
		slog.Info("uploaded files are kept in a local directory: with more than one server, use --files s3://… or a volume every server mounts", "files", res.Blobs.String())
	}
	if derived {
		slog.Info("public URL derived from the listen address; set --public-url (BINDERY_PUBLIC_URL) to the address clients use",
			"addr", addr, "public_url", res.Settings.PublicURL)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	slog.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func printFirstStart(publicURL string, c *domain.Credentials, setupToken string) {
	fmt.Printf(`
First start: created organization %s with admin user admin@bindery.local.
Choose the admin's password in a browser (a one-time link, valid for 24 hours):

    %s

API token (shown only this once; store it now):

    %s

Try it:

    curl -H "Authorization: Bearer %s" %s/v1/orgs

`, c.OrganizationID, linkURL(publicURL, "setup", setupToken), c.Token, c.Token, publicURL)
}

// migrate applies pending migrations and says which, or that there were none.
func migrate(ctx context.Context, _ *cli.Command, c *config) error {
	store, err := storage.Open(ctx, c.Database)
	if err != nil {
		return err
	}
	defer store.Close()
	applied, err := store.MigrateReport(ctx)
	if err != nil {
		return err
	}
	if len(applied) == 0 {
		fmt.Println("database is up to date: no pending migrations")
		return nil
	}
	fmt.Printf("applied %d migration(s):\n", len(applied))
	for _, name := range applied {
		fmt.Println("  " + name)
	}
	return nil
}

func bootstrap(ctx context.Context, cmd *cli.Command, c *config) error {
	res, closeStore, err := open(ctx, cmd, c)
	if err != nil {
		return err
	}
	defer closeStore()
	ctx = res.WithRequestState(ctx)
	creds, err := res.Bootstrap(ctx, domain.BootstrapInput{OrgTitle: c.Admin.OrgTitle, Email: c.Admin.Email, Name: c.Admin.Name})
	if err != nil {
		return err
	}
	return printCredentials(c, map[string]any{"organization": map[string]string{"id": creds.OrganizationID}, "user": map[string]string{"id": creds.UserID}, "token": creds.Token}, creds)
}

func createUser(ctx context.Context, cmd *cli.Command, c *config) error {
	res, closeStore, err := open(ctx, cmd, c)
	if err != nil {
		return err
	}
	defer closeStore()
	ctx = res.WithRequestState(ctx)
	creds, err := res.CreateUser(ctx, domain.CreateUserInput{Email: c.Admin.Email, Name: c.Admin.Name, OrganizationID: c.Admin.Org, Role: c.Admin.Role})
	if err != nil {
		return err
	}
	return printCredentials(c, map[string]any{"user": map[string]string{"id": creds.UserID}, "token": creds.Token}, creds)
}

func createToken(ctx context.Context, cmd *cli.Command, c *config) error {
	res, closeStore, err := open(ctx, cmd, c)
	if err != nil {
		return err
	}
	defer closeStore()
	ctx = res.WithRequestState(ctx)
	create := res.CreateToken
	if scopes := c.Admin.Scopes; len(scopes) > 0 {
		create = func(ctx context.Context, email string, expires time.Duration) (*domain.Credentials, error) {
			return res.CreateScopedToken(ctx, email, expires, scopes)
		}
	}
	creds, err := create(ctx, c.Admin.Email, c.Admin.Expires)
	if err != nil {
		return err
	}
	return printCredentials(c, map[string]any{"user": map[string]string{"id": creds.UserID}, "token": creds.Token}, creds)
}

func printCredentials(c *config, asJSON any, creds *domain.Credentials) error {
	if c.JSON {
		return json.NewEncoder(os.Stdout).Encode(asJSON)
	}
	if creds.OrganizationID != "" {
		fmt.Println("organization:", creds.OrganizationID)
	}
	fmt.Println("user:", creds.UserID)
	fmt.Println("token:", creds.Token)
	return nil
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

func storeKind(res *domain.App) string { return string(res.Store.Dialect()) }

// buildInfo names the commit and toolchain the binary was built from.
func buildInfo() string { return commitHash() + " " + runtime.Version() }
