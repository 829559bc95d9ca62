package rest_test

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bindery/bindery/storage"
	"github.com/google/go-cmp/cmp"
)

// siteSpaceJSON is a SiteSpace as both doors answer it.
type siteSpaceJSON struct {
	Object    string
	ID        string
	Path      string
	Title     string
	Default   bool
	Condition *string
	Space     struct{ ID, Title string }
	URLs      struct{ Published *string }
}

// siteStructureJSON is a SiteStructure.
type siteStructureJSON struct {
	Type      string
	Structure []siteSpaceJSON
}

// siteListJSON is one page of a REST list.
type siteListJSON struct {
	Items []map[string]any
	Count int
	Next  *struct{ Page string }
}

func sitePath(o *contentOrg, siteID string) string { return "/orgs/" + o.id + "/sites/" + siteID }

// siteCreate creates a site as token and returns it.
func (o *contentOrg) siteCreate(token string, body any) map[string]any {
	o.e.t.Helper()
	return o.e.call(token, "POST", "/orgs/"+o.id+"/sites", body).want(http.StatusCreated).object()
}

// site creates, as the admin, a site titled title and returns its id and its REST path.
func (o *contentOrg) site(title string) (id, path string) {
	o.e.t.Helper()
	id = o.siteCreate(o.admin.Token, map[string]any{"title": title})["id"].(string)
	return id, sitePath(o, id)
}

// siteAdd publishes space on site as token and returns the site space.
func (o *contentOrg) siteAdd(token, siteID, spaceID string) siteSpaceJSON {
	o.e.t.Helper()
	var ss siteSpaceJSON
	o.e.call(token, "POST", sitePath(o, siteID)+"/site-spaces", map[string]any{"spaceId": spaceID}).want(http.StatusCreated).decode(&ss)
	return ss
}

// siteStructure reads a site's structure (query: "" or "?shareKey=…").
func (o *contentOrg) siteStructure(token, siteID, query string) siteStructureJSON {
	o.e.t.Helper()
	var st siteStructureJSON
	o.e.call(token, "GET", sitePath(o, siteID)+"/structure"+query, nil).want(http.StatusOK).decode(&st)
	return st
}

// siteOrder is the ids of a site's structure, in order.
func (o *contentOrg) siteOrder(siteID string) []string {
	o.e.t.Helper()
	var ids []string
	for _, ss := range o.siteStructure(o.admin.Token, siteID, "").Structure {
		ids = append(ids, ss.ID)
	}
	return ids
}

// siteSort is the body of a sort: id before (or after) anchor.
func siteSort(id, anchor string, after bool) map[string]any {
	where := "before"
	if after {
		where = "after"
	}
	return map[string]any{
		"item":     map[string]any{"type": "site-space", "id": id},
		"position": map[string]any{where: map[string]any{"type": "site-space", "id": anchor}},
	}
}

// siteSimulate is the order after moving id before (or after) anchor.
func siteSimulate(order []string, id, anchor string, after bool) []string {
	out := slices.DeleteFunc(slices.Clone(order), func(s string) bool { return s == id })
	to := slices.Index(out, anchor)
	if after {
		to++
	}
	return slices.Insert(out, to, id)
}

// siteWantInvalid checks a 400 whose message names field (and contains every extra).
func siteWantInvalid(t *testing.T, name string, r response, field string, extra ...string) {
	t.Helper()
	if r.Status != http.StatusBadRequest {
		t.Errorf("%s: status %d, want 400 naming %s; body %s", name, r.Status, field, r.Body)
		return
	}
	msg := r.wantError(http.StatusBadRequest)
	for _, s := range append([]string{field}, extra...) {
		if !strings.Contains(msg, s) {
			t.Errorf("%s: message %q does not contain %q", name, msg, s)
		}
	}
}

// siteShareKey is the key in a share link's published URL.
func siteShareKey(t *testing.T, link map[string]any) string {
	t.Helper()
	urls, _ := link["urls"].(map[string]any)
	pub, _ := urls["published"].(string)
	_, key, ok := strings.Cut(pub, "?share=")
	if !ok || key == "" {
		t.Fatalf("share link urls.published = %q has no ?share=", pub)
	}
	return key
}

func TestSiteCreate(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		creator := e.member(o.id, "creator@acme.test", "create")

		res := e.call(creator.Token, "POST", "/orgs/"+o.id+"/sites", nil).want(http.StatusCreated)
		golden(t, "site_created", res.Body)
		site := res.object()
		id := site["id"].(string)
		urls := site["urls"].(map[string]any)
		if loc := res.Header.Get("Location"); loc == "" || loc != urls["location"] || loc != "https://bindery.test/v1/orgs/"+o.id+"/sites/"+id {
			t.Errorf("Location = %q, urls.location = %v", loc, urls["location"])
		}
		for field, want := range map[string]any{"object": "site", "type": "ultimate", "visibility": "public", "agentsContext": "excluded", "published": false, "siteSpaces": float64(0)} {
			if site[field] != want {
				t.Errorf("new site %s = %v, want %v", field, site[field], want)
			}
		}
		if f, ok := site["features"].([]any); !ok || len(f) != 0 {
			t.Errorf("features = %v, want []", site["features"])
		}
		if _, ok := urls["published"]; ok {
			t.Errorf("unpublished site has urls.published %v", urls["published"])
		}
		if got := e.call(creator.Token, "GET", sitePath(o, id), nil).want(http.StatusOK).Body; string(got) != string(res.Body) {
			t.Errorf("GET after create differs:\n%s\n%s", res.Body, got)
		}

		// Publishing a space publishes the site.
		s1 := o.space("", "Guide")
		o.siteAdd(creator.Token, id, s1)
		got := e.call(creator.Token, "GET", sitePath(o, id), nil).want(http.StatusOK).object()
		if got["published"] != true || got["siteSpaces"] != float64(1) {
			t.Errorf("after adding a space: published %v siteSpaces %v", got["published"], got["siteSpaces"])
		}
		if pub, _ := got["urls"].(map[string]any)["published"].(string); pub != "https://bindery.test/sites/"+id+"/" {
			t.Errorf("urls.published = %q", pub)
		}

		// Every field, with spaces published in order.
		s2, s3 := o.space("", "API Reference"), o.space("", "Getting Started!")
		full := o.siteCreate(creator.Token, map[string]any{"title": "Docs", "type": "premium", "visibility": "share-link", "spaces": []string{s3, s1, s2}})
		if full["title"] != "Docs" || full["type"] != "premium" || full["visibility"] != "share-link" || full["published"] != true || full["siteSpaces"] != float64(3) {
			t.Errorf("full site = %v", full)
		}
		st := o.siteStructure(creator.Token, full["id"].(string), "")
		var got3 []string
		for _, ss := range st.Structure {
			got3 = append(got3, ss.Space.ID+"@"+ss.Path+fmt.Sprint(ss.Default))
		}
		if want := []string{s3 + "@getting-startedtrue", s1 + "@guidefalse", s2 + "@api-referencefalse"}; !cmp.Equal(got3, want) {
			t.Errorf("created structure = %v, want %v", got3, want)
		}

		// Invalid bodies.
		for _, tt := range []struct{ name, body, field string }{
			{"title too short", `{"title":"a"}`, "title"},
			{"title too long", `{"title":"` + strings.Repeat("a", 129) + `"}`, "title"},
			{"bad type", `{"type":"gold"}`, "type"},
			{"bad visibility", `{"visibility":"secret"}`, "visibility"},
			{"unknown space", `{"spaces":["nope"]}`, "spaces"},
		} {
			siteWantInvalid(t, tt.name, e.call(creator.Token, "POST", "/orgs/"+o.id+"/sites", tt.body), tt.field)
		}
		// Bounds are fine.
		o.siteCreate(creator.Token, map[string]any{"title": "ab"})
		o.siteCreate(creator.Token, map[string]any{"title": strings.Repeat("é", 128)})

		// GraphQL.
		var g struct {
			CreateSite struct {
				ID, Type, Title, Visibility, AgentsContext string
				Published                                  bool
				SiteSpaces                                 int
				URLs                                       struct {
					Location, App string
					Published     *string
				}
			}
		}
		e.gql(creator.Token, `mutation($o: ID!, $in: CreateSiteInput!) { createSite(organizationId: $o, input: $in) {
			id type title visibility agentsContext published siteSpaces urls { location app published } } }`,
			map[string]any{"o": o.id, "in": map[string]any{"title": "GQL site", "spaces": []string{s2}}}).ok(&g)
		c := g.CreateSite
		if c.Type != "ULTIMATE" || c.Visibility != "PUBLIC" || c.AgentsContext != "EXCLUDED" || !c.Published || c.SiteSpaces != 1 || c.URLs.Published == nil ||
			c.URLs.Location != "https://bindery.test/v1/orgs/"+o.id+"/sites/"+c.ID {
			t.Errorf("GraphQL createSite = %+v", c)
		}
		if code := e.gql(creator.Token, `mutation($o: ID!) { createSite(organizationId: $o, input: {title: "x"}) { id } }`, map[string]any{"o": o.id}).code(); code != "INVALID" {
			t.Errorf("GraphQL short title code = %s", code)
		}
	})
}

