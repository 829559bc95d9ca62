package main

import (
	"context"
	"time"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/rest"
	"github.com/urfave/cli/v3"
)

// config is what one command line and the environment told Bindery. Every flag writes into it
// through its Destination, so the code acting on a setting reads a typed field instead of looking
// a flag up by a name that a typo would silently turn into a zero value.
type config struct {
	LogLevel string
	Database string
	Files    string // where uploaded files are kept; empty for the default next to the database
	JSON     bool   // print machine-readable output (operator commands)

	Serve  serveConfig
	Admin  adminConfig
	Backup backupConfig
	Health healthConfig
}

// serveConfig is what `bindery serve` reads besides the database and the files.
type serveConfig struct {
	Addr        string
	PublicURL   string
	AppURL      string
	FilesOrigin string
	SecretKey   string
	DBMaxConns  int

	GitAllowLocal     bool
	FetchAllowHTTP    bool
	FetchAllowPrivate bool

	WebhookAllowHTTP    bool
	WebhookAllowPrivate bool
	WebhookDisableAfter time.Duration
	EventRetention      time.Duration
	InsightsRetention   time.Duration

	AI        aiConfig
	Translate translateConfig
	Ops       opsConfig
	Limits    limitsConfig
	Accounts  accountsConfig
}

// accountsConfig is how long browser sessions last and how many failed sign-ins are allowed.
type accountsConfig struct {
	SessionIdle     time.Duration
	SessionLifetime time.Duration
	AccountFailures int
	AddressFailures int

	OIDCIssuer       string
	OIDCClientID     string
	OIDCClientSecret string
	OIDCName         string
	OIDCScopes       []string

	SMTPURL string

	PasskeyRPID string
}

// aiConfig is the one OpenAI-compatible provider every model call goes to: translations, Ask and
// embeddings (docs/ask.md).
type aiConfig struct {
	URL            string
	Model          string
	EmbeddingModel string
	APIKey         string
	Timeout        time.Duration
}

// translateConfig is what only translation runs read; the provider is aiConfig's.
type translateConfig struct {
	Concurrency int
	Timeout     time.Duration
}

type opsConfig struct {
	MetricsAddr string
	CORSOrigins []string
}

type limitsConfig struct {
	Token          int
	Address        int
	AuthFailures   int
	Window         time.Duration
	Store          string
	TrustedProxies []string
}

// adminConfig holds the operator commands' flags (bootstrap, user, token).
type adminConfig struct {
	OrgTitle  string
	Email     string
	Name      string
	Org       string
	Role      string
	Expires   time.Duration
	Scopes    []string
	TokenID   string
	PublicURL string
}

type backupConfig struct {
	Out       string
	From      string
	SkipFiles bool
}

type healthConfig struct {
	Addr    string
	Timeout time.Duration
}

// action is a command's work, given the configuration its flags filled.
type action func(ctx context.Context, cmd *cli.Command, c *config) error

// run adapts an action to urfave/cli's signature.
func (c *config) run(a action) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error { return a(ctx, cmd, c) }
}

// logLevelFlag sets the level of the JSON log on stderr for every command.
func (c *config) logLevelFlag() cli.Flag {
	return &cli.StringFlag{Name: "log-level", Value: "info", Sources: cli.EnvVars("BINDERY_LOG_LEVEL"), Destination: &c.LogLevel,
		Usage: "debug, info, warn or error"}
}

func (c *config) databaseFlag() cli.Flag {
	return &cli.StringFlag{Name: "database", Value: "bindery.db", Sources: cli.EnvVars("BINDERY_DATABASE"), Destination: &c.Database,
		Usage: "a postgres:// URL, or a SQLite file path"}
}

// filesFlag is where uploaded files are kept. --files-dir and BINDERY_FILES_DIR are its older
// names, still read.
func (c *config) filesFlag() cli.Flag {
	return &cli.StringFlag{Name: "files", Aliases: []string{"files-dir"}, Sources: cli.EnvVars("BINDERY_FILES", "BINDERY_FILES_DIR"), Destination: &c.Files,
		Usage: "where uploaded files are kept: a directory (or file:///path), s3://BUCKET?region=…&endpoint=…&use_path_style=true, or mem:// (default: DATABASE-files next to a SQLite file, ./bindery-files for PostgreSQL)"}
}

