// Package doors puts Bindery's doors on one HTTP front: REST's server (package rest) mounts the
// GraphQL door and the published-site reader given here. The binary (cmd/bindery) and tests
// that serve everything call it; no door imports another.
package doors

import (
	"github.com/99designs/gqlgen/graphql"
	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/reader"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/web"
)

// Mount returns opts with the GraphQL door (with exts, and metrics when opts count them), the
// published-site reader and the web app. A browser session may run only the app's persisted
// documents on /graphql (graph.TrustedDocuments).
func Mount(app *domain.App, opts rest.Options, exts ...graphql.HandlerExtension) rest.Options {
	return MountTrusting(app, opts, web.PersistedDocuments(), exts...)
}

// MountTrusting is Mount with the documents a browser session may run given by their SHA-256
// (nil: any document, for tests of sessions themselves; the binary always uses Mount).
func MountTrusting(app *domain.App, opts rest.Options, documents map[string]string, exts ...graphql.HandlerExtension) rest.Options {
	if opts.Metrics != nil {
		exts = append(exts, graph.Metrics(opts.Metrics))
	}
	if documents != nil {
		exts = append(exts, graph.TrustedDocuments(documents))
	}
	opts.GraphQL = &rest.GraphQLDoor{Handler: graph.NewHandler(app, exts...), Public: graph.IsExplorerRequest,
		Refuse: graph.WriteUnauthenticated, Fail: graph.WriteRequestError}
	sites := reader.New(app)
	sites.FilesOrigin = opts.FilesOrigin
	opts.Sites = sites.Routes()
	opts.App, opts.AppRoutes = web.Handler(), web.Routes
	return opts
}
