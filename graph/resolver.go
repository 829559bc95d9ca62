// Package graph is Bindery's application layer: every validation rule, authorization check and
// state change sits behind a resolver method, which both doors call.
package graph

//go:generate go tool gqlgen generate

import (
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/blob"
)

// Settings holds what resolvers need to know about where the server is reached.
type Settings struct {
	// PublicURL is the API's base URL (without /v1), used in urls.location.
	PublicURL string
	// AppURL is the web app's base URL, used in urls.app.
	AppURL string
	// Version and Build describe the running binary.
	Version, Build string
}

// Resolver is the dependency-injection root shared by GraphQL and REST.
type Resolver struct {
	Store    *storage.Store
	Blobs    *blob.Store // uploaded files' bytes
	Settings Settings
	Now      func() time.Time
	// TokenRevoked, when set, is called with the hash of every token revoked, after the revocation
	// is stored: a cache of authenticated tokens drops its entry there, so that the token is refused
	// on the next request.
	TokenRevoked func(tokenHash string)
}
