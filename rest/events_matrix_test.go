package rest_test

import (
	"context"
	"net/http"
	"strings"

	"github.com/bindery/bindery/storage"
)

// The webhook and audit-log routes in the permission matrix: organization admins only.

func init() { matrix = append(matrix, eventsMatrix()...) }

func webhookPath(suffix string) func(fixture) string {
	return func(f fixture) string { return "/orgs/" + f.org + "/webhooks/" + f.webhook + suffix }
}

func eventsMatrix() []matrixCase {
	return []matrixCase{
		{"GET", "/orgs/{organizationId}/webhooks", adminOnly, 200, org("/webhooks"), "", `query($o: ID!) { organization(id: $o) { webhooks { totalCount } } }`},
		{"POST", "/orgs/{organizationId}/webhooks", adminOnly, 201, org("/webhooks"), `{"url":"https://93.184.216.34/new"}`,
			`mutation($o: ID!) { createWebhook(organizationId: $o, input: {url: "https://93.184.216.34/new"}) { id } }`},
		{"GET", "/orgs/{organizationId}/webhooks/{webhookId}", adminOnly, 200, webhookPath(""), "", `query($o: ID!, $wh: ID!) { organization(id: $o) { webhook(id: $wh) { id } } }`},
		{"PATCH", "/orgs/{organizationId}/webhooks/{webhookId}", adminOnly, 200, webhookPath(""), `{"description":"d"}`,
			`mutation($o: ID!, $wh: ID!) { updateWebhook(organizationId: $o, webhookId: $wh, input: {description: "d"}) { id } }`},
		{"DELETE", "/orgs/{organizationId}/webhooks/{webhookId}", adminOnly, 204, webhookPath(""), "", `mutation($o: ID!, $wh: ID!) { deleteWebhook(organizationId: $o, webhookId: $wh) }`},
		{"POST", "/orgs/{organizationId}/webhooks/{webhookId}/rotate-secret", adminOnly, 200, webhookPath("/rotate-secret"), "",
			`mutation($o: ID!, $wh: ID!) { rotateWebhookSecret(organizationId: $o, webhookId: $wh) { id } }`},
		{"GET", "/orgs/{organizationId}/webhooks/{webhookId}/deliveries", adminOnly, 200, webhookPath("/deliveries"), "",
			`query($o: ID!, $wh: ID!) { organization(id: $o) { webhook(id: $wh) { deliveries { totalCount } } } }`},
		{"POST", "/orgs/{organizationId}/webhook-deliveries/{deliveryId}/redeliver", adminOnly, 201, func(f fixture) string { return "/orgs/" + f.org + "/webhook-deliveries/" + f.delivery + "/redeliver" }, "",
			`mutation($o: ID!, $wd: ID!) { redeliverWebhookDelivery(organizationId: $o, deliveryId: $wd) { id } }`},
		{"GET", "/orgs/{organizationId}/audit-events", adminOnly, 200, org("/audit-events"), "", `query($o: ID!) { organization(id: $o) { auditEvents { totalCount } } }`},
		{"GET", "/orgs/{organizationId}/audit-events/{auditEventId}", adminOnly, 200, func(f fixture) string { return "/orgs/" + f.org + "/audit-events/" + f.auditEvent }, "",
			`query($o: ID!, $ae: ID!) { organization(id: $o) { auditEvent(id: $ae) { id } } }`},
		{"GET", "/orgs/{organizationId}/audit-event-actions", adminOnly, 200, org("/audit-event-actions"), "", `query($o: ID!) { organization(id: $o) { auditEventActions { id } } }`},
		{"GET", "/orgs/{organizationId}/audit-events-export", adminOnly, 200, org("/audit-events-export"), "", `query($o: ID!) { organization(id: $o) { auditEvents(first: 100) { totalCount } } }`},
	}
}

// matrixEvents gives a fixture a webhook with one logged delivery, and the id of an audit event,
// when the path is about them.
func (e *env) matrixEvents(path string, admin account, f *fixture) {
	e.t.Helper()
	if strings.Contains(path, "webhook") || path == sharedFixturePath {
		f.webhook = e.call(admin.Token, "POST", "/orgs/"+f.org+"/webhooks", `{"url":"https://93.184.216.34/hook"}`).want(http.StatusCreated).object()["id"].(string)
		e.call(admin.Token, "POST", "/orgs/"+f.org+"/spaces", `{"title":"Hooked"}`).want(http.StatusCreated)
		if _, err := e.res.DispatchWebhooksOnce(context.Background()); err != nil {
			e.t.Fatal(err)
		}
		log, err := e.res.Store.WebhookDeliveries(context.Background(), f.webhook, storage.Window{Limit: 1})
		if err != nil || len(log.Items) != 1 {
			e.t.Fatalf("fixture delivery: %v, %v", log.Items, err)
		}
		f.delivery = log.Items[0].ID
	}
	if strings.Contains(path, "audit-events/") || path == sharedFixturePath {
		evs, err := e.res.Store.FindEvents(context.Background(), storage.EventFilter{OrganizationID: f.org}, storage.Window{Limit: 1})
		if err != nil || len(evs.Items) != 1 {
			e.t.Fatalf("fixture audit event: %v, %v", evs.Items, err)
		}
		f.auditEvent = evs.Items[0].ID
	}
}
