package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// extensionRoutes are the /v1 routes GitBook's API does not have: Bindery's own, described in
// /v1/openapi.json with x-bindery-extension and skipped by the contract validation of tests. Add a
// route here when you add one to the table that is not in the contract.
var extensionRoutes = map[string]bool{
	"GET /user/tokens":              true,
	"DELETE /user/tokens/{tokenId}": true,
}

// IsExtension reports whether a route of the table (method and pattern) is a Bindery extension.
func IsExtension(method, pattern string) bool { return extensionRoutes[method+" "+pattern] }

// IsExtensionRequest reports whether a request path under /v1 (without the /v1 prefix) is served
// by an extension route.
func IsExtensionRequest(method, path string) bool {
	rctx := chi.NewRouteContext()
	if !extensionMux.Match(rctx, method, path) {
		return false
	}
	return IsExtension(method, rctx.RoutePattern())
}

var extensionMux = func() *chi.Mux {
	m := chi.NewMux()
	for _, rt := range Routes() {
		if IsExtension(rt.Method, rt.Path) {
			m.Method(rt.Method, rt.Path, http.NotFoundHandler())
		}
	}
	return m
}()