func (c *config) jsonFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print JSON", Destination: &c.JSON}
}

// serveFlags are `bindery serve`'s flags; README.md's configuration table lists each of them
// (a test checks it).
func (c *config) serveFlags() []cli.Flag {
	s := &c.Serve
	flags := []cli.Flag{
		&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Sources: cli.EnvVars("BINDERY_ADDR"), Destination: &s.Addr, Usage: "listen address"},
		c.databaseFlag(),
		&cli.StringFlag{Name: "public-url", Sources: cli.EnvVars("BINDERY_PUBLIC_URL"), Destination: &s.PublicURL, Usage: "the API's external base URL (default http://ADDR)"},
		&cli.StringFlag{Name: "app-url", Sources: cli.EnvVars("BINDERY_APP_URL"), Destination: &s.AppURL, Usage: "the web app's base URL (default: the public URL)"},
		&cli.StringFlag{Name: "files-origin", Sources: cli.EnvVars("BINDERY_FILES_ORIGIN"), Destination: &s.FilesOrigin, Usage: "an origin of its own that serves uploaded files, e.g. https://usercontent.example (needs --secret-key; see docs/security.md)"},
		&cli.StringFlag{Name: "secret-key", Sources: cli.EnvVars("BINDERY_SECRET_KEY"), Destination: &s.SecretKey, Usage: "encrypts Git credentials while their sync job waits (without it, repository URLs with credentials are refused) and the headers of sites' MCP servers, and signs links to --files-origin"},
		&cli.BoolFlag{Name: "git-allow-local", Sources: cli.EnvVars("BINDERY_GIT_ALLOW_LOCAL"), Destination: &s.GitAllowLocal, Usage: "allow Git Sync with file:// URLs and hosts on loopback, private or link-local addresses"},
		&cli.IntFlag{Name: "db-max-conns", Sources: cli.EnvVars("BINDERY_DB_MAX_CONNS"), Destination: &s.DBMaxConns, Usage: "database connections to keep open: PostgreSQL connections, or SQLite readers (default 4 per CPU, at least 8)"},
		c.filesFlag(),
		// The model provider. The translate-* names are its older names, still read.
		&cli.StringFlag{Name: "ai-url", Aliases: []string{"translate-url"}, Sources: cli.EnvVars("BINDERY_AI_URL", "BINDERY_TRANSLATE_URL"), Destination: &s.AI.URL,
			Usage: "OpenAI-compatible base URL for every model call (translations, Ask, embeddings), e.g. http://localhost:11434/v1 (default: none; translation runs fail and Ask answers 400)"},
		&cli.StringFlag{Name: "ai-model", Aliases: []string{"translate-model"}, Sources: cli.EnvVars("BINDERY_AI_MODEL", "BINDERY_TRANSLATE_MODEL"), Destination: &s.AI.Model, Usage: "chat model name the provider knows"},
		&cli.StringFlag{Name: "ai-embedding-model", Sources: cli.EnvVars("BINDERY_AI_EMBEDDING_MODEL"), Destination: &s.AI.EmbeddingModel, Usage: "embedding model name the provider knows, e.g. nomic-embed-text: Ask also retrieves by meaning (default: none; by words only)"},
		&cli.StringFlag{Name: "ai-api-key", Aliases: []string{"translate-api-key"}, Sources: cli.EnvVars("BINDERY_AI_API_KEY", "BINDERY_TRANSLATE_API_KEY"), Destination: &s.AI.APIKey, Usage: "bearer key for the provider (prefer the environment variable)"},
		&cli.DurationFlag{Name: "ai-timeout", Value: 2 * time.Minute, Sources: cli.EnvVars("BINDERY_AI_TIMEOUT"), Destination: &s.AI.Timeout, Usage: "time limit of one answer, streamed or not"},
		&cli.IntFlag{Name: "translate-concurrency", Value: 4, Sources: cli.EnvVars("BINDERY_TRANSLATE_CONCURRENCY"), Destination: &s.Translate.Concurrency, Usage: "translation requests in flight at once"},
		&cli.DurationFlag{Name: "translate-timeout", Value: 2 * time.Minute, Sources: cli.EnvVars("BINDERY_TRANSLATE_TIMEOUT"), Destination: &s.Translate.Timeout, Usage: "time limit of one translation request"},
		&cli.BoolFlag{Name: "fetch-allow-http", Sources: cli.EnvVars("BINDERY_FETCH_ALLOW_HTTP"), Destination: &s.FetchAllowHTTP, Usage: "let OpenAPI specifications be fetched over plain http (default: https only)"},
		&cli.BoolFlag{Name: "fetch-allow-private", Sources: cli.EnvVars("BINDERY_FETCH_ALLOW_PRIVATE"), Destination: &s.FetchAllowPrivate, Usage: "let OpenAPI specifications be fetched from loopback, private and link-local addresses (default: refused)"},
		&cli.BoolFlag{Name: "webhook-allow-http", Sources: cli.EnvVars("BINDERY_WEBHOOK_ALLOW_HTTP"), Destination: &s.WebhookAllowHTTP, Usage: "let webhooks be delivered over plain http (default: https only)"},
		&cli.BoolFlag{Name: "webhook-allow-private", Sources: cli.EnvVars("BINDERY_WEBHOOK_ALLOW_PRIVATE"), Destination: &s.WebhookAllowPrivate, Usage: "let webhooks be delivered to loopback, private and link-local addresses (default: refused)"},
		&cli.DurationFlag{Name: "webhook-disable-after", Value: 72 * time.Hour, Sources: cli.EnvVars("BINDERY_WEBHOOK_DISABLE_AFTER"), Destination: &s.WebhookDisableAfter, Usage: "disable a webhook endpoint that has failed without a success for this long"},
		&cli.DurationFlag{Name: "event-retention", Value: 365 * 24 * time.Hour, Sources: cli.EnvVars("BINDERY_EVENT_RETENTION"), Destination: &s.EventRetention, Usage: "how long events (the audit log) are kept; 0 keeps them for good"},
		&cli.DurationFlag{Name: "insights-retention", Value: 400 * 24 * time.Hour, Sources: cli.EnvVars("BINDERY_INSIGHTS_RETENTION"), Destination: &s.InsightsRetention, Usage: "how long sites' visitor events (insights) are kept; 0 keeps them for good"},
		// What operators watch.
		&cli.StringFlag{Name: "metrics-addr", Sources: cli.EnvVars("BINDERY_METRICS_ADDR"), Destination: &s.Ops.MetricsAddr,
			Usage: `where GET /metrics (Prometheus) is served: empty for the main listener, a HOST:PORT of its own, or "off"`},
		&cli.StringSliceFlag{Name: "cors-origin", Sources: cli.EnvVars("BINDERY_CORS_ORIGINS"), Destination: &s.Ops.CORSOrigins,
			Usage: `an origin browsers may call the API from, e.g. https://docs.example.com (repeat, or comma-separate in the environment; "*" for any). Default: CORS off`},
	}
	flags = append(flags, c.accountFlags()...)
	return append(flags, c.limitFlags()...)
}

