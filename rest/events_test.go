package rest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/bindery/bindery/rest/contracttest"
)

// callNewer is call for the audit operations, validated against the newer contract
// (@gitbook/api 0.202.0) that defines them.
func (e *env) callNewer(token, method, path string) response {
	e.t.Helper()
	res := e.call(token, method, path, nil)
	contracttest.ValidateNewer(e.t, httptest.NewRequest(method, "/v1"+path, nil), res.Status, res.Header, res.Body)
	return res
}

// The audit operations answer the newer contract's shapes, page and filter, hide another
// organization's events, refuse bad input with 400, and agree with GraphQL; the export is JSON
// lines.
func TestAuditEventsThroughBothDoors(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Audited", "admin@audited.test")
		otherID, otherAdmin := e.org("Elsewhere", "admin@elsewhere-audit.test")
		member := e.member(orgID, "writer@audited.test", "edit")
		space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Audited space"}`).want(http.StatusCreated).object()["id"].(string)
		e.call(admin.Token, "PATCH", "/orgs/"+orgID+"/members/"+member.ID, `{"role":"read"}`).want(http.StatusOK)
		e.call(admin.Token, "PATCH", "/spaces/"+space, `{"title":"Renamed"}`).want(http.StatusOK)
		e.call(otherAdmin.Token, "POST", "/orgs/"+otherID+"/spaces", `{"title":"Theirs"}`).want(http.StatusCreated)

		var page struct {
			Items []struct {
				ID, Action, Source string
				Actor, Target      struct{ Type, ID string }
			}
			Count int
			Next  *struct{ Page string }
		}
		e.callNewer(admin.Token, "GET", "/orgs/"+orgID+"/audit-events?limit=2").want(http.StatusOK).decode(&page)
		if len(page.Items) != 2 || page.Next == nil || page.Items[0].Action != "space_updated" || page.Items[1].Action != "member_role_updated" {
			t.Fatalf("first page = %+v", page)
		}
		if a := page.Items[1]; a.Target.Type != "member" || a.Target.ID != member.ID || a.Actor.ID != admin.ID || a.Source != "api" {
			t.Errorf("role change = %+v", a)
		}
		total := page.Count
		seen := len(page.Items)
		for page.Next != nil {
			next := page.Next.Page
			page.Next = nil
			e.callNewer(admin.Token, "GET", "/orgs/"+orgID+"/audit-events?limit=2&page="+url.QueryEscape(next)).want(http.StatusOK).decode(&page)
			seen += len(page.Items)
		}
		if seen != total {
			t.Errorf("paged through %d events, count %d", seen, total)
		}

		e.callNewer(admin.Token, "GET", "/orgs/"+orgID+"/audit-events?action=space_created&actor="+admin.ID).want(http.StatusOK).decode(&page)
		if len(page.Items) != 1 || page.Items[0].Target.ID != space {
			t.Fatalf("filtered = %+v, want the one space_created", page.Items)
		}
		created := page.Items[0].ID
		e.callNewer(admin.Token, "GET", "/orgs/"+orgID+"/audit-events?target="+member.ID+"&from=2000-01-01T00:00:00Z&to=2999-01-01T00:00:00Z").want(http.StatusOK).decode(&page)
		if len(page.Items) != 1 || page.Items[0].Action != "member_role_updated" {
			t.Errorf("by target = %+v", page.Items)
		}

		var one struct {
			ID            string
			SchemaVersion int
			Payload       map[string]any
		}
		e.callNewer(admin.Token, "GET", "/orgs/"+orgID+"/audit-events/"+created).want(http.StatusOK).decode(&one)
		if one.ID != created || one.SchemaVersion != 1 || one.Payload["spaceId"] != space || one.Payload["title"] != "Audited space" {
			t.Errorf("details = %+v", one)
		}
		var actions struct{ Items []struct{ ID, Label string } }
		e.callNewer(admin.Token, "GET", "/orgs/"+orgID+"/audit-event-actions").want(http.StatusOK).decode(&actions)
		if len(actions.Items) < 10 || actions.Items[0].ID != "space_created" {
			t.Errorf("actions = %+v", actions.Items)
		}

		// Another organization's event, a made-up id, a member who is not an admin, bad input.
		e.callNewer(otherAdmin.Token, "GET", "/orgs/"+otherID+"/audit-events/"+created).wantError(http.StatusNotFound)
		e.callNewer(admin.Token, "GET", "/orgs/"+orgID+"/audit-events/not-an-id").wantError(http.StatusNotFound)
		e.callNewer(otherAdmin.Token, "GET", "/orgs/"+orgID+"/audit-events").wantError(http.StatusNotFound)
		e.callNewer(member.Token, "GET", "/orgs/"+orgID+"/audit-events").wantError(http.StatusForbidden)
		for _, q := range []string{"limit=101", "limit=0", "from=yesterday", "page=garbage", "from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z"} {
			e.call(admin.Token, "GET", "/orgs/"+orgID+"/audit-events?"+q, nil).wantError(http.StatusBadRequest)
		}

		// GraphQL reads the same log.
		var gql struct {
			Organization struct {
				AuditEvents struct {
					TotalCount int
					Nodes      []struct{ ID, Action string }
				}
				AuditEvent struct{ Payload map[string]any }
			}
		}
		e.gql(admin.Token, `query($o: ID!, $ae: ID!) { organization(id: $o) { auditEvents(first: 100, filter: {action: "space_created"}) { totalCount nodes { id action } } auditEvent(id: $ae) { payload } } }`,
			map[string]any{"o": orgID, "ae": created}).ok(&gql)
		if got := gql.Organization.AuditEvents; got.TotalCount != 1 || got.Nodes[0].ID != created || gql.Organization.AuditEvent.Payload["spaceId"] != space {
			t.Errorf("GraphQL = %+v", gql.Organization)
		}
		if code := e.gql(member.Token, `query($o: ID!) { organization(id: $o) { auditEvents { totalCount } } }`, map[string]any{"o": orgID}).code(); code != "FORBIDDEN" {
			t.Errorf("a member's GraphQL read: %q, want FORBIDDEN", code)
		}

		// The export: every event, oldest first, one JSON object a line.
		res := e.call(admin.Token, "GET", "/orgs/"+orgID+"/audit-events-export", nil).want(http.StatusOK)
		if ct := res.Header.Get("Content-Type"); ct != "application/x-ndjson" {
			t.Errorf("export content type %q", ct)
		}
		lines := 0
		var last string
		sc := bufio.NewScanner(bytes.NewReader(res.Body))
		for sc.Scan() {
			var ev struct{ ID, Action string }
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || ev.ID == "" {
				t.Fatalf("line %d: %q (%v)", lines+1, sc.Text(), err)
			}
			lines++
			last = ev.Action
		}
		if lines != total || last != "space_updated" {
			t.Errorf("export: %d lines ending with %s, want %d ending with space_updated", lines, last, total)
		}
		e.call(member.Token, "GET", "/orgs/"+orgID+"/audit-events-export", nil).wantError(http.StatusForbidden)
	})
}

