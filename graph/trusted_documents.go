package graph

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/bindery/bindery/domain/account"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// TrustedDocuments lets a request authenticated by a browser session's cookie run only the
// app's own documents, persisted when the app was built (docs/app.md): it names one by its
// SHA-256 in extensions.persistedQuery.sha256Hash (or documentId), never sends text of its own.
// A page that manages to ride the cookie can then only do what the app's screens do. Requests
// with a token (scripts, the explorer) keep arbitrary documents.
func TrustedDocuments(docs map[string]string) graphql.HandlerExtension {
	return trustedDocuments{docs: docs}
}

type trustedDocuments struct{ docs map[string]string }

func (trustedDocuments) ExtensionName() string                   { return "TrustedDocuments" }
func (trustedDocuments) Validate(graphql.ExecutableSchema) error { return nil }

func (t trustedDocuments) MutateOperationParameters(ctx context.Context, params *graphql.RawParams) *gqlerror.Error {
	if account.SessionFrom(ctx) == nil {
		return nil
	}
	id := persistedID(params)
	if id == "" {
		return untrusted("a signed-in browser may run only the app's own GraphQL documents, named by their hash; use an API token to send other queries")
	}
	doc, ok := t.docs[strings.TrimPrefix(id, "sha256:")]
	if !ok {
		return untrusted("this document is not one of the app's own (the app may be newer than the server: reload it)")
	}
	if params.Query != "" && params.Query != doc {
		return untrusted("the query text differs from the app's own document with this hash")
	}
	params.Query = doc
	return nil
}

// persistedID is the document's hash as Apollo's persisted-query extension or a documentId
// names it.
func persistedID(params *graphql.RawParams) string {
	if pq, ok := params.Extensions["persistedQuery"].(map[string]any); ok {
		if h, ok := pq["sha256Hash"].(string); ok {
			return h
		}
	}
	if id, ok := params.Extensions["documentId"].(string); ok {
		return id
	}
	return ""
}

func untrusted(message string) *gqlerror.Error {
	return &gqlerror.Error{Message: message, Extensions: map[string]any{"code": "UNTRUSTED_DOCUMENT"}}
}
