package rest

import (
	"net/http"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// Webhooks (Bindery's own routes: GitBook's API has none) and the audit log (the newer GitBook
// API's audit operations, @gitbook/api 0.202.0).
func (a *api) eventRoutes() []Route {
	return []Route{
		{"GET", "/orgs/{organizationId}/webhooks", a.listWebhooks},
		{"POST", "/orgs/{organizationId}/webhooks", a.createWebhook},
		{"GET", "/orgs/{organizationId}/webhooks/{webhookId}", a.getWebhook},
		{"PATCH", "/orgs/{organizationId}/webhooks/{webhookId}", a.updateWebhook},
		{"DELETE", "/orgs/{organizationId}/webhooks/{webhookId}", a.deleteWebhook},
		{"POST", "/orgs/{organizationId}/webhooks/{webhookId}/rotate-secret", a.rotateWebhookSecret},
		{"GET", "/orgs/{organizationId}/webhooks/{webhookId}/deliveries", a.listWebhookDeliveries},
		{"POST", "/orgs/{organizationId}/webhook-deliveries/{deliveryId}/redeliver", a.redeliverWebhookDelivery},
		{"GET", "/orgs/{organizationId}/audit-events", a.listOrganizationAuditEvents},
		{"GET", "/orgs/{organizationId}/audit-events/{auditEventId}", a.getOrganizationAuditEvent},
		{"GET", "/orgs/{organizationId}/audit-event-actions", a.listOrganizationAuditEventActions},
		{"GET", "/orgs/{organizationId}/audit-events-export", a.exportOrganizationAuditEvents},
	}
}

func (a *api) listWebhooks(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, func(r *http.Request) (string, error) { return chi.URLParam(r, "organizationId"), nil },
		func(orgID string, first *int, after *string) (*model.WebhookConnection, error) {
			return a.res.Webhooks(r.Context(), orgID, first, after)
		})
}

func (a *api) createWebhook(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CreateWebhookInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	hook, err := a.res.CreateWebhook(r.Context(), chi.URLParam(r, "organizationId"), in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, hook, nil
}

func (a *api) getWebhook(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.WebhookByID(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "webhookId")))
}

func (a *api) updateWebhook(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateWebhookInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.UpdateWebhook(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "webhookId"), in))
}

func (a *api) deleteWebhook(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.DeleteWebhook(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "webhookId")))
}

func (a *api) rotateWebhookSecret(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.RotateWebhookSecret(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "webhookId")))
}

func (a *api) listWebhookDeliveries(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, func(r *http.Request) (string, error) { return chi.URLParam(r, "webhookId"), nil },
		func(id string, first *int, after *string) (*model.WebhookDeliveryConnection, error) {
			return a.res.WebhookDeliveries(r.Context(), chi.URLParam(r, "organizationId"), id, first, after)
		})
}

func (a *api) redeliverWebhookDelivery(w http.ResponseWriter, r *http.Request) (int, any, error) {
	d, err := a.res.RedeliverWebhookDelivery(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "deliveryId"))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, d, nil
}

// auditFilter reads listOrganizationAuditEvents' filters. Errors: Invalid.
func auditFilter(r *http.Request) (model.AuditEventFilter, error) {
	q := r.URL.Query()
	f := model.AuditEventFilter{Action: optionalQuery[string](r, "action"), Actor: optionalQuery[string](r, "actor"), Target: optionalQuery[string](r, "target")}
	for name, dst := range map[string]**time.Time{"from": &f.From, "to": &f.To} {
		if v, set := q[name]; set {
			t, err := time.Parse(time.RFC3339Nano, v[0])
			if err != nil {
				return f, apperr.Invalidf(name, "must be a date-time (RFC 3339)")
			}
			*dst = &t
		}
	}
	return f, nil
}

func (a *api) listOrganizationAuditEvents(w http.ResponseWriter, r *http.Request) (int, any, error) {
	f, err := auditFilter(r)
	if err != nil {
		return 0, nil, err
	}
	return nestedList(r, func(r *http.Request) (string, error) { return chi.URLParam(r, "organizationId"), nil },
		func(orgID string, first *int, after *string) (*model.AuditEventConnection, error) {
			return a.res.AuditEvents(r.Context(), orgID, f, first, after)
		})
}

func (a *api) getOrganizationAuditEvent(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.AuditEvent(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "auditEventId")))
}

func (a *api) listOrganizationAuditEventActions(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.AuditEventActions(r.Context(), chi.URLParam(r, "organizationId")))
}

