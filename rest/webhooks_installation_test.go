package rest_test

import (
	"context"
	"net/http"
	"testing"
)

// An integration installation registers webhooks with its own token: they hear of the spaces it
// is installed on and of nothing else; it sees and manages its webhooks only, and an admin sees
// every webhook with the installation that made it. An integration whose scopes read no space may
// not register one.
func TestInstallationRegistersWebhooks(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		e.res.Settings.Webhooks.Fetch.AllowHTTP, e.res.Settings.Webhooks.Fetch.AllowPrivate = true, true
		orgID, admin := e.org("Hooked", "admin@hooked.test")
		installed := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Installed"}`).want(http.StatusCreated).object()["id"].(string)
		elsewhere := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Elsewhere"}`).want(http.StatusCreated).object()["id"].(string)
		e.call(admin.Token, "POST", "/integrations/listener", publishBody(orgID, "private", "space:content:read")).want(http.StatusOK)
		inst := e.call(admin.Token, "POST", "/integrations/listener/installations", map[string]any{"organization": orgID}).want(http.StatusCreated).object()["id"].(string)
		e.call(admin.Token, "POST", "/integrations/listener/installations/"+inst+"/spaces", map[string]any{"space": installed}).want(http.StatusCreated)
		tok := e.call(admin.Token, "POST", "/integrations/listener/installations/"+inst+"/tokens", nil).want(http.StatusOK).object()["token"].(string)

		adminHook := e.call(admin.Token, "POST", "/orgs/"+orgID+"/webhooks", `{"url":"http://127.0.0.1:9/admin"}`).want(http.StatusCreated).object()["id"].(string)
		created := e.call(tok, "POST", "/orgs/"+orgID+"/webhooks", `{"url":"http://127.0.0.1:9/listener","eventTypes":["space_updated"]}`).want(http.StatusCreated).object()
		hook := created["id"].(string)
		if created["installationId"] != inst || created["secret"] == nil {
			t.Fatalf("the installation's webhook = %v", created)
		}

		// Its own only: the admin's webhook is not there for it, and it cannot change it.
		var list struct {
			Items []struct{ ID, InstallationID string }
		}
		e.call(tok, "GET", "/orgs/"+orgID+"/webhooks", nil).want(http.StatusOK).decode(&list)
		if len(list.Items) != 1 || list.Items[0].ID != hook {
			t.Errorf("the installation lists %+v, want its own webhook alone", list.Items)
		}
		e.call(tok, "GET", "/orgs/"+orgID+"/webhooks/"+adminHook, nil).wantError(http.StatusNotFound)
		e.call(tok, "PATCH", "/orgs/"+orgID+"/webhooks/"+adminHook, `{"description":"mine now"}`).wantError(http.StatusNotFound)
		e.call(admin.Token, "GET", "/orgs/"+orgID+"/webhooks", nil).want(http.StatusOK).decode(&list)
		if len(list.Items) != 2 {
			t.Errorf("the admin lists %+v, want both webhooks", list.Items)
		}

		// Events: the installed space's reach its webhook, the other space's do not.
		e.call(admin.Token, "PATCH", "/spaces/"+elsewhere, `{"title":"Elsewhere, renamed"}`).want(http.StatusOK)
		e.call(admin.Token, "PATCH", "/spaces/"+installed, `{"title":"Installed, renamed"}`).want(http.StatusOK)
		for {
			n, err := e.res.DispatchWebhooksOnce(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				break
			}
		}
		var log struct {
			Items []struct{ EventType, RequestBody string }
		}
		e.call(tok, "GET", "/orgs/"+orgID+"/webhooks/"+hook+"/deliveries", nil).want(http.StatusOK).decode(&log)
		if len(log.Items) != 1 || log.Items[0].EventType != "space_updated" {
			t.Fatalf("the installation's deliveries = %+v, want the installed space's update alone", log.Items)
		}
		var adminLog struct{ Items []struct{ EventType string } }
		e.call(admin.Token, "GET", "/orgs/"+orgID+"/webhooks/"+adminHook+"/deliveries", nil).want(http.StatusOK).decode(&adminLog)
		if len(adminLog.Items) < 2 {
			t.Errorf("the admin's webhook got %d deliveries, want every event", len(adminLog.Items))
		}

		// An integration that reads no space may not listen.
		e.call(admin.Token, "POST", "/integrations/deaf", publishBody(orgID, "private", "openapi:read")).want(http.StatusOK)
		deaf := e.call(admin.Token, "POST", "/integrations/deaf/installations", map[string]any{"organization": orgID}).want(http.StatusCreated).object()["id"].(string)
		deafTok := e.call(admin.Token, "POST", "/integrations/deaf/installations/"+deaf+"/tokens", nil).want(http.StatusOK).object()["token"].(string)
		e.call(deafTok, "POST", "/orgs/"+orgID+"/webhooks", `{"url":"http://127.0.0.1:9/deaf"}`).wantError(http.StatusForbidden)

		// GraphQL shows the installation too.
		var gql struct {
			Organization struct {
				Webhook struct{ InstallationID string }
			}
		}
		e.gql(admin.Token, `query($o: ID!, $wh: ID!) { organization(id: $o) { webhook(id: $wh) { installationId } } }`, map[string]any{"o": orgID, "wh": hook}).ok(&gql)
		if gql.Organization.Webhook.InstallationID != inst {
			t.Errorf("GraphQL installationId = %q, want %s", gql.Organization.Webhook.InstallationID, inst)
		}
	})
}