// accountFlags are serve's flags for people's sign-in (docs/accounts.md).
func (c *config) accountFlags() []cli.Flag {
	d, a := account.DefaultConfig(), &c.Serve.Accounts
	return []cli.Flag{
		&cli.DurationFlag{Name: "session-idle-timeout", Value: d.IdleTimeout, Sources: cli.EnvVars("BINDERY_SESSION_IDLE_TIMEOUT"), Destination: &a.SessionIdle,
			Usage: "a browser session not used for this long ends"},
		&cli.DurationFlag{Name: "session-lifetime", Value: d.Lifetime, Sources: cli.EnvVars("BINDERY_SESSION_LIFETIME"), Destination: &a.SessionLifetime,
			Usage: "a browser session ends this long after sign-in, however active"},
		&cli.IntFlag{Name: "signin-account-failures", Value: d.AccountFailures, Sources: cli.EnvVars("BINDERY_SIGNIN_ACCOUNT_FAILURES"), Destination: &a.AccountFailures,
			Usage: "failed sign-ins one account may have per 15 minutes; past it sign-in answers 429 (-1: no limit)"},
		&cli.IntFlag{Name: "signin-address-failures", Value: d.AddressFailures, Sources: cli.EnvVars("BINDERY_SIGNIN_ADDRESS_FAILURES"), Destination: &a.AddressFailures,
			Usage: "failed sign-ins one client address may make per 15 minutes; past it sign-in answers 429 (-1: no limit)"},
		&cli.StringFlag{Name: "oidc-issuer", Sources: cli.EnvVars("BINDERY_OIDC_ISSUER"), Destination: &a.OIDCIssuer,
			Usage: "an OpenID Connect provider's issuer URL: turns on single sign-on (with --oidc-client-id and --oidc-client-secret)"},
		&cli.StringFlag{Name: "oidc-client-id", Sources: cli.EnvVars("BINDERY_OIDC_CLIENT_ID"), Destination: &a.OIDCClientID,
			Usage: "this server's client id at the provider"},
		&cli.StringFlag{Name: "oidc-client-secret", Sources: cli.EnvVars("BINDERY_OIDC_CLIENT_SECRET"), Destination: &a.OIDCClientSecret,
			Usage: "its client secret (prefer the environment variable)"},
		&cli.StringFlag{Name: "oidc-name", Value: "single sign-on", Sources: cli.EnvVars("BINDERY_OIDC_NAME"), Destination: &a.OIDCName,
			Usage: `the provider's name on the sign-in pages ("Sign in with …")`},
		&cli.StringSliceFlag{Name: "oidc-scope", Sources: cli.EnvVars("BINDERY_OIDC_SCOPES"), Destination: &a.OIDCScopes,
			Usage: "a scope to ask for besides openid, email and profile (repeatable): one that brings the claim organizations map to roles, e.g. groups"},
		&cli.StringFlag{Name: "smtp-url", Sources: cli.EnvVars("BINDERY_SMTP_URL"), Destination: &a.SMTPURL,
			Usage: "an SMTP server that sends password reset links: smtp://user:password@host:587?from=bindery@example.com, or smtps://… (default: none; operators print reset links)"},
		&cli.StringFlag{Name: "passkey-rp-id", Sources: cli.EnvVars("BINDERY_PASSKEY_RP_ID"), Destination: &a.PasskeyRPID,
			Usage: "the WebAuthn relying party id passkeys are bound to: the public URL's host (default) or a registrable suffix of it"},
	}
}