// exportOrganizationAuditEvents streams the audit log as JSON lines (application/x-ndjson),
// oldest first, with the same filters as the list.
func (a *api) exportOrganizationAuditEvents(w http.ResponseWriter, r *http.Request) (int, any, error) {
	f, err := auditFilter(r)
	if err != nil {
		return 0, nil, err
	}
	out := &lazyHeader{w: w, contentType: "application/x-ndjson"}
	if err := a.res.ExportAuditEvents(r.Context(), chi.URLParam(r, "organizationId"), f, out); err != nil {
		if !out.started {
			return 0, nil, err
		}
		return 0, nil, nil // the answer has begun: it ends short
	}
	if !out.started { // nothing matched
		w.Header().Set("Content-Type", out.contentType)
		w.WriteHeader(http.StatusOK)
	}
	return 0, nil, nil
}

// lazyHeader sends the status and content type with the first bytes, so that an error found
// before anything is written still gets the contract's error body.
type lazyHeader struct {
	w           http.ResponseWriter
	contentType string
	started     bool
}

func (l *lazyHeader) Write(p []byte) (int, error) {
	if !l.started {
		l.started = true
		l.w.Header().Set("Content-Type", l.contentType)
		l.w.WriteHeader(http.StatusOK)
	}
	return l.w.Write(p)
}

// eventOp documents one of eventRoutes in /v1/openapi.json.
func eventOp(id, tag, summary, status, answer string) map[string]any {
	return map[string]any{
		"operationId": id, "summary": summary, "tags": []any{tag},
		"responses": map[string]any{status: map[string]any{"description": answer}},
	}
}

// eventOps are eventRoutes' descriptions (docs/events.md is the manual).
var eventOps = map[string]map[string]any{
	"GET /orgs/{organizationId}/webhooks":                eventOp("listWebhooks", "webhooks", "List the organization's webhooks, newest first (admins)", "200", "The webhooks (the list envelope), without their secrets"),
	"POST /orgs/{organizationId}/webhooks":               eventOp("createWebhook", "webhooks", "Register a webhook: url, description, eventTypes (empty: every type)", "201", "The webhook, with its secret (shown this once)"),
	"GET /orgs/{organizationId}/webhooks/{webhookId}":    eventOp("getWebhook", "webhooks", "Get a webhook", "200", "The webhook, without its secret"),
	"PATCH /orgs/{organizationId}/webhooks/{webhookId}":  eventOp("updateWebhook", "webhooks", "Change a webhook's url, description, eventTypes or enabled", "200", "The webhook"),
	"DELETE /orgs/{organizationId}/webhooks/{webhookId}": eventOp("deleteWebhook", "webhooks", "Delete a webhook and its delivery log", "204", "Deleted"),
	"POST /orgs/{organizationId}/webhooks/{webhookId}/rotate-secret": eventOp("rotateWebhookSecret", "webhooks",
		"Give a webhook a new secret; the previous one keeps signing during the overlap", "200", "The webhook, with its new secret (shown this once)"),
	"GET /orgs/{organizationId}/webhooks/{webhookId}/deliveries": eventOp("listWebhookDeliveries", "webhooks", "A webhook's delivery log, newest first", "200", "The deliveries (the list envelope)"),
	"POST /orgs/{organizationId}/webhook-deliveries/{deliveryId}/redeliver": eventOp("redeliverWebhookDelivery", "webhooks",
		"Send a logged delivery again (same event id, same body)", "201", "The new entry of the log"),
	"GET /orgs/{organizationId}/audit-events": eventOp("listOrganizationAuditEvents", "organizations",
		"List organization audit events, newest first (admins; as @gitbook/api 0.202.0: limit up to 100, from, to, action, actor, target)", "200", "Paginated audit events"),
	"GET /orgs/{organizationId}/audit-events/{auditEventId}": eventOp("getOrganizationAuditEvent", "organizations", "Get an organization audit event with its payload (as @gitbook/api 0.202.0)", "200", "The audit event"),
	"GET /orgs/{organizationId}/audit-event-actions":         eventOp("listOrganizationAuditEventActions", "organizations", "List the audit event actions (as @gitbook/api 0.202.0)", "200", "Supported audit event actions"),
	"PUT /orgs/{organizationId}/sites/{siteId}/redirects": eventOp("bulkUpsertSiteRedirects", "site-redirects",
		"Create, change or delete up to 500 redirects, each on its own (as @gitbook/api 0.202.0; live, permanent redirects from one path only: other items answer status error)", "200", "Each item's outcome, in order"),
	"GET /orgs/{organizationId}/audit-events-export": eventOp("exportOrganizationAuditEvents", "organizations",
		"Export the audit log as JSON lines (application/x-ndjson), oldest first, with the list's filters", "200", "One AuditEvent (with payload) per line"),
}