func TestSiteList(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		sp := o.space("", "Guide")
		var ids []string
		for _, title := range []string{"Alpha Docs", "Beta Handbook", "Ärger Guide", "Delta docs", "Echo"} {
			ids = append(ids, o.siteCreate(o.admin.Token, map[string]any{"title": title})["id"].(string))
		}
		o.siteAdd(o.admin.Token, ids[1], sp)
		o.siteAdd(o.admin.Token, ids[1], sp)
		o.siteAdd(o.admin.Token, ids[3], sp)
		otherID, otherAdmin := e.org("Other", "admin@other.test")
		e.call(otherAdmin.Token, "POST", "/orgs/"+otherID+"/sites", `{"title":"Alpha Docs elsewhere"}`).want(http.StatusCreated)

		titles := func(query string) string {
			t.Helper()
			var l siteListJSON
			e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/sites"+query, nil).want(http.StatusOK).decode(&l)
			var out []string
			for _, it := range l.Items {
				out = append(out, fmt.Sprintf("%s:%v", it["title"], it["siteSpaces"]))
			}
			if l.Count != len(l.Items) && l.Next == nil {
				t.Errorf("%s: count %d, items %d", query, l.Count, len(l.Items))
			}
			return strings.Join(out, ",")
		}
		for query, want := range map[string]string{
			"":                  "Echo:0,Delta docs:1,Ärger Guide:0,Beta Handbook:2,Alpha Docs:0",
			"?title=DOCS":       "Delta docs:1,Alpha Docs:0",
			"?title=%C3%A4rger": "Ärger Guide:0",
			"?title=%C3%84RGER": "Ärger Guide:0",
			"?title=nothing":    "",
			"?space=" + sp:      "Delta docs:1,Beta Handbook:2",
			"?space=unknown":    "",
		} {
			if got := titles(query); got != want {
				t.Errorf("list %q = %q, want %q", query, got, want)
			}
		}

		// Pagination: REST next.page and GraphQL cursors are the same tokens.
		const q = `query($o: ID!, $first: Int, $after: String) { organization(id: $o) { sites(first: $first, after: $after) {
			totalCount pageInfo { hasNextPage endCursor } edges { cursor node { title siteSpaces } } } } }`
		pages, count := e.bothDoorsPages(o.admin.Token, "/orgs/"+o.id+"/sites", 2, q, map[string]any{"o": o.id}, "organization", "sites")
		if pages != "Echo,Delta docs|Ärger Guide,Beta Handbook|Alpha Docs" || count != 5 {
			t.Errorf("pages = %q (count %d), want 5", pages, count)
		}
		// GraphQL filters.
		var g struct {
			Organization struct {
				Sites struct{ Nodes []struct{ Title string } }
			}
		}
		e.gql(o.admin.Token, `query($o: ID!, $s: ID) { organization(id: $o) { sites(title: "ärger", space: $s) { nodes { title } } } }`, map[string]any{"o": o.id, "s": nil}).ok(&g)
		if len(g.Organization.Sites.Nodes) != 1 || g.Organization.Sites.Nodes[0].Title != "Ärger Guide" {
			t.Errorf("GraphQL title filter = %+v", g.Organization.Sites.Nodes)
		}
	})
}

