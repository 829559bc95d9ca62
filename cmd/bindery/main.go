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

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/graph/document"
	"github.com/bindery/bindery/graph/jobs"
	"github.com/bindery/bindery/graph/safefetch"
	"github.com/bindery/bindery/graph/translator"
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

func databaseFlag() cli.Flag {
	return &cli.StringFlag{Name: "database", Value: "bindery.db", Sources: cli.EnvVars("BINDERY_DATABASE"),
		Usage: "a postgres:// URL, or a SQLite file path"}
}

func app() *cli.Command {
	root := &cli.Command{
		Name:      "bindery",
		Usage:     "a self-hostable documentation-publishing backend",
		Version:   version,
		Writer:    os.Stdout,
		ErrWriter: os.Stderr,
		Flags:     []cli.Flag{logLevelFlag()},
		Before: func(ctx context.Context, cmd *cli.Command) (context.Context, error) {
			if err := setupLogging(os.Stderr, cmd.String("log-level")); err != nil {
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
			healthcheckCommand(),
			backupCommand(),
			restoreCommand(),
			{
				Name:  "serve",
				Usage: "run the HTTP server (applies migrations first)",
				Flags: append([]cli.Flag{
					&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Sources: cli.EnvVars("BINDERY_ADDR"), Usage: "listen address"},
					databaseFlag(),
					&cli.StringFlag{Name: "public-url", Sources: cli.EnvVars("BINDERY_PUBLIC_URL"), Usage: "the API's external base URL (default http://ADDR)"},
					&cli.StringFlag{Name: "app-url", Sources: cli.EnvVars("BINDERY_APP_URL"), Usage: "the web app's base URL (default: the public URL)"},
					&cli.StringFlag{Name: "files-origin", Sources: cli.EnvVars("BINDERY_FILES_ORIGIN"), Usage: "an origin of its own that serves uploaded files, e.g. https://usercontent.example (needs --secret-key; see docs/security.md)"},
					&cli.StringFlag{Name: "secret-key", Sources: cli.EnvVars("BINDERY_SECRET_KEY"), Usage: "encrypts Git credentials while their sync job waits (without it, repository URLs with credentials are refused), and signs links to --files-origin"},
					&cli.BoolFlag{Name: "git-allow-local", Sources: cli.EnvVars("BINDERY_GIT_ALLOW_LOCAL"), Usage: "allow Git Sync with file:// URLs and hosts on loopback, private or link-local addresses"},
					&cli.IntFlag{Name: "db-max-conns", Sources: cli.EnvVars("BINDERY_DB_MAX_CONNS"), Usage: "database connections to keep open: PostgreSQL connections, or SQLite readers (default 4 per CPU, at least 8)"},
					filesFlag(),
					&cli.StringFlag{Name: "translate-url", Sources: cli.EnvVars("BINDERY_TRANSLATE_URL"), Usage: "OpenAI-compatible chat-completions base URL for translations, e.g. http://localhost:11434/v1 (default: none; runs fail)"},
					&cli.StringFlag{Name: "translate-model", Sources: cli.EnvVars("BINDERY_TRANSLATE_MODEL"), Usage: "model name for translations"},
					&cli.StringFlag{Name: "translate-api-key", Sources: cli.EnvVars("BINDERY_TRANSLATE_API_KEY"), Usage: "bearer key for the translation provider (prefer the environment variable)"},
					&cli.IntFlag{Name: "translate-concurrency", Value: 4, Sources: cli.EnvVars("BINDERY_TRANSLATE_CONCURRENCY"), Usage: "translation requests in flight at once"},
					&cli.DurationFlag{Name: "translate-timeout", Value: 2 * time.Minute, Sources: cli.EnvVars("BINDERY_TRANSLATE_TIMEOUT"), Usage: "time limit of one translation request"},
					&cli.BoolFlag{Name: "fetch-allow-http", Sources: cli.EnvVars("BINDERY_FETCH_ALLOW_HTTP"), Usage: "let OpenAPI specifications be fetched over plain http (default: https only)"},
					&cli.BoolFlag{Name: "fetch-allow-private", Sources: cli.EnvVars("BINDERY_FETCH_ALLOW_PRIVATE"), Usage: "let OpenAPI specifications be fetched from loopback, private and link-local addresses (default: refused)"},
				}, append(opsFlags(), limitFlags()...)...),
				Action: serve,
			},
			{
				Name:   "migrate",
				Usage:  "apply pending database migrations",
				Flags:  []cli.Flag{databaseFlag()},
				Action: migrate,
			},
			{
				Name:  "admin",
				Usage: "operator commands that act on the database directly",
				Commands: []*cli.Command{
					{
						Name:  "bootstrap",
						Usage: "create an organization, its admin user and an API token",
						Flags: []cli.Flag{
							databaseFlag(),
							&cli.StringFlag{Name: "org-title", Required: true, Sources: cli.EnvVars("BINDERY_ORG_TITLE")},
							&cli.StringFlag{Name: "email", Required: true, Sources: cli.EnvVars("BINDERY_EMAIL")},
							&cli.StringFlag{Name: "name", Sources: cli.EnvVars("BINDERY_NAME")},
							&cli.BoolFlag{Name: "json", Usage: "print JSON"},
						},
						Action: bootstrap,
					},
					{
						Name:  "user",
						Usage: "manage users",
						Commands: []*cli.Command{{
							Name:  "create",
							Usage: "create a user with an API token, optionally as a member of an organization",
							Flags: []cli.Flag{
								databaseFlag(),
								&cli.StringFlag{Name: "email", Required: true, Sources: cli.EnvVars("BINDERY_EMAIL")},
								&cli.StringFlag{Name: "name", Sources: cli.EnvVars("BINDERY_NAME")},
								&cli.StringFlag{Name: "org", Sources: cli.EnvVars("BINDERY_ORG"), Usage: "organization id to join"},
								&cli.StringFlag{Name: "role", Value: "read", Sources: cli.EnvVars("BINDERY_ROLE"), Usage: "role in --org (admin, create, edit, review, comment, read, guest)"},
								&cli.BoolFlag{Name: "json", Usage: "print JSON"},
							},
							Action: createUser,
						}},
					},
					{
						Name:  "token",
						Usage: "manage API tokens",
						Commands: []*cli.Command{{
							Name:  "create",
							Usage: "issue an API token for a user",
							Flags: []cli.Flag{
								databaseFlag(),
								&cli.StringFlag{Name: "email", Required: true, Sources: cli.EnvVars("BINDERY_EMAIL")},
								&cli.DurationFlag{Name: "expires", Sources: cli.EnvVars("BINDERY_TOKEN_EXPIRES"), Usage: "lifetime, e.g. 720h (default: never expires)"},
								&cli.StringSliceFlag{Name: "scope", Usage: "limit the token to a scope, repeatable: read, space:content:read, openapi:write… (default: all the user may do)"},
								&cli.BoolFlag{Name: "json", Usage: "print JSON"},
							},
							Action: createToken,
						}, tokenListCommand(), tokenRevokeCommand()},
					},
				},
			},
		},
	}
	strict(root)
	return root
}

