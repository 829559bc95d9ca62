package domain

import (
	"context"
	"time"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/answer"
	"github.com/bindery/bindery/domain/embedding"
	"github.com/bindery/bindery/domain/mailer"
	"github.com/bindery/bindery/domain/safefetch"
	"github.com/bindery/bindery/domain/translator"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/blob"
)

// Settings holds what operations need to know about where the server is reached.
type Settings struct {
	// PublicURL is the API's base URL (without /v1), used in urls.location.
	PublicURL string
	// AppURL is the web app's base URL, used in urls.app.
	AppURL string
	// FilesURL is the base URL of files' downloadURL: the origin that serves user content when
	// the operator gives it one of its own (--files-origin), else PublicURL.
	FilesURL string
	// Version and Build describe the running binary.
	Version, Build string
	// SingleSignOn names the identity provider people may sign in through ("" when none is
	// configured: organizations cannot require single sign-on).
	SingleSignOn string
	// Fetch is what fetching a user's URL (OpenAPI specifications) may reach; the zero value is
	// https only, public addresses only.
	Fetch safefetch.Policy
	// Webhooks is how webhook deliveries reach endpoints (webhook.go).
	Webhooks WebhookSettings
	// EventRetention is how long events are kept (the audit log); 0 keeps them for good.
	EventRetention time.Duration
	// InsightsRetention is how long sites' visitor events are kept; 0 keeps them for good.
	InsightsRetention time.Duration
}

// App is the application: its dependencies and, through its methods, every operation both
// doors run.
type App struct {
	Store    *storage.Store
	Blobs    *blob.Store // uploaded files' bytes
	Settings Settings
	Now      func() time.Time
	// Translator is the machine-translation provider; nil when none is configured (runs fail).
	Translator *translator.Client
	// Answers answers questions (Ask); nil when no AI provider is configured (Ask answers 400).
	Answers *answer.Client
	// Embeddings embeds pages and questions for Ask's retrieval by meaning; nil when no embedding
	// model is configured (retrieval is lexical only).
	Embeddings *embedding.Client
	// GitSync configures Git import and export (gitsync.go).
	GitSync GitSyncConfig
	// Accounts holds people's passwords and sessions; nil: one with default settings.
	Accounts *account.Service
	// Mail sends invites and sign-in notices (nil: the server mails nothing).
	Mail *mailer.Mailer

	published publishedTrees // published revisions' navigation, link index and files (the reader's page views)
	specDocs  specDocCache   // parsed OpenAPI versions, for the OpenAPI blocks of published pages
	embeds    embedCache     // recent embeds of URLs (embed.go)
	// TokenRevoked, when set, is called with the hash of every token revoked, after the revocation
	// is stored: a cache of authenticated tokens drops its entry there, so that the token is refused
	// on the next request.
	TokenRevoked func(tokenHash string)
	// LookupCNAME resolves a host name's canonical name, to check that a site's own host name
	// points here; nil: the system's resolver. Tests replace it.
	LookupCNAME func(ctx context.Context, host string) (string, error)
}