func TestSiteGetUpdateDelete(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		creator := e.member(o.id, "creator@acme.test", "create")
		otherID, otherAdmin := e.org("Other", "admin@other.test")
		theirs := e.call(otherAdmin.Token, "POST", "/orgs/"+otherID+"/sites", nil).want(http.StatusCreated).object()["id"].(string)
		e.call(o.admin.Token, "GET", sitePath(o, theirs), nil).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "GET", "/orgs/"+otherID+"/sites/"+theirs, nil).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "GET", sitePath(o, "nope"), nil).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "PATCH", sitePath(o, theirs), `{"title":"Mine"}`).wantError(http.StatusNotFound)

		site := o.siteCreate(creator.Token, map[string]any{"title": "Docs"})["id"].(string)
		other := o.siteCreate(creator.Token, map[string]any{"title": "Other"})["id"].(string)
		upd := e.call(creator.Token, "PATCH", sitePath(o, site), `{"title":"Renamed","visibility":"unlisted","basename":"docs"}`).want(http.StatusOK).object()
		if upd["title"] != "Renamed" || upd["visibility"] != "unlisted" || upd["basename"] != "docs" {
			t.Errorf("updated site = %v", upd)
		}
		// A field left out stays.
		upd = e.call(creator.Token, "PATCH", sitePath(o, site), `{"agentsContext":"included","adaptiveContent":{"enabled":true}}`).want(http.StatusOK).object()
		if upd["title"] != "Renamed" || upd["basename"] != "docs" || upd["agentsContext"] != "included" || upd["adaptiveContent"].(map[string]any)["enabled"] != true {
			t.Errorf("second update = %v", upd)
		}
		// Basenames are unique per organization.
		siteWantInvalid(t, "taken basename", e.call(creator.Token, "PATCH", sitePath(o, other), `{"basename":"docs"}`), "basename")
		e.call(otherAdmin.Token, "PATCH", "/orgs/"+otherID+"/sites/"+theirs, `{"basename":"docs"}`).want(http.StatusOK)
		e.call(creator.Token, "PATCH", sitePath(o, site), `{"basename":"docs"}`).want(http.StatusOK) // its own basename again
		for _, tt := range []struct{ name, body, field string }{
			{"bad basename", `{"basename":"Bad Name"}`, "basename"},
			{"empty basename", `{"basename":""}`, "basename"},
			{"long basename", `{"basename":"` + strings.Repeat("a", 101) + `"}`, "basename"},
			{"short title", `{"title":"a"}`, "title"},
			{"null title", `{"title":null}`, "title"},
			{"bad visibility", `{"visibility":"secret"}`, "visibility"},
			{"bad agentsContext", `{"agentsContext":"maybe"}`, "agentsContext"},
			{"unknown default site space", `{"defaultSiteSpace":"nope"}`, "defaultSiteSpace"},
			{"null default site space", `{"defaultSiteSpace":null}`, "defaultSiteSpace"},
			{"unknown default site section", `{"defaultSiteSection":"sec"}`, "defaultSiteSection"},
		} {
			siteWantInvalid(t, tt.name, e.call(creator.Token, "PATCH", sitePath(o, site), tt.body), tt.field)
		}

		// The published URL uses the basename once something is published.
		a := o.siteAdd(creator.Token, site, o.space("", "Guide"))
		b := o.siteAdd(creator.Token, site, o.space("", "API"))
		if !a.Default || b.Default {
			t.Fatalf("first site space default %v, second %v", a.Default, b.Default)
		}
		if a.URLs.Published == nil || *a.URLs.Published != "https://bindery.test/sites/docs/" || b.URLs.Published == nil || *b.URLs.Published != "https://bindery.test/sites/docs/api/" {
			t.Errorf("published URLs %v %v", a.URLs.Published, b.URLs.Published)
		}
		// defaultSiteSpace switches the default.
		e.call(creator.Token, "PATCH", sitePath(o, site), map[string]any{"defaultSiteSpace": b.ID}).want(http.StatusOK)
		defaults := func() string {
			var out []string
			for _, ss := range o.siteStructure(creator.Token, site, "").Structure {
				out = append(out, fmt.Sprintf("%s:%v", ss.Path, ss.Default))
			}
			return strings.Join(out, ",")
		}
		if got := defaults(); got != "guide:false,api:true" {
			t.Errorf("after defaultSiteSpace: %s", got)
		}
		// An unknown one is refused and changes nothing.
		siteWantInvalid(t, "unknown defaultSiteSpace on a published site", e.call(creator.Token, "PATCH", sitePath(o, site), `{"defaultSiteSpace":"nope"}`), "defaultSiteSpace")
		if got := defaults(); got != "guide:false,api:true" {
			t.Errorf("after an unknown defaultSiteSpace: %s", got)
		}
		// A site space of another site is unknown here.
		c := o.siteAdd(creator.Token, other, o.space("", "Elsewhere"))
		siteWantInvalid(t, "other site's site space", e.call(creator.Token, "PATCH", sitePath(o, site), map[string]any{"defaultSiteSpace": c.ID}), "defaultSiteSpace")
		if got := defaults(); got != "guide:false,api:true" {
			t.Errorf("after another site's defaultSiteSpace: %s", got)
		}

		// A refused update changes nothing, not even the default it also asked for.
		c2 := o.siteAdd(creator.Token, other, o.space("", "Elsewhere too"))
		siteWantInvalid(t, "taken basename with a default", e.call(creator.Token, "PATCH", sitePath(o, other), map[string]any{"basename": "docs", "defaultSiteSpace": c2.ID}), "basename")
		for _, ss := range o.siteStructure(creator.Token, other, "").Structure {
			if ss.Default != (ss.ID == c.ID) {
				t.Errorf("a refused update moved the default: %+v", ss)
			}
		}

		// GraphQL update and read.
		var g struct {
			UpdateSite struct{ Title, Visibility, Basename string }
		}
		e.gql(creator.Token, `mutation($o: ID!, $s: ID!) { updateSite(organizationId: $o, siteId: $s, input: {title: "Via GQL", visibility: SHARE_LINK}) { title visibility basename } }`,
			map[string]any{"o": o.id, "s": site}).ok(&g)
		if g.UpdateSite.Title != "Via GQL" || g.UpdateSite.Visibility != "SHARE_LINK" || g.UpdateSite.Basename != "docs" {
			t.Errorf("GraphQL updateSite = %+v", g.UpdateSite)
		}
		if code := e.gql(creator.Token, `mutation($o: ID!, $s: ID!) { updateSite(organizationId: $o, siteId: $s, input: {basename: "docs"}) { id } }`,
			map[string]any{"o": o.id, "s": other}).code(); code != "INVALID" {
			t.Errorf("GraphQL taken basename code = %s", code)
		}

		// Delete: 204, idempotent, then gone through both doors.
		e.call(creator.Token, "DELETE", sitePath(o, site), nil).want(http.StatusNoContent)
		e.call(creator.Token, "DELETE", sitePath(o, site), nil).want(http.StatusNoContent)
		e.call(creator.Token, "GET", sitePath(o, site), nil).wantError(http.StatusNotFound)
		e.call(creator.Token, "GET", sitePath(o, site)+"/structure", nil).wantError(http.StatusNotFound)
		var d struct{ DeleteSite bool }
		e.gql(creator.Token, `mutation($o: ID!, $s: ID!) { deleteSite(organizationId: $o, siteId: $s) }`, map[string]any{"o": o.id, "s": other}).ok(&d)
		if !d.DeleteSite {
			t.Errorf("GraphQL deleteSite of an existing site = false")
		}
		e.gql(creator.Token, `mutation($o: ID!, $s: ID!) { deleteSite(organizationId: $o, siteId: $s) }`, map[string]any{"o": o.id, "s": other}).ok(&d)
		if d.DeleteSite {
			t.Errorf("GraphQL deleteSite of a missing site = true")
		}
		var l siteListJSON
		e.call(creator.Token, "GET", "/orgs/"+o.id+"/sites", nil).want(http.StatusOK).decode(&l)
		if l.Count != 0 {
			t.Errorf("sites after deleting both: %v", l.Items)
		}
		// Deleting another org's site through mine does nothing to it.
		e.call(o.admin.Token, "DELETE", sitePath(o, theirs), nil).want(http.StatusNoContent)
		e.call(otherAdmin.Token, "GET", "/orgs/"+otherID+"/sites/"+theirs, nil).want(http.StatusOK)
	})
}

