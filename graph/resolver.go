// Package graph is the GraphQL door: gqlgen's generated executor, the resolvers (one-line
// adapters onto the domain's operations), the HTTP handler, query cost limits and selections.
package graph

//go:generate go tool gqlgen generate

import "github.com/bindery/bindery/domain"

// Resolver is gqlgen's resolver root: the application, whose methods the resolvers call.
type Resolver struct {
	*domain.App
}

// deref is *p, or the zero value for nil.
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
