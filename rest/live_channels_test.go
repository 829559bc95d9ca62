package rest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// liveEvent is a LiveEvent as a test reads it from a "next" message.
type liveEvent struct {
	ID, Type, SpaceID, SiteID string
	Target                    struct{ Type, ID string }
}

// nextEvent reads the next message of subscription id and returns its event.
func (c *wsClient) nextEvent(id, field string) liveEvent {
	c.t.Helper()
	m := c.next()
	var got struct {
		Data   map[string]liveEvent
		Errors []any
	}
	if err := json.Unmarshal(m.Payload, &got); err != nil || m.Type != "next" || m.ID != id || len(got.Errors) > 0 {
		c.t.Fatalf("message = %s %s %s (%v)", m.Type, m.ID, m.Payload, err)
	}
	return got.Data[field]
}

// A subscriber that reconnects with the last event it saw receives what it missed, in order,
// then what follows; an event it may not name (another organization's, a made-up one) is a
// clear INVALID error. An organization's spaces channel leaves out the spaces the subscriber
// may not read; its sites channel carries every change to a site with the site's id and what
// it is about, and is refused to guests.
func TestSubscriptionsResumeAndChannels(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		srv := httptest.NewServer(e.h)
		t.Cleanup(srv.Close)
		orgID, admin := e.org("Channels", "admin@channels.test")
		otherOrg, stranger := e.org("Elsewhere", "admin@elsewhere-channels.test")
		reader := e.member(orgID, "reader@channels.test", "read")
		guest := e.member(orgID, "guest@channels.test", "guest")
		space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Followed"}`).want(http.StatusCreated).object()["id"].(string)

		// Resume: the first event seen, then two missed while away, then one live.
		c := dialGraphQL(t, srv, reader.Token)
		query := `subscription($s: ID!, $after: ID) { spaceEvents(spaceId: $s, after: $after) { id type spaceId target { type id } } }`
		c.subscribe("1", query, map[string]any{"s": space})
		time.Sleep(200 * time.Millisecond)
		e.call(admin.Token, "PATCH", "/spaces/"+space, `{"title":"One"}`).want(http.StatusOK)
		first := c.nextEvent("1", "spaceEvents")
		if first.Type != "space_updated" || first.Target.Type != "space" || first.Target.ID != space {
			t.Fatalf("first event = %+v", first)
		}
		c.send(wsMessage{ID: "1", Type: "complete"}) // the client goes away
		e.call(admin.Token, "PATCH", "/spaces/"+space, `{"title":"Two"}`).want(http.StatusOK)
		e.call(admin.Token, "PATCH", "/spaces/"+space, `{"title":"Three"}`).want(http.StatusOK)
		again := dialGraphQL(t, srv, reader.Token)
		again.subscribe("2", query, map[string]any{"s": space, "after": first.ID})
		var missed []string
		for range 2 {
			ev := again.nextEvent("2", "spaceEvents")
			if ev.ID == first.ID {
				t.Fatal("the event given as after was sent again")
			}
			missed = append(missed, ev.ID)
		}
		e.call(admin.Token, "PATCH", "/spaces/"+space, `{"title":"Four"}`).want(http.StatusOK)
		if live := again.nextEvent("2", "spaceEvents"); live.Type != "space_updated" || live.ID == missed[0] || live.ID == missed[1] || missed[0] == missed[1] {
			t.Errorf("after resuming: %v then %+v", missed, live)
		}

		// after names an event this subscriber's organization does not have: refused, as a
		// made-up id is.
		e.call(stranger.Token, "POST", "/orgs/"+otherOrg+"/spaces", `{"title":"Theirs"}`).want(http.StatusCreated)
		var audit struct{ Items []struct{ ID string } }
		e.callNewer(stranger.Token, "GET", "/orgs/"+otherOrg+"/audit-events?limit=1").want(http.StatusOK).decode(&audit)
		for i, after := range []string{audit.Items[0].ID, "not-an-event"} {
			id := []string{"x", "y"}[i]
			again.subscribe(id, query, map[string]any{"s": space, "after": after})
			if m := again.next(); m.ID != id || !strings.Contains(string(m.Payload), `"code":"INVALID"`) {
				t.Errorf("after %q: %s %s, want INVALID", after, m.Type, m.Payload)
			}
			if m := again.next(); m.Type != "complete" {
				t.Errorf("after the error: %s", m.Type)
			}
		}

		// The organization's spaces: a change to a space the reader may read arrives, one to a
		// space closed to them does not (it would come first: events arrive in order).
		private := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Private"}`).want(http.StatusCreated).object()["id"].(string)
		e.call(admin.Token, "PATCH", "/spaces/"+private, `{"defaultLevel":null}`).want(http.StatusOK)
		spaces := dialGraphQL(t, srv, reader.Token)
		spaces.subscribe("s", `subscription($o: ID!) { organizationSpaceEvents(organizationId: $o) { type spaceId } }`, map[string]any{"o": orgID})
		time.Sleep(200 * time.Millisecond)
		e.call(admin.Token, "PATCH", "/spaces/"+private, `{"title":"Still private"}`).want(http.StatusOK)
		e.call(admin.Token, "PATCH", "/spaces/"+space, `{"title":"Five"}`).want(http.StatusOK)
		if ev := spaces.nextEvent("s", "organizationSpaceEvents"); ev.Type != "space_updated" || ev.SpaceID != space {
			t.Errorf("organization spaces channel = %+v, want the readable space's change only", ev)
		}

		// The organization's sites: a share link's creation, with the site and the link.
		sites := dialGraphQL(t, srv, reader.Token)
		sites.subscribe("t", `subscription($o: ID!) { organizationSiteEvents(organizationId: $o) { type siteId target { type id } } }`, map[string]any{"o": orgID})
		time.Sleep(200 * time.Millisecond)
		site := e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites", `{"title":"Docs","spaces":["`+space+`"]}`).want(http.StatusCreated).object()["id"].(string)
		if ev := sites.nextEvent("t", "organizationSiteEvents"); ev.Type != "site_created" || ev.SiteID != site {
			t.Errorf("site created = %+v", ev)
		}
		link := e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites/"+site+"/share-links", `{"name":"Partners"}`).want(http.StatusCreated).object()["id"].(string)
		if ev := sites.nextEvent("t", "organizationSiteEvents"); ev.Type != "site_share_link_created" || ev.SiteID != site || ev.Target.Type != "share-link" || ev.Target.ID != link {
			t.Errorf("share link created = %+v, want link %s", ev, link)
		}
		g := dialGraphQL(t, srv, guest.Token)
		g.subscribe("g", `subscription($o: ID!) { organizationSiteEvents(organizationId: $o) { type } }`, map[string]any{"o": orgID})
		if m := g.next(); !strings.Contains(string(m.Payload), `"code":"FORBIDDEN"`) {
			t.Errorf("a guest's sites subscription: %s %s, want FORBIDDEN", m.Type, m.Payload)
		}
	})
}