func TestSiteRoles(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		sp := o.space("", "Guide")
		site := o.siteCreate(o.admin.Token, map[string]any{"title": "Docs", "spaces": []string{sp}})["id"].(string)
		ssID := o.siteStructure(o.admin.Token, site, "").Structure[0].ID
		base := sitePath(o, site)
		writes := []struct {
			method, path string
			body         any
		}{
			{"POST", "/orgs/" + o.id + "/sites", `{"title":"New"}`},
			{"PATCH", base, `{"title":"Renamed"}`},
			{"POST", base + "/site-spaces", map[string]any{"spaceId": sp}},
			{"PATCH", base + "/site-spaces/" + ssID, `{"path":"other"}`},
			{"PATCH", base + "/structure/sort", siteSort(ssID, ssID, false)},
			{"POST", base + "/share-links", `{"name":"x"}`},
			{"GET", base + "/share-links", nil},
			{"DELETE", base + "/site-spaces/" + ssID, nil},
			{"DELETE", base, nil},
		}
		reads := []string{"/orgs/" + o.id + "/sites", base, base + "/structure", base + "/site-spaces"}
		for _, role := range []string{"edit", "review", "comment", "read"} {
			who := e.member(o.id, role+"@acme.test", role)
			for _, w := range writes {
				if r := e.call(who.Token, w.method, w.path, w.body); r.Status != http.StatusForbidden {
					t.Errorf("%s %s %s = %d, want 403; body %s", role, w.method, w.path, r.Status, r.Body)
				} else {
					r.wantError(http.StatusForbidden)
				}
			}
			for _, p := range reads {
				if r := e.call(who.Token, "GET", p, nil); r.Status != http.StatusOK {
					t.Errorf("%s GET %s = %d, want 200; body %s", role, p, r.Status, r.Body)
				}
			}
			if code := e.gql(who.Token, `mutation($o: ID!) { createSite(organizationId: $o, input: {}) { id } }`, map[string]any{"o": o.id}).code(); code != "FORBIDDEN" {
				t.Errorf("%s GraphQL createSite code = %s", role, code)
			}
			if code := e.gql(who.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { shareLinks { totalCount } } } }`, map[string]any{"o": o.id, "s": site}).code(); code != "FORBIDDEN" {
				t.Errorf("%s GraphQL shareLinks code = %s", role, code)
			}
		}
		guest := e.member(o.id, "guest@acme.test", "guest")
		for _, p := range reads {
			if r := e.call(guest.Token, "GET", p, nil); r.Status != http.StatusForbidden {
				t.Errorf("guest GET %s = %d, want 403; body %s", p, r.Status, r.Body)
			}
		}
		if code := e.gql(guest.Token, `query($o: ID!) { organization(id: $o) { sites { totalCount } } }`, map[string]any{"o": o.id}).code(); code != "FORBIDDEN" {
			t.Errorf("guest GraphQL sites code = %s", code)
		}
		outsider := e.member("", "out@else.test", "")
		for _, p := range reads {
			if r := e.call(outsider.Token, "GET", p, nil); r.Status != http.StatusNotFound {
				t.Errorf("outsider GET %s = %d, want 404; body %s", p, r.Status, r.Body)
			}
		}
		for _, w := range writes {
			if r := e.call(outsider.Token, w.method, w.path, w.body); r.Status != http.StatusNotFound {
				t.Errorf("outsider %s %s = %d, want 404; body %s", w.method, w.path, r.Status, r.Body)
			}
		}
		// The create role manages everything.
		creator := e.member(o.id, "creator@acme.test", "create")
		for _, w := range writes {
			if r := e.call(creator.Token, w.method, w.path, w.body); r.Status >= 300 {
				t.Errorf("creator %s %s = %d; body %s", w.method, w.path, r.Status, r.Body)
			}
		}
	})
}

func TestSiteSpaces(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		creator := e.member(o.id, "creator@acme.test", "create")
		guide := o.space("", "Guide")
		site := o.siteCreate(creator.Token, map[string]any{"title": "Docs"})["id"].(string)
		base := sitePath(o, site)

		res := e.call(creator.Token, "POST", base+"/site-spaces", map[string]any{"spaceId": guide}).want(http.StatusCreated)
		var first siteSpaceJSON
		res.decode(&first)
		if loc := res.Header.Get("Location"); loc != "https://bindery.test/v1"+base+"/site-spaces/"+first.ID {
			t.Errorf("Location = %q", loc)
		}
		if first.Object != "site-space" || first.Path != "guide" || first.Title != "Guide" || !first.Default || first.Space.ID != guide || first.Condition != nil {
			t.Errorf("first site space = %+v", first)
		}
		second := o.siteAdd(creator.Token, site, guide)
		if second.Path != "guide-2" || second.Default {
			t.Errorf("same space again: path %q default %v, want guide-2 false", second.Path, second.Default)
		}
		third := o.siteAdd(creator.Token, site, o.space("", "  Getting Started: The Über Guide! "))
		if third.Path != "getting-started-the-ber-guide" && third.Path != "getting-started-the-uber-guide" {
			t.Errorf("slug = %q", third.Path)
		}
		// Unreadable, foreign and unknown spaces, and sections.
		closed := o.space("", "Closed")
		o.level("/spaces/"+closed, "null")
		otherID, otherAdmin := e.org("Other", "admin@other.test")
		foreign := e.call(otherAdmin.Token, "POST", "/orgs/"+otherID+"/spaces", `{"title":"Theirs"}`).want(http.StatusCreated).object()["id"].(string)
		for _, tt := range []struct{ name, body, field string }{
			{"unreadable space", `{"spaceId":"` + closed + `"}`, "spaceId"},
			{"foreign space", `{"spaceId":"` + foreign + `"}`, "spaceId"},
			{"unknown space", `{"spaceId":"nope"}`, "spaceId"},
			{"no space", `{}`, "spaceId"},
			{"section", `{"spaceId":"` + guide + `","sectionId":"sec"}`, "sectionId"},
		} {
			siteWantInvalid(t, tt.name, e.call(creator.Token, "POST", base+"/site-spaces", tt.body), tt.field)
		}

		// Lists, with the default filter.
		list := func(query string) string {
			t.Helper()
			var l struct {
				Items []siteSpaceJSON
				Count int
			}
			e.call(creator.Token, "GET", base+"/site-spaces"+query, nil).want(http.StatusOK).decode(&l)
			var out []string
			for _, ss := range l.Items {
				out = append(out, ss.Path)
			}
			if l.Count != len(l.Items) {
				t.Errorf("%s: count %d, items %d", query, l.Count, len(l.Items))
			}
			return strings.Join(out, ",")
		}
		all := "guide,guide-2," + third.Path
		for q, want := range map[string]string{"": all, "?default=true": "guide", "?default=false": "guide-2," + third.Path} {
			if got := list(q); got != want {
				t.Errorf("site spaces %q = %q, want %q", q, got, want)
			}
		}
		siteWantInvalid(t, "bad default", e.call(creator.Token, "GET", base+"/site-spaces?default=maybe", nil), "default")
		var pg siteListJSON
		e.call(creator.Token, "GET", base+"/site-spaces?limit=2", nil).want(http.StatusOK).decode(&pg)
		if len(pg.Items) != 2 || pg.Count != 3 || pg.Next == nil {
			t.Fatalf("first page of 2: %+v", pg)
		}
		var pg2 siteListJSON
		e.call(creator.Token, "GET", base+"/site-spaces?limit=2&page="+pg.Next.Page, nil).want(http.StatusOK).decode(&pg2)
		if len(pg2.Items) != 1 || pg2.Items[0]["path"] != third.Path || pg2.Next != nil || pg2.Count != 3 {
			t.Errorf("second page: %+v", pg2)
		}

		// Update the path.
		patch := func(id string, body any) response {
			return e.call(creator.Token, "PATCH", base+"/site-spaces/"+id, body)
		}
		var u siteSpaceJSON
		patch(second.ID, `{"path":"handbook"}`).want(http.StatusOK).decode(&u)
		if u.Path != "handbook" || u.URLs.Published == nil || !strings.HasSuffix(*u.URLs.Published, "/handbook/") {
			t.Errorf("renamed path: %+v", u)
		}
		siteWantInvalid(t, "path clash", patch(second.ID, `{"path":"guide"}`), "path", "guide")
		for _, bad := range []string{`""`, `"Bad Path"`, `"-x"`, `"` + strings.Repeat("a", 101) + `"`} {
			siteWantInvalid(t, "bad path "+bad, patch(second.ID, `{"path":`+bad+`}`), "path")
		}
		// The same path on another site is fine.
		otherSite := o.siteCreate(creator.Token, nil)["id"].(string)
		osp := o.siteAdd(creator.Token, otherSite, o.space("", "Other space"))
		e.call(creator.Token, "PATCH", sitePath(o, otherSite)+"/site-spaces/"+osp.ID, `{"path":"handbook"}`).want(http.StatusOK)

		// Conditions.
		patch(second.ID, `{"condition":"visitor.claims.plan == \"pro\""}`).want(http.StatusOK).decode(&u)
		if u.Condition == nil || *u.Condition != `visitor.claims.plan == "pro"` || u.Path != "handbook" {
			t.Errorf("condition set: %+v", u)
		}
		siteWantInvalid(t, "syntax error", patch(second.ID, `{"condition":"visitor.claims.plan == "}`), "condition")
		msg := patch(second.ID, `{"condition":"visitor.claims.plan == "}`).wantError(http.StatusBadRequest)
		if !regexp.MustCompile(`\(1:\d+\)`).MatchString(msg) {
			t.Errorf("syntax error message %q has no position (1:n)", msg)
		}
		siteWantInvalid(t, "not boolean", patch(second.ID, `{"condition":"1 + 2"}`), "condition")
		siteWantInvalid(t, "too long", patch(second.ID, map[string]any{"condition": "true" + strings.Repeat(" ", 1021)}), "condition")
		// 1024 characters are fine.
		patch(second.ID, map[string]any{"condition": "true" + strings.Repeat(" ", 1020)}).want(http.StatusOK)
		patch(second.ID, `{"condition":"visitor.claims.plan == \"pro\""}`).want(http.StatusOK)
		// Omitted: unchanged; null: removed.
		patch(second.ID, `{"path":"handbook-2"}`).want(http.StatusOK).decode(&u)
		if u.Condition == nil || u.Path != "handbook-2" {
			t.Errorf("omitted condition changed: %+v", u)
		}
		var raw map[string]any
		raw = patch(second.ID, `{"condition":null}`).want(http.StatusOK).object()
		if _, ok := raw["condition"]; ok {
			t.Errorf("null condition not removed: %v", raw)
		}
		// spaceId points the site space at another space.
		api := o.space("", "API")
		patch(second.ID, map[string]any{"spaceId": api}).want(http.StatusOK).decode(&u)
		if u.Space.ID != api || u.Title != "API" || u.Path != "handbook-2" {
			t.Errorf("spaceId changed: %+v", u)
		}
		siteWantInvalid(t, "foreign spaceId", patch(second.ID, map[string]any{"spaceId": foreign}), "spaceId")
		siteWantInvalid(t, "unreadable spaceId", patch(second.ID, map[string]any{"spaceId": closed}), "spaceId")
		e.call(creator.Token, "PATCH", base+"/site-spaces/nope", `{"path":"x"}`).wantError(http.StatusNotFound)
		e.call(creator.Token, "PATCH", sitePath(o, otherSite)+"/site-spaces/"+second.ID, `{"path":"x"}`).wantError(http.StatusNotFound)

		// GraphQL add/update/delete.
		var g struct {
			AddSiteSpace    siteSpaceJSON
			UpdateSiteSpace siteSpaceJSON
		}
		e.gql(creator.Token, `mutation($o: ID!, $s: ID!, $sp: ID!) { addSiteSpace(organizationId: $o, siteId: $s, input: {spaceId: $sp}) { id path default title space { id } } }`,
			map[string]any{"o": o.id, "s": site, "sp": guide}).ok(&g)
		if g.AddSiteSpace.Path != "guide-2" || g.AddSiteSpace.Default {
			t.Errorf("GraphQL addSiteSpace = %+v", g.AddSiteSpace)
		}
		gqlSS := g.AddSiteSpace.ID
		e.gql(creator.Token, `mutation($o: ID!, $s: ID!, $id: ID!) { updateSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $id, input: {condition: "visitor.claims.admin == true"}) { id path condition } }`,
			map[string]any{"o": o.id, "s": site, "id": gqlSS}).ok(&g)
		if g.UpdateSiteSpace.Condition == nil || *g.UpdateSiteSpace.Condition != "visitor.claims.admin == true" {
			t.Errorf("GraphQL updateSiteSpace = %+v", g.UpdateSiteSpace)
		}
		r := e.gql(creator.Token, `mutation($o: ID!, $s: ID!, $id: ID!) { updateSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $id, input: {condition: "1 + 2"}) { id } }`,
			map[string]any{"o": o.id, "s": site, "id": gqlSS})
		if r.code() != "INVALID" {
			t.Errorf("GraphQL non-boolean condition code = %s", r.code())
		}
		e.gql(creator.Token, `mutation($o: ID!, $s: ID!, $id: ID!) { updateSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $id, input: {condition: null}) { id path condition } }`,
			map[string]any{"o": o.id, "s": site, "id": gqlSS}).ok(&g)
		if g.UpdateSiteSpace.Condition != nil {
			t.Errorf("GraphQL null condition kept: %v", *g.UpdateSiteSpace.Condition)
		}

		// Deleting the default promotes the next one in the site's order.
		order := o.siteOrder(site) // guide(default), handbook-2, third, gql
		if len(order) != 4 || order[0] != first.ID {
			t.Fatalf("order = %v", order)
		}
		// Put the third before the second so promotion must follow position, not creation.
		e.call(creator.Token, "PATCH", base+"/structure/sort", siteSort(third.ID, second.ID, false)).want(http.StatusOK)
		e.call(creator.Token, "DELETE", base+"/site-spaces/"+first.ID, nil).want(http.StatusNoContent)
		e.call(creator.Token, "DELETE", base+"/site-spaces/"+first.ID, nil).want(http.StatusNoContent)
		st := o.siteStructure(creator.Token, site, "")
		var got []string
		for _, ss := range st.Structure {
			got = append(got, fmt.Sprintf("%s:%v", ss.ID, ss.Default))
		}
		if want := []string{third.ID + ":true", second.ID + ":false", gqlSS + ":false"}; !cmp.Equal(got, want) {
			t.Errorf("after deleting the default: %v, want %v", got, want)
		}
		if *st.Structure[0].URLs.Published != "https://bindery.test/sites/"+site+"/" {
			t.Errorf("new default's URL = %s", *st.Structure[0].URLs.Published)
		}
		var d struct{ DeleteSiteSpace bool }
		e.gql(creator.Token, `mutation($o: ID!, $s: ID!, $id: ID!) { deleteSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $id) }`, map[string]any{"o": o.id, "s": site, "id": gqlSS}).ok(&d)
		if !d.DeleteSiteSpace {
			t.Errorf("GraphQL deleteSiteSpace = false")
		}
		for _, id := range []string{third.ID, second.ID} {
			e.call(creator.Token, "DELETE", base+"/site-spaces/"+id, nil).want(http.StatusNoContent)
		}
		s := e.call(creator.Token, "GET", base, nil).want(http.StatusOK).object()
		if s["published"] != false || s["siteSpaces"] != float64(0) {
			t.Errorf("site without site spaces: %v", s)
		}
	})
}

func TestSiteStructureSort(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		site := o.siteCreate(o.admin.Token, map[string]any{"title": "Docs", "spaces": []string{o.space("", "A"), o.space("", "B"), o.space("", "C"), o.space("", "D")}})["id"].(string)
		base := sitePath(o, site)
		res := e.call(o.admin.Token, "GET", base+"/structure", nil).want(http.StatusOK)
		golden(t, "site_structure", res.Body)
		var st siteStructureJSON
		res.decode(&st)
		if st.Type != "siteSpaces" || len(st.Structure) != 4 {
			t.Fatalf("structure = %s", res.Body)
		}
		ids := map[string]string{}
		for _, ss := range st.Structure {
			ids[ss.Title] = ss.ID
		}
		names := func() string {
			rev := map[string]string{}
			for k, v := range ids {
				rev[v] = k
			}
			var out []string
			for _, id := range o.siteOrder(site) {
				out = append(out, rev[id])
			}
			return strings.Join(out, "")
		}
		if got := names(); got != "ABCD" {
			t.Fatalf("order = %s", got)
		}
		var moved siteSpaceJSON
		e.call(o.admin.Token, "PATCH", base+"/structure/sort", siteSort(ids["A"], ids["C"], true)).want(http.StatusOK).decode(&moved)
		if moved.ID != ids["A"] || moved.Object != "site-space" || moved.Title != "A" {
			t.Errorf("sort answered %+v, want site space A", moved)
		}
		if got := names(); got != "BCAD" {
			t.Errorf("after A after C: %s", got)
		}
		e.call(o.admin.Token, "PATCH", base+"/structure/sort", siteSort(ids["D"], ids["B"], false)).want(http.StatusOK)
		if got := names(); got != "DBCA" {
			t.Errorf("after D before B: %s", got)
		}
		// The default is still A (order does not move it).
		for _, ss := range o.siteStructure(o.admin.Token, site, "").Structure {
			if ss.Default != (ss.ID == ids["A"]) {
				t.Errorf("default moved: %+v", ss)
			}
		}

		// Invalid positions.
		both := siteSort(ids["A"], ids["B"], false)
		both["position"].(map[string]any)["after"] = map[string]any{"type": "site-space", "id": ids["C"]}
		neither := map[string]any{"item": map[string]any{"type": "site-space", "id": ids["A"]}, "position": map[string]any{}}
		section := siteSort(ids["A"], ids["B"], false)
		section["position"].(map[string]any)["before"] = map[string]any{"type": "site-section", "id": ids["B"]}
		sectionItem := siteSort(ids["A"], ids["B"], false)
		sectionItem["item"] = map[string]any{"type": "site-section", "id": ids["A"]}
		for name, body := range map[string]any{"both": both, "neither": neither, "section anchor": section, "section item": sectionItem, "no item": `{"position":{"before":{"type":"site-space","id":"x"}}}`} {
			if r := e.call(o.admin.Token, "PATCH", base+"/structure/sort", body); r.Status != http.StatusBadRequest {
				t.Errorf("%s: %d, want 400; %s", name, r.Status, r.Body)
			} else {
				r.wantError(http.StatusBadRequest)
			}
		}
		e.call(o.admin.Token, "PATCH", base+"/structure/sort", siteSort("nope", ids["A"], false)).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "PATCH", base+"/structure/sort", siteSort(ids["A"], "nope", false)).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "PATCH", sitePath(o, "nope")+"/structure/sort", siteSort(ids["A"], ids["B"], false)).wantError(http.StatusNotFound)
		if got := names(); got != "DBCA" {
			t.Errorf("after refused sorts: %s", got)
		}

		// The deprecated move does the same.
		var mv siteSpaceJSON
		e.call(o.admin.Token, "POST", base+"/site-spaces/"+ids["A"]+"/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-space", "siteSpace": ids["D"]}}}).want(http.StatusOK).decode(&mv)
		if mv.ID != ids["A"] {
			t.Errorf("move answered %+v", mv)
		}
		if got := names(); got != "ADBC" {
			t.Errorf("after move A before D: %s", got)
		}
		e.call(o.admin.Token, "POST", base+"/site-spaces/"+ids["D"]+"/move", map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-space", "siteSpace": ids["C"]}}}).want(http.StatusOK)
		if got := names(); got != "ABCD" {
			t.Errorf("after move D after C: %s", got)
		}
		e.call(o.admin.Token, "POST", base+"/site-spaces/nope/move", map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-space", "siteSpace": ids["C"]}}}).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "POST", base+"/site-spaces/"+ids["D"]+"/move", `{"position":{}}`).wantError(http.StatusBadRequest)

		// GraphQL sort, and the structure read through GraphQL.
		var g struct {
			SortSiteStructure struct{ ID, Title string }
		}
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!, $in: SortSiteStructureInput!) { sortSiteStructure(organizationId: $o, siteId: $s, input: $in) { ... on SiteSpace { id title } } }`,
			map[string]any{"o": o.id, "s": site, "in": siteSort(ids["B"], ids["D"], true)}).ok(&g)
		if g.SortSiteStructure.ID != ids["B"] {
			t.Errorf("GraphQL sort = %+v", g.SortSiteStructure)
		}
		if code := e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!, $in: SortSiteStructureInput!) { sortSiteStructure(organizationId: $o, siteId: $s, input: $in) { __typename } }`,
			map[string]any{"o": o.id, "s": site, "in": siteSort("nope", ids["D"], true)}).code(); code != "NOT_FOUND" {
			t.Errorf("GraphQL unknown item code = %s", code)
		}
		var gs struct {
			Organization struct {
				Site struct {
					Structure struct {
						Type      string
						Structure []struct{ Title string }
					}
				}
			}
		}
		e.gql(o.admin.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { structure { type structure { title } } } } }`, map[string]any{"o": o.id, "s": site}).ok(&gs)
		var gt string
		for _, it := range gs.Organization.Site.Structure.Structure {
			gt += it.Title
		}
		if gs.Organization.Site.Structure.Type != "siteSpaces" || gt != "ACDB" || names() != "ACDB" {
			t.Errorf("GraphQL structure %s %q, REST %q, want ACDB", gs.Organization.Site.Structure.Type, gt, names())
		}
	})
}

