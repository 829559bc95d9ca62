package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/rest"
	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// wsClient speaks graphql-ws (graphql-transport-ws) to /graphql over a real websocket.
type wsClient struct {
	t    *testing.T
	conn *websocket.Conn
}

type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

func dialGraphQL(t *testing.T, srv *httptest.Server, token string) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql", &websocket.DialOptions{
		Subprotocols: []string{"graphql-transport-ws"},
		HTTPHeader:   http.Header{"Authorization": {"Bearer " + token}},
	})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { conn.Close(websocket.StatusNormalClosure, "") })
	c := &wsClient{t: t, conn: conn}
	c.send(wsMessage{Type: "connection_init", Payload: json.RawMessage(`{}`)})
	if m := c.next(); m.Type != "connection_ack" {
		t.Fatalf("after connection_init: %+v", m)
	}
	return c
}

func (c *wsClient) send(m wsMessage) {
	c.t.Helper()
	if err := wsjson.Write(context.Background(), c.conn, m); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// next returns the next message other than a ping (answering pings).
func (c *wsClient) next() wsMessage {
	c.t.Helper()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var m wsMessage
		err := wsjson.Read(ctx, c.conn, &m)
		cancel()
		if err != nil {
			c.t.Fatalf("read: %v", err)
		}
		if m.Type == "ping" {
			c.send(wsMessage{Type: "pong"})
			continue
		}
		return m
	}
}

func (c *wsClient) subscribe(id, query string, vars map[string]any) {
	c.t.Helper()
	payload, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	c.send(wsMessage{ID: id, Type: "subscribe", Payload: payload})
}

// A subscriber receives a space's events over a websocket as they commit; one who may no longer
// read the space stops receiving at once; another organization's space is refused.
func TestSubscriptionsOverWebsocket(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		// As serve runs it: a request's deadline must not end a subscription.
		srv := httptest.NewServer(rest.Deadlines(rest.ServerLimits{RequestTimeout: 300 * time.Millisecond, BodyTimeout: 300 * time.Millisecond})(e.h))
		t.Cleanup(srv.Close)
		orgID, admin := e.org("Live", "admin@live.test")
		_, stranger := e.org("Away", "admin@away-live.test")
		reader := e.member(orgID, "reader@live.test", "read")
		space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Live"}`).want(http.StatusCreated).object()["id"].(string)

		c := dialGraphQL(t, srv, reader.Token)
		c.subscribe("1", `subscription($s: ID!) { spaceEvents(spaceId: $s) { id type spaceId revisionId actor { id } } }`, map[string]any{"s": space})
		time.Sleep(600 * time.Millisecond) // past the request deadline
		e.call(admin.Token, "PATCH", "/spaces/"+space, `{"title":"Live, renamed"}`).want(http.StatusOK)
		m := c.next()
		var got struct {
			Data struct {
				SpaceEvents struct {
					ID, Type, SpaceID string
					Actor             struct{ ID string }
				}
			}
		}
		if err := json.Unmarshal(m.Payload, &got); err != nil || m.Type != "next" || m.ID != "1" {
			t.Fatalf("message = %s %s %s (%v)", m.Type, m.ID, m.Payload, err)
		}
		if ev := got.Data.SpaceEvents; ev.Type != "space_updated" || ev.SpaceID != space || ev.Actor.ID != admin.ID || ev.ID == "" {
			t.Errorf("event = %+v", ev)
		}

		// Removed from the organization: the next event is not delivered, the stream completes.
		e.call(admin.Token, "DELETE", "/orgs/"+orgID+"/members/"+reader.ID, nil).want(http.StatusNoContent)
		e.call(admin.Token, "PATCH", "/spaces/"+space, `{"title":"Secret now"}`).want(http.StatusOK)
		if m := c.next(); m.Type != "complete" || m.ID != "1" {
			t.Errorf("after removal: %s %s, want complete", m.Type, m.Payload)
		}

		// The admin follows members and comments on one connection: two subscriptions.
		adm := dialGraphQL(t, srv, admin.Token)
		adm.subscribe("m", `subscription($o: ID!) { organizationMemberEvents(organizationId: $o) { type userId } }`, map[string]any{"o": orgID})
		adm.subscribe("c", `subscription($s: ID!) { commentEvents(spaceId: $s) { type commentId } }`, map[string]any{"s": space})
		time.Sleep(200 * time.Millisecond)
		e.call(admin.Token, "PATCH", "/spaces/"+space, `{"title":"Not a comment"}`).want(http.StatusOK) // neither stream's
		e.call(admin.Token, "POST", "/orgs/"+orgID+"/invites", `{"emails":["new@live.test"]}`).want(http.StatusOK)
		comment := e.call(admin.Token, "POST", "/spaces/"+space+"/comments", `{"body":{"markdown":"Hello"}}`).want(http.StatusOK).object()["id"].(string)
		seen := map[string]string{}
		for range 2 {
			m := adm.next()
			seen[m.ID] = string(m.Payload)
		}
		if !strings.Contains(seen["m"], `"type":"member_invited"`) || !strings.Contains(seen["c"], `"commentId":"`+comment+`"`) {
			t.Errorf("admin's streams = %v", seen)
		}

		// Another organization's space: a NOT_FOUND error, as a missing one, then the end.
		other := dialGraphQL(t, srv, stranger.Token)
		other.subscribe("2", `subscription($s: ID!) { spaceEvents(spaceId: $s) { id } }`, map[string]any{"s": space})
		if m := other.next(); m.Type != "next" || !strings.Contains(string(m.Payload), `"code":"NOT_FOUND"`) || strings.Contains(string(m.Payload), `"spaceEvents":{`) {
			t.Errorf("another organization's space: %s %s, want a NOT_FOUND error", m.Type, m.Payload)
		}
		if m := other.next(); m.Type != "complete" {
			t.Errorf("after the error: %s, want complete", m.Type)
		}
	})
}

// A browser session's subscriptions follow the trusted-documents rule too: over a websocket a
// cookie may run only the app's own documents, as over POST.
func TestCookieSubscriptionsRunOnlyTrustedDocuments(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Live", "admin@live.test")
		cookie := e.withSessions()(admin)
		srv := httptest.NewServer(e.h)
		t.Cleanup(srv.Close)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql", &websocket.DialOptions{
			Subprotocols: []string{"graphql-transport-ws"},
			HTTPHeader:   http.Header{"Cookie": {cookie}},
		})
		if err != nil {
			t.Fatalf("dial with the cookie: %v", err)
		}
		t.Cleanup(func() { conn.Close(websocket.StatusNormalClosure, "") })
		c := &wsClient{t: t, conn: conn}
		c.send(wsMessage{Type: "connection_init", Payload: json.RawMessage(`{}`)})
		if m := c.next(); m.Type != "connection_ack" {
			t.Fatalf("after connection_init: %+v", m)
		}
		c.subscribe("1", `subscription($o: ID!) { organizationMemberEvents(organizationId: $o) { type userId } }`, map[string]any{"o": orgID})
		m := c.next()
		if m.Type != "error" && m.Type != "next" || !strings.Contains(string(m.Payload), "UNTRUSTED_DOCUMENT") {
			t.Fatalf("an arbitrary subscription with the cookie: %s %s", m.Type, m.Payload)
		}
	})
}