// limitFlags are serve's flags for rate limits and the client address they count by
// (docs/security.md).
func (c *config) limitFlags() []cli.Flag {
	d, l := rest.DefaultRateLimits(), &c.Serve.Limits
	return []cli.Flag{
		&cli.IntFlag{Name: "rate-limit-token", Value: d.Token, Sources: cli.EnvVars("BINDERY_RATE_LIMIT_TOKEN"), Destination: &l.Token,
			Usage: "requests one API token may make per window (0: no limit)"},
		&cli.IntFlag{Name: "rate-limit-address", Value: d.Address, Sources: cli.EnvVars("BINDERY_RATE_LIMIT_ADDRESS"), Destination: &l.Address,
			Usage: "requests without a token (published sites, the explorer) one client address may make per window (0: no limit)"},
		&cli.IntFlag{Name: "rate-limit-auth-failures", Value: d.AuthFailures, Sources: cli.EnvVars("BINDERY_RATE_LIMIT_AUTH_FAILURES"), Destination: &l.AuthFailures,
			Usage: "requests with a wrong, expired or revoked token one client address, and one token, may make per window; past it they answer 429, while valid tokens still work (0: no limit)"},
		&cli.DurationFlag{Name: "rate-limit-window", Value: d.Window, Sources: cli.EnvVars("BINDERY_RATE_LIMIT_WINDOW"), Destination: &l.Window,
			Usage: "the window the rate limits count over"},
		&cli.StringFlag{Name: "rate-limit-store", Value: "memory", Sources: cli.EnvVars("BINDERY_RATE_LIMIT_STORE"), Destination: &l.Store,
			Usage: `where request counts are kept: "memory" (this server's own) or "database" (PostgreSQL only: shared by every server on the database)`},
		&cli.StringSliceFlag{Name: "trusted-proxy", Sources: cli.EnvVars("BINDERY_TRUSTED_PROXIES"), Destination: &l.TrustedProxies,
			Usage: "an address or CIDR prefix of a reverse proxy whose X-Forwarded-For names the client (repeat, or comma-separate in the environment). Default: none; the client is the TCP peer"},
	}
}