func TestSiteStructureSortRace(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		if e.store.Dialect() != storage.Postgres {
			t.Skip("SQLite serialises writers itself")
		}
		o := newContentOrg(e)
		site := o.siteCreate(o.admin.Token, map[string]any{"title": "Docs", "spaces": []string{o.space("", "A"), o.space("", "B"), o.space("", "C"), o.space("", "D")}})["id"].(string)
		base := sitePath(o, site)
		start := o.siteOrder(site)
		a, b, d := start[0], start[1], start[3]
		type move struct {
			id, anchor string
			after      bool
		}
		m1, m2 := move{a, d, true}, move{b, a, false}
		one := siteSimulate(siteSimulate(start, m1.id, m1.anchor, m1.after), m2.id, m2.anchor, m2.after)
		two := siteSimulate(siteSimulate(start, m2.id, m2.anchor, m2.after), m1.id, m1.anchor, m1.after)
		if cmp.Equal(one, two) {
			t.Fatalf("the moves commute; pick others")
		}
		for round := 0; round < 8; round++ {
			// Back to the start order.
			for i := 1; i < len(start); i++ {
				e.call(o.admin.Token, "PATCH", base+"/structure/sort", siteSort(start[i], start[i-1], true)).want(http.StatusOK)
			}
			e.call(o.admin.Token, "PATCH", base+"/structure/sort", siteSort(start[0], start[1], false)).want(http.StatusOK)
			if got := o.siteOrder(site); !cmp.Equal(got, start) {
				t.Fatalf("round %d: reset gave %v, want %v", round, got, start)
			}
			var wg sync.WaitGroup
			statuses := make([]int, 2)
			bodies := make([]string, 2)
			for i, m := range []move{m1, m2} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := e.call(o.admin.Token, "PATCH", base+"/structure/sort", siteSort(m.id, m.anchor, m.after))
					statuses[i], bodies[i] = r.Status, string(r.Body)
				}()
			}
			wg.Wait()
			for i := range statuses {
				if statuses[i] != http.StatusOK {
					t.Errorf("round %d: concurrent sort %d = %d; %s", round, i, statuses[i], bodies[i])
				}
			}
			got := o.siteOrder(site)
			if !cmp.Equal(got, one) && !cmp.Equal(got, two) {
				t.Errorf("round %d: order %v is neither %v nor %v", round, got, one, two)
			}
			sorted := slices.Clone(got)
			slices.Sort(sorted)
			want := slices.Clone(start)
			slices.Sort(want)
			if !cmp.Equal(sorted, want) {
				t.Errorf("round %d: items %v, want a permutation of %v", round, got, start)
			}
		}
	})
}