// Webhooks through REST: the secret once, validation with the contract's error body, another
// organization's ids not found.
func TestWebhooksREST(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Hooks", "admin@hooks-rest.test")
		otherID, otherAdmin := e.org("Else", "admin@else-hooks.test")
		made := e.call(admin.Token, "POST", "/orgs/"+orgID+"/webhooks", `{"url":"https://93.184.216.34/in","eventTypes":["space_created"],"description":"CI"}`).want(http.StatusCreated).object()
		id := made["id"].(string)
		if s, _ := made["secret"].(string); !strings.HasPrefix(s, "whsec_") {
			t.Fatalf("secret = %v", made["secret"])
		}
		got := e.call(admin.Token, "GET", "/orgs/"+orgID+"/webhooks/"+id, nil).want(http.StatusOK).object()
		if _, shown := got["secret"]; shown || got["description"] != "CI" || got["enabled"] != true {
			t.Errorf("webhook = %v", got)
		}
		for _, body := range []string{`{"url":"http://93.184.216.34/in"}`, `{"url":""}`, `{"url":"https://93.184.216.34/in","eventTypes":["nope"]}`, `{"url":5}`, `[]`} {
			e.call(admin.Token, "POST", "/orgs/"+orgID+"/webhooks", body).wantError(http.StatusBadRequest)
		}
		e.call(admin.Token, "PATCH", "/orgs/"+orgID+"/webhooks/"+id, `{"enabled":null}`).wantError(http.StatusBadRequest)
		patched := e.call(admin.Token, "PATCH", "/orgs/"+orgID+"/webhooks/"+id, `{"enabled":false,"eventTypes":[]}`).want(http.StatusOK).object()
		if patched["enabled"] != false || len(patched["eventTypes"].([]any)) != 0 {
			t.Errorf("patched = %v", patched)
		}
		rotated := e.call(admin.Token, "POST", "/orgs/"+orgID+"/webhooks/"+id+"/rotate-secret", nil).want(http.StatusOK).object()
		if rotated["secret"] == made["secret"] {
			t.Error("rotation kept the secret")
		}
		var list struct {
			Items []struct{ ID string }
			Count int
		}
		e.call(admin.Token, "GET", "/orgs/"+orgID+"/webhooks", nil).want(http.StatusOK).decode(&list)
		if list.Count != 1 || list.Items[0].ID != id {
			t.Errorf("list = %+v", list)
		}
		e.call(otherAdmin.Token, "GET", "/orgs/"+otherID+"/webhooks/"+id, nil).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "DELETE", "/orgs/"+orgID+"/webhooks/"+id, nil).wantError(http.StatusNotFound)
		e.call(admin.Token, "POST", "/orgs/"+orgID+"/webhook-deliveries/missing/redeliver", nil).wantError(http.StatusNotFound)
		e.call(admin.Token, "DELETE", "/orgs/"+orgID+"/webhooks/"+id, nil).want(http.StatusNoContent)
		e.call(admin.Token, "GET", "/orgs/"+orgID+"/webhooks/"+id, nil).wantError(http.StatusNotFound)
	})
}