// open connects to the database and applies migrations; for serve, it opens the file store
// first, so that a store that does not answer stops it before the database is touched.
func open(ctx context.Context, cmd *cli.Command) (*graph.Resolver, func(), error) {
	var blobs *blob.Store
	if cmd.Name == "serve" {
		location, err := filesLocation(cmd)
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
	store, err := storage.Open(ctx, cmd.String("database"), storage.WithMaxConns(int(cmd.Int("db-max-conns"))),
		storage.WithTokenCache(storage.DefaultTokenTTL), storage.WithSearchTextIncluding(document.SearchTextIncluding))
	if err != nil {
		closeBlobs()
		return nil, nil, err
	}
	if err := store.Migrate(ctx); err != nil {
		store.Close()
		closeBlobs()
		return nil, nil, err
	}
	res := &graph.Resolver{Store: store, Now: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
		Settings: graph.Settings{Version: version, Build: buildInfo()},
		// A token revoked through either door stops working at once on this instance.
		TokenRevoked: store.ForgetToken}
	if cmd.Name == "serve" {
		res.Settings.Fetch = safefetch.Policy{AllowHTTP: cmd.Bool("fetch-allow-http"), AllowPrivate: cmd.Bool("fetch-allow-private")}
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

func serve(ctx context.Context, cmd *cli.Command) error {
	addr := cmd.String("addr")
	publicURL, derived, err := publicURLFor(cmd.String("public-url"), addr)
	if err != nil {
		return usage(cmd, err.Error())
	}
	var filesOrigin *usercontent.Origin
	if raw := cmd.String("files-origin"); raw != "" {
		if filesOrigin, err = usercontent.NewOrigin(raw, cmd.String("secret-key")); err != nil {
			return usage(cmd, err.Error())
		}
	}
	setRateLimits, err := rateLimitOptions(cmd)
	if err != nil {
		return err
	}
	if percent, limit, chosen := tuneGC(); chosen {
		slog.Info("garbage collector tuned (set GOGC or GOMEMLIMIT to choose yourself)", "gogc", percent, "memory_limit_bytes", limit)
	}
	res, closeStore, err := open(ctx, cmd)
	if err != nil {
		return err
	}
	defer closeStore()
	res.Settings.PublicURL = publicURL
	res.Settings.AppURL = strings.TrimRight(firstOf(cmd.String("app-url"), res.Settings.PublicURL), "/")
	if filesOrigin != nil {
		res.Settings.FilesURL = filesOrigin.URL()
	}

	if url := cmd.String("translate-url"); url != "" {
		res.Translator, err = translator.New(translator.Config{URL: url, Model: cmd.String("translate-model"), APIKey: cmd.String("translate-api-key"),
			Concurrency: int(cmd.Int("translate-concurrency")), Timeout: cmd.Duration("translate-timeout")})
		if err != nil {
			return err
		}
		slog.Info("translation provider", "url", translator.Redact(url), "model", res.Translator.Model())
	}

	creds, err := res.BootstrapIfEmpty(ctx, graph.BootstrapInput{OrgTitle: "My Organization", Email: "admin@bindery.local", Name: "Admin"})
	if err != nil {
		return fmt.Errorf("bootstrap empty database: %w", err)
	}
	if creds != nil {
		printFirstStart(res.Settings.PublicURL, creds)
	}

	res.GitSync = graph.GitSyncConfig{AllowLocal: cmd.Bool("git-allow-local"), SecretKey: cmd.String("secret-key")}

	// Background jobs (and any left queued by the last run) start before requests can queue more.
	runner, err := res.StartJobs(ctx, jobs.Config{})
	if err != nil {
		return err
	}
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
	opts, stopOps, err := serveOptions(ctx, cmd, res)
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
	srv := rest.NewHTTPServer(rest.NewServerWith(res, opts), limits)
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

func printFirstStart(publicURL string, c *graph.Credentials) {
	fmt.Printf(`
First start: created organization %s with admin user admin@bindery.local.
API token (shown only this once; store it now):

    %s

Try it:

    curl -H "Authorization: Bearer %s" %s/v1/orgs

`, c.OrganizationID, c.Token, c.Token, publicURL)
}

// migrate applies pending migrations and says which, or that there were none.
func migrate(ctx context.Context, cmd *cli.Command) error {
	store, err := storage.Open(ctx, cmd.String("database"))
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

func bootstrap(ctx context.Context, cmd *cli.Command) error {
	res, closeStore, err := open(ctx, cmd)
	if err != nil {
		return err
	}
	defer closeStore()
	c, err := res.Bootstrap(ctx, graph.BootstrapInput{OrgTitle: cmd.String("org-title"), Email: cmd.String("email"), Name: cmd.String("name")})
	if err != nil {
		return err
	}
	return printCredentials(cmd, map[string]any{"organization": map[string]string{"id": c.OrganizationID}, "user": map[string]string{"id": c.UserID}, "token": c.Token}, c)
}

func createUser(ctx context.Context, cmd *cli.Command) error {
	res, closeStore, err := open(ctx, cmd)
	if err != nil {
		return err
	}
	defer closeStore()
	c, err := res.CreateUser(ctx, graph.CreateUserInput{Email: cmd.String("email"), Name: cmd.String("name"), OrganizationID: cmd.String("org"), Role: cmd.String("role")})
	if err != nil {
		return err
	}
	return printCredentials(cmd, map[string]any{"user": map[string]string{"id": c.UserID}, "token": c.Token}, c)
}

func createToken(ctx context.Context, cmd *cli.Command) error {
	res, closeStore, err := open(ctx, cmd)
	if err != nil {
		return err
	}
	defer closeStore()
	create := res.CreateToken
	if scopes := cmd.StringSlice("scope"); len(scopes) > 0 {
		create = func(ctx context.Context, email string, expires time.Duration) (*graph.Credentials, error) {
			return res.CreateScopedToken(ctx, email, expires, scopes)
		}
	}
	c, err := create(ctx, cmd.String("email"), cmd.Duration("expires"))
	if err != nil {
		return err
	}
	return printCredentials(cmd, map[string]any{"user": map[string]string{"id": c.UserID}, "token": c.Token}, c)
}

func printCredentials(cmd *cli.Command, asJSON any, c *graph.Credentials) error {
	if cmd.Bool("json") {
		return json.NewEncoder(os.Stdout).Encode(asJSON)
	}
	if c.OrganizationID != "" {
		fmt.Println("organization:", c.OrganizationID)
	}
	fmt.Println("user:", c.UserID)
	fmt.Println("token:", c.Token)
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

func storeKind(res *graph.Resolver) string { return string(res.Store.Dialect()) }

// buildInfo names the commit and toolchain the binary was built from.
func buildInfo() string { return commitHash() + " " + runtime.Version() }