func TestSiteVisitorConditions(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		check := func(cond string) (bool, *string) {
			var g struct {
				CheckVisitorCondition struct {
					Valid bool
					Error *string
				}
			}
			e.gql(o.admin.Token, `query($c: String!) { checkVisitorCondition(condition: $c) { valid error } }`, map[string]any{"c": cond}).ok(&g)
			return g.CheckVisitorCondition.Valid, g.CheckVisitorCondition.Error
		}
		for _, c := range []string{`visitor.claims.plan == "pro"`, `true`, `visitor.claims.age > 18 && visitor.claims.country in ["fr", "be"]`} {
			if ok, msg := check(c); !ok || msg != nil {
				t.Errorf("%q: valid %v error %v, want valid", c, ok, msg)
			}
		}
		for _, c := range []string{`visitor.claims.plan == `, `1 + 2`, `"pro"`, `visitor.claims.plan ==== "x"`} {
			ok, msg := check(c)
			if ok || msg == nil || *msg == "" {
				t.Errorf("%q: valid %v error %v, want invalid with a message", c, ok, msg)
			}
		}
		if _, msg := check(`visitor.claims.plan == `); msg == nil || !regexp.MustCompile(`\(1:\d+\)`).MatchString(*msg) {
			t.Errorf("syntax error message %v has no position", msg)
		}

		site := o.siteCreate(o.admin.Token, map[string]any{"title": "Docs", "spaces": []string{o.space("", "Public"), o.space("", "Pro"), o.space("", "Enterprise"), o.space("", "Adults")}})["id"].(string)
		order := o.siteOrder(site)
		for i, c := range map[int]string{1: `visitor.claims.plan == "pro"`, 2: `visitor.claims.plan == "enterprise"`, 3: `visitor.claims.age >= 18`} {
			e.call(o.admin.Token, "PATCH", sitePath(o, site)+"/site-spaces/"+order[i], map[string]any{"condition": c}).want(http.StatusOK)
		}
		visible := func(claims map[string]any) string {
			t.Helper()
			var g struct {
				Organization struct {
					Site struct {
						VisibleStructure struct {
							Type      string
							Structure []struct{ Title string }
						}
					}
				}
			}
			e.gql(o.admin.Token, `query($o: ID!, $s: ID!, $c: Document!) { organization(id: $o) { site(id: $s) { visibleStructure(claims: $c) { type structure { title } } } } }`,
				map[string]any{"o": o.id, "s": site, "c": claims}).ok(&g)
			var out []string
			for _, it := range g.Organization.Site.VisibleStructure.Structure {
				out = append(out, it.Title)
			}
			return strings.Join(out, ",")
		}
		for _, tt := range []struct {
			claims map[string]any
			want   string
		}{
			{map[string]any{"plan": "pro"}, "Public,Pro"},
			{map[string]any{"plan": "enterprise", "age": 30}, "Public,Enterprise,Adults"},
			{map[string]any{}, "Public"},
			{map[string]any{"age": 12}, "Public"},
			{map[string]any{"age": "old"}, "Public"},
		} {
			if got := visible(tt.claims); got != tt.want {
				t.Errorf("visible for %v = %q, want %q", tt.claims, got, tt.want)
			}
		}
		// The full structure still holds every site space.
		if n := len(o.siteStructure(o.admin.Token, site, "").Structure); n != 4 {
			t.Errorf("structure has %d site spaces, want 4", n)
		}
	})
}

