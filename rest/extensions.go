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
	// Webhooks: GitBook's API has no operations for them.
	"GET /orgs/{organizationId}/webhooks":                                   true,
	"POST /orgs/{organizationId}/webhooks":                                  true,
	"GET /orgs/{organizationId}/webhooks/{webhookId}":                       true,
	"PATCH /orgs/{organizationId}/webhooks/{webhookId}":                     true,
	"DELETE /orgs/{organizationId}/webhooks/{webhookId}":                    true,
	"POST /orgs/{organizationId}/webhooks/{webhookId}/rotate-secret":        true,
	"GET /orgs/{organizationId}/webhooks/{webhookId}/deliveries":            true,
	"POST /orgs/{organizationId}/webhook-deliveries/{deliveryId}/redeliver": true,
	// The audit log: the newer GitBook API's operations (0.202.0), absent from the 0.146.0 contract
	// the tests validate against; their shapes are validated against 0.202.0 (events_test.go).
	"GET /orgs/{organizationId}/audit-events":                true,
	"GET /orgs/{organizationId}/audit-events/{auditEventId}": true,
	"GET /orgs/{organizationId}/audit-event-actions":         true,
	"GET /orgs/{organizationId}/audit-events-export":         true,
	// The newer GitBook API's bulk redirects (0.202.0), validated against it (site_redirects_test.go).
	"PUT /orgs/{organizationId}/sites/{siteId}/redirects": true,
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