func TestShareLinks(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		creator := e.member(o.id, "creator@acme.test", "create")
		reader := e.member(o.id, "reader@acme.test", "read")
		site := o.siteCreate(creator.Token, map[string]any{"title": "Docs", "visibility": "share-link", "spaces": []string{o.space("", "Guide"), o.space("", "API")}})["id"].(string)
		base := sitePath(o, site)

		res := e.call(creator.Token, "POST", base+"/share-links", `{"name":"Partners"}`).want(http.StatusCreated)
		link := res.object()
		id := link["id"].(string)
		if loc := res.Header.Get("Location"); loc != "https://bindery.test/v1"+base+"/share-links/"+id {
			t.Errorf("Location = %q", loc)
		}
		if link["object"] != "share-link" || link["name"] != "Partners" || link["active"] != true {
			t.Errorf("share link = %v", link)
		}
		key := siteShareKey(t, link)
		if pub := link["urls"].(map[string]any)["published"]; pub != "https://bindery.test/sites/"+site+"/?share="+key {
			t.Errorf("share link URL = %v", pub)
		}
		second := e.call(creator.Token, "POST", base+"/share-links", map[string]any{"name": strings.Repeat("n", 50)}).want(http.StatusCreated).object()
		if siteShareKey(t, second) == key {
			t.Errorf("two share links share a key")
		}
		siteWantInvalid(t, "name too long", e.call(creator.Token, "POST", base+"/share-links", map[string]any{"name": strings.Repeat("n", 51)}), "name")
		siteWantInvalid(t, "no name", e.call(creator.Token, "POST", base+"/share-links", `{}`), "name")

		// Newest first.
		var l struct {
			Items []map[string]any
			Count int
		}
		e.call(creator.Token, "GET", base+"/share-links", nil).want(http.StatusOK).decode(&l)
		if l.Count != 2 || len(l.Items) != 2 || l.Items[0]["id"] != second["id"] || l.Items[1]["id"] != id {
			t.Errorf("share links = %+v", l)
		}
		// Readers neither see nor manage them.
		e.call(reader.Token, "GET", base+"/share-links", nil).wantError(http.StatusForbidden)
		e.call(reader.Token, "PATCH", base+"/share-links/"+id, `{"active":false}`).wantError(http.StatusForbidden)
		e.call(reader.Token, "DELETE", base+"/share-links/"+id, nil).wantError(http.StatusForbidden)

		// Share URLs through the key.
		shared := func(query string) []string {
			t.Helper()
			var out []string
			for _, ss := range o.siteStructure(reader.Token, site, query).Structure {
				if ss.URLs.Published == nil {
					out = append(out, "-")
				} else {
					out = append(out, *ss.URLs.Published)
				}
			}
			var sl struct{ Items []siteSpaceJSON }
			e.call(reader.Token, "GET", base+"/site-spaces"+query, nil).want(http.StatusOK).decode(&sl)
			var list []string
			for _, ss := range sl.Items {
				if ss.URLs.Published == nil {
					list = append(list, "-")
				} else {
					list = append(list, *ss.URLs.Published)
				}
			}
			if !cmp.Equal(out, list) {
				t.Errorf("%s: structure %v, site-spaces %v", query, out, list)
			}
			return out
		}
		root := "https://bindery.test/sites/" + site + "/"
		if got, want := shared("?shareKey="+key), []string{root + "?share=" + key, root + "api/?share=" + key}; !cmp.Equal(got, want) {
			t.Errorf("with an active key: %v, want %v", got, want)
		}
		if got, want := shared(""), []string{root, root + "api/"}; !cmp.Equal(got, want) {
			t.Errorf("without a key: %v, want %v", got, want)
		}
		if got := shared("?shareKey=unknown"); !cmp.Equal(got, []string{"-", "-"}) {
			t.Errorf("with an unknown key: %v", got)
		}

		// Deactivate, rename.
		upd := e.call(creator.Token, "PATCH", base+"/share-links/"+id, `{"active":false}`).want(http.StatusOK).object()
		if upd["active"] != false || upd["name"] != "Partners" {
			t.Errorf("deactivated = %v", upd)
		}
		if _, ok := upd["urls"].(map[string]any)["published"]; ok {
			t.Errorf("inactive link has a published URL: %v", upd["urls"])
		}
		if got := shared("?shareKey=" + key); !cmp.Equal(got, []string{"-", "-"}) {
			t.Errorf("with an inactive key: %v", got)
		}
		upd = e.call(creator.Token, "PATCH", base+"/share-links/"+id, `{"name":"Renamed"}`).want(http.StatusOK).object()
		if upd["active"] != false || upd["name"] != "Renamed" {
			t.Errorf("renamed = %v", upd)
		}
		upd = e.call(creator.Token, "PATCH", base+"/share-links/"+id, `{"active":true,"name":"Back"}`).want(http.StatusOK).object()
		if upd["active"] != true || upd["name"] != "Back" || siteShareKey(t, upd) != key {
			t.Errorf("reactivated = %v", upd)
		}
		siteWantInvalid(t, "rename too long", e.call(creator.Token, "PATCH", base+"/share-links/"+id, map[string]any{"name": strings.Repeat("n", 51)}), "name")
		e.call(creator.Token, "PATCH", base+"/share-links/nope", `{"active":false}`).wantError(http.StatusNotFound)
		// A key of another site does not open this one.
		other := o.siteCreate(creator.Token, map[string]any{"spaces": []string{o.space("", "Other")}})["id"].(string)
		otherKey := siteShareKey(t, e.call(creator.Token, "POST", sitePath(o, other)+"/share-links", `{"name":"o"}`).want(http.StatusCreated).object())
		if got := shared("?shareKey=" + otherKey); !cmp.Equal(got, []string{"-", "-"}) {
			t.Errorf("with another site's key: %v", got)
		}

		// GraphQL.
		var g struct {
			CreateShareLink struct {
				ID, Name string
				Active   bool
				URLs     struct{ Published *string }
			}
		}
		e.gql(creator.Token, `mutation($o: ID!, $s: ID!) { createShareLink(organizationId: $o, siteId: $s, input: {name: "GQL"}) { id name active urls { published } } }`,
			map[string]any{"o": o.id, "s": site}).ok(&g)
		if !g.CreateShareLink.Active || g.CreateShareLink.URLs.Published == nil || !strings.Contains(*g.CreateShareLink.URLs.Published, "?share=") {
			t.Errorf("GraphQL createShareLink = %+v", g.CreateShareLink)
		}
		var gu struct {
			UpdateShareLink struct {
				Active bool
				URLs   struct{ Published *string }
			}
		}
		e.gql(creator.Token, `mutation($o: ID!, $s: ID!, $id: ID!) { updateShareLink(organizationId: $o, siteId: $s, shareLinkId: $id, input: {active: false}) { active urls { published } } }`,
			map[string]any{"o": o.id, "s": site, "id": g.CreateShareLink.ID}).ok(&gu)
		if gu.UpdateShareLink.Active || gu.UpdateShareLink.URLs.Published != nil {
			t.Errorf("GraphQL updateShareLink = %+v", gu.UpdateShareLink)
		}
		var gl struct {
			Organization struct {
				Site struct {
					ShareLinks struct {
						TotalCount int
						Nodes      []struct{ Name string }
					}
				}
			}
		}
		e.gql(creator.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { shareLinks { totalCount nodes { name } } } } }`, map[string]any{"o": o.id, "s": site}).ok(&gl)
		if gl.Organization.Site.ShareLinks.TotalCount != 3 || gl.Organization.Site.ShareLinks.Nodes[0].Name != "GQL" {
			t.Errorf("GraphQL shareLinks = %+v", gl.Organization.Site.ShareLinks)
		}
		var gk struct {
			Organization struct {
				Site struct {
					Structure struct {
						Structure []struct{ URLs struct{ Published *string } }
					}
				}
			}
		}
		e.gql(reader.Token, `query($o: ID!, $s: ID!, $k: String) { organization(id: $o) { site(id: $s) { structure(shareKey: $k) { structure { urls { published } } } } } }`,
			map[string]any{"o": o.id, "s": site, "k": key}).ok(&gk)
		if s := gk.Organization.Site.Structure.Structure; len(s) != 2 || s[0].URLs.Published == nil || *s[0].URLs.Published != root+"?share="+key {
			t.Errorf("GraphQL structure with key = %+v", s)
		}

		// Delete: 204, idempotent.
		e.call(creator.Token, "DELETE", base+"/share-links/"+id, nil).want(http.StatusNoContent)
		e.call(creator.Token, "DELETE", base+"/share-links/"+id, nil).want(http.StatusNoContent)
		if got := shared("?shareKey=" + key); !cmp.Equal(got, []string{"-", "-"}) {
			t.Errorf("with a deleted key: %v", got)
		}
		var d struct{ DeleteShareLink bool }
		e.gql(creator.Token, `mutation($o: ID!, $s: ID!, $id: ID!) { deleteShareLink(organizationId: $o, siteId: $s, shareLinkId: $id) }`, map[string]any{"o": o.id, "s": site, "id": second["id"]}).ok(&d)
		if !d.DeleteShareLink {
			t.Errorf("GraphQL deleteShareLink = false")
		}
		e.call(creator.Token, "GET", base+"/share-links", nil).want(http.StatusOK).decode(&l)
		if l.Count != 1 {
			t.Errorf("share links after deletes: %+v", l)
		}
	})
}

func TestSiteStructureStatementsDoNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		site, base := o.site("Docs")
		link := o.e.call(o.admin.Token, "POST", base+"/share-links", `{"name":"x"}`).want(http.StatusCreated).object()
		key := siteShareKey(t, link)
		count := func() [4]int64 {
			var st, ss, shared, gql atomic.Int64
			e.callCounted(o.admin.Token, "GET", base+"/structure", nil, &st).want(http.StatusOK)
			e.callCounted(o.admin.Token, "GET", base+"/site-spaces?limit=1000", nil, &ss).want(http.StatusOK)
			e.callCounted(o.admin.Token, "GET", base+"/structure?shareKey="+key, nil, &shared).want(http.StatusOK)
			e.gqlCounted(o.admin.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { structure { structure { id path urls { published } space { id title permissions { view } } } } } } }`,
				map[string]any{"o": o.id, "s": site}, &gql).ok(nil)
			return [4]int64{st.Load(), ss.Load(), shared.Load(), gql.Load()}
		}
		for i := range 5 {
			o.siteAdd(o.admin.Token, site, o.space("", fmt.Sprintf("Space %d", i)))
		}
		few := count()
		for i := 5; i < 40; i++ {
			o.siteAdd(o.admin.Token, site, o.space("", fmt.Sprintf("Space %d", i)))
		}
		if n := len(o.siteStructure(o.admin.Token, site, "").Structure); n != 40 {
			t.Fatalf("structure has %d site spaces", n)
		}
		if many := count(); many != few {
			t.Errorf("statements grew with site spaces (structure, site-spaces, shared structure, GraphQL): %v → %v", few, many)
		}
	})
}

// The contract's listSites also filters on published and type.
func TestSiteListContractFilters(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		o.siteCreate(o.admin.Token, map[string]any{"title": "Empty", "type": "basic"})
		o.siteCreate(o.admin.Token, map[string]any{"title": "Live", "type": "premium", "spaces": []string{o.space("", "Guide")}})
		for query, want := range map[string]string{
			"?published=true":  "Live",
			"?published=false": "Empty",
			"?type=basic":      "Empty",
			"?type=premium":    "Live",
		} {
			if got := getList[titled](e, o.admin.Token, "/orgs/"+o.id+"/sites"+query).labels(); got != want {
				t.Errorf("list %s = %q, want %q", query, got, want)
			}
		}
	})
}

// A site space whose space the caller cannot read, or whose space is in the trash, is not in
// what they see.
func TestSiteStructureHidesUnreadable(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		closed, trashed := o.space("", "Closed"), o.space("", "Trashed")
		site := o.siteCreate(o.admin.Token, map[string]any{"title": "Docs", "spaces": []string{o.space("", "Open"), closed, trashed}})["id"].(string)
		o.level("/spaces/"+closed, "null")
		paths := func(token string) string {
			var out []string
			for _, ss := range o.siteStructure(token, site, "").Structure {
				out = append(out, ss.Path)
			}
			return strings.Join(out, ",")
		}
		if got := paths(reader.Token); got != "open,trashed" {
			t.Errorf("reader sees %q, want open,trashed", got)
		}
		if got := paths(o.admin.Token); got != "open,closed,trashed" {
			t.Errorf("admin sees %q", got)
		}
		e.call(o.admin.Token, "DELETE", "/spaces/"+trashed, nil).want(http.StatusNoContent)
		if got := paths(o.admin.Token); got != "open,closed" {
			t.Errorf("after trashing a space the admin sees %q, want open,closed", got)
		}
	})
}

// Reading every site with its structure and the spaces it publishes costs the same statements
// whatever the number of sites and site spaces.
func TestSitesGraphStatementsDoNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		reader := e.member(orgID, "reader@acme.test", "read")
		const q = `query($o: ID!) { organization(id: $o) { sites(first: 100) { nodes { id structure { type structure { id path space { id title permissions { edit } } } } } } } }`
		addSites := func(n int) {
			for i := range n {
				sp := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", fmt.Sprintf(`{"title":"Space %d"}`, i)).want(http.StatusCreated).object()["id"].(string)
				sp2 := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", fmt.Sprintf(`{"title":"More %d"}`, i)).want(http.StatusCreated).object()["id"].(string)
				e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites", `{"title":"Site","spaces":["`+sp+`","`+sp2+`"]}`).want(http.StatusCreated)
			}
		}
		count := func(wantSites int) int64 {
			t.Helper()
			var n atomic.Int64
			var data struct {
				Organization struct {
					Sites struct {
						Nodes []struct {
							Structure struct {
								Structure []struct{ Space struct{ ID string } }
							}
						}
					}
				}
			}
			e.gqlCounted(reader.Token, q, map[string]any{"o": orgID}, &n).ok(&data)
			if got := len(data.Organization.Sites.Nodes); got != wantSites {
				t.Fatalf("read %d sites, want %d", got, wantSites)
			}
			for _, s := range data.Organization.Sites.Nodes {
				if len(s.Structure.Structure) != 2 {
					t.Fatalf("a site shows %d site spaces, want 2", len(s.Structure.Structure))
				}
			}
			return n.Load()
		}
		addSites(3)
		few := count(3)
		addSites(27)
		if many := count(30); many != few {
			t.Errorf("statements grew with sites: %d (3 sites) → %d (30 sites)", few, many)
		}
	})
}
