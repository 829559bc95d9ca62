package rest_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bindery/bindery/storage"
	"github.com/google/go-cmp/cmp"
)

// siteSectionJSON is a SiteSection as both doors answer it.
type siteSectionJSON struct {
	Object, ID, Title, Path string
	Description, Condition  *string
	Icon, SectionGroup      *string
	Default                 bool
	SiteSpaces              []siteSpaceJSON
	URLs                    struct{ Published *string }
}

// siteItemJSON is an item of a sections structure: a section or a group (with children).
type siteItemJSON struct {
	Object, ID, Title, Path string
	Default                 bool
	SectionGroup            *string
	SiteSpaces              []siteSpaceJSON
	Children                []siteItemJSON
	Sections                []siteItemJSON
}

// outline renders items as "Title[child child]" for compact comparisons; "*" marks the default
// section.
func outline(items []siteItemJSON) string {
	var parts []string
	for _, it := range items {
		s := it.Title
		if it.Default {
			s += "*"
		}
		if it.Object == "site-section-group" {
			s += "[" + outline(it.Children) + "]"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// sectionsOf reads a site's structure, which must be the sections variant.
func (o *contentOrg) sectionsOf(siteID string) []siteItemJSON {
	o.e.t.Helper()
	var st struct {
		Type      string
		Structure []siteItemJSON
	}
	o.e.call(o.admin.Token, "GET", sitePath(o, siteID)+"/structure", nil).want(http.StatusOK).decode(&st)
	if st.Type != "sections" {
		o.e.t.Fatalf("structure type = %q, want sections", st.Type)
	}
	return st.Structure
}

// sectionAdd adds a section publishing spaceID (body adds fields) and returns it.
func (o *contentOrg) sectionAdd(siteID, spaceID string, body map[string]any) siteSectionJSON {
	o.e.t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	body["spaceId"] = spaceID
	var sec siteSectionJSON
	o.e.call(o.admin.Token, "POST", sitePath(o, siteID)+"/sections", body).want(http.StatusCreated).decode(&sec)
	return sec
}

// groupAdd adds a section group and returns its id.
func (o *contentOrg) groupAdd(siteID string, body map[string]any) string {
	o.e.t.Helper()
	return o.e.call(o.admin.Token, "POST", sitePath(o, siteID)+"/section-groups", body).want(http.StatusCreated).object()["id"].(string)
}

// outlineSort moves a section or group (kind "site-section" or "site-section-group") before or
// after another.
func outlineSort(kind, id, anchorKind, anchor string, after bool) map[string]any {
	where := "before"
	if after {
		where = "after"
	}
	return map[string]any{
		"item":     map[string]any{"type": kind, "id": id},
		"position": map[string]any{where: map[string]any{"type": anchorKind, "id": anchor}},
	}
}

func TestSiteSectionsCreate(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		creator := e.member(o.id, "creator@acme.test", "create")
		site := o.siteCreate(creator.Token, map[string]any{"title": "Docs"})["id"].(string)
		base := sitePath(o, site)
		root := "https://bindery.test/sites/" + site + "/"

		// The first section of an empty site is its default, with its space as default site space.
		guide := o.space("", "Guide")
		res := e.call(creator.Token, "POST", base+"/sections", map[string]any{"spaceId": guide, "icon": "book"}).want(http.StatusCreated)
		var first siteSectionJSON
		res.decode(&first)
		if loc := res.Header.Get("Location"); loc != "https://bindery.test/v1"+base+"/sections/"+first.ID {
			t.Errorf("Location = %q", loc)
		}
		if first.Object != "site-section" || first.Title != "Guide" || first.Path != "guide" || !first.Default || first.Icon == nil || *first.Icon != "book" {
			t.Errorf("first section = %+v", first)
		}
		if len(first.SiteSpaces) != 1 || !first.SiteSpaces[0].Default || first.SiteSpaces[0].Space.ID != guide {
			t.Fatalf("first section's site spaces = %+v", first.SiteSpaces)
		}
		if u := first.URLs.Published; u == nil || *u != root {
			t.Errorf("default section URL = %v, want %s", u, root)
		}

		// A second one is not the default; its URLs are under its path.
		api := o.space("", "API")
		second := o.sectionAdd(site, api, map[string]any{"title": "API Reference"})
		if second.Default || second.Path != "api-reference" || second.Title != "API Reference" {
			t.Errorf("second section = %+v", second)
		}
		if u := second.URLs.Published; u == nil || *u != root+"api-reference/" {
			t.Errorf("second section URL = %v", u)
		}
		// The same title again gets a free path; a space already published elsewhere keeps its
		// plain path inside the new section.
		third := o.sectionAdd(site, guide, map[string]any{"title": "API Reference"})
		if third.Path != "api-reference-2" || third.SiteSpaces[0].Path != "guide" {
			t.Errorf("third section = %+v", third)
		}
		// A site space added to a section that is not the default is published under both paths.
		v2 := o.space("", "V2")
		var ss siteSpaceJSON
		e.call(creator.Token, "POST", base+"/site-spaces", map[string]any{"spaceId": v2, "sectionId": second.ID}).want(http.StatusCreated).decode(&ss)
		if ss.Default || ss.Path != "v2" || ss.URLs.Published == nil || *ss.URLs.Published != root+"api-reference/v2/" {
			t.Errorf("site space in a section = %+v", ss)
		}
		var raw map[string]any
		e.call(creator.Token, "GET", base+"/site-spaces?default=false", nil).want(http.StatusOK).decode(&raw)
		if items := raw["items"].([]any); len(items) != 1 || items[0].(map[string]any)["section"] != second.ID {
			t.Errorf("non-default site spaces = %v", items)
		}
		// Without sectionId, a site space goes to the default section.
		e.call(creator.Token, "POST", base+"/site-spaces", map[string]any{"spaceId": o.space("", "Extra")}).want(http.StatusCreated).decode(&ss)
		if got := e.call(creator.Token, "GET", base+"/site-spaces", nil).want(http.StatusOK).object()["count"]; got != float64(5) {
			t.Errorf("site spaces count = %v, want 5", got)
		}
		var list struct {
			Items []siteSectionJSON
			Count int
		}
		e.call(creator.Token, "GET", base+"/sections", nil).want(http.StatusOK).decode(&list)
		if list.Count != 3 || list.Items[0].ID != first.ID || len(list.Items[0].SiteSpaces) != 2 || list.Items[0].SiteSpaces[1].ID != ss.ID {
			t.Errorf("sections = %+v", list)
		}
		// Pages follow the structure's order.
		var page struct {
			Items []siteSectionJSON
			Next  *struct{ Page string }
		}
		e.call(creator.Token, "GET", base+"/sections?limit=2", nil).want(http.StatusOK).decode(&page)
		if len(page.Items) != 2 || page.Next == nil {
			t.Fatalf("first page = %+v", page)
		}
		next := page.Next.Page
		page.Items, page.Next = nil, nil
		e.call(creator.Token, "GET", base+"/sections?limit=2&page="+next, nil).want(http.StatusOK).decode(&page)
		if len(page.Items) != 1 || page.Items[0].ID != third.ID || page.Next != nil {
			t.Errorf("second page = %+v", page)
		}

		// Invalid bodies, and ids from elsewhere.
		otherOrg, otherAdmin := e.org("Other", "admin@other.test")
		foreign := e.call(otherAdmin.Token, "POST", "/orgs/"+otherOrg+"/spaces", `{"title":"Foreign"}`).want(http.StatusCreated).object()["id"].(string)
		otherSite := o.siteCreate(creator.Token, map[string]any{"title": "Other"})["id"].(string)
		otherSection := o.sectionAdd(otherSite, guide, nil).ID
		for _, tt := range []struct {
			name, path string
			body       any
			field      string
		}{
			{"no space", "/sections", `{}`, "spaceId"},
			{"unknown space", "/sections", map[string]any{"spaceId": "nope"}, "spaceId"},
			{"another organization's space", "/sections", map[string]any{"spaceId": foreign}, "spaceId"},
			{"title too short", "/sections", map[string]any{"spaceId": guide, "title": "a"}, "title"},
			{"title too long", "/sections", map[string]any{"spaceId": guide, "title": strings.Repeat("t", 129)}, "title"},
			{"icon too long", "/sections", map[string]any{"spaceId": guide, "icon": strings.Repeat("i", 51)}, "icon"},
			{"title not a string", "/sections", `{"spaceId":"x","title":5}`, "title"},
			{"unknown section", "/site-spaces", map[string]any{"spaceId": guide, "sectionId": "nope"}, "sectionId"},
			{"another site's section", "/site-spaces", map[string]any{"spaceId": guide, "sectionId": otherSection}, "sectionId"},
		} {
			siteWantInvalid(t, tt.name, e.call(creator.Token, "POST", base+tt.path, tt.body), tt.field)
		}
		e.call(creator.Token, "POST", sitePath(o, "nope")+"/sections", map[string]any{"spaceId": guide}).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "POST", base+"/sections", map[string]any{"spaceId": foreign}).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "GET", base+"/sections", nil).wantError(http.StatusNotFound)
		reader := e.member(o.id, "reader@acme.test", "read")
		e.call(reader.Token, "POST", base+"/sections", map[string]any{"spaceId": guide}).wantError(http.StatusForbidden)
		e.call(reader.Token, "GET", base+"/sections", nil).want(http.StatusOK)

		// GraphQL creates the same.
		var g struct {
			CreateSiteSection struct {
				ID, Title, Path string
				Default         bool
				SiteSpaces      []struct {
					Section string
					Space   struct{ ID string }
				}
			}
		}
		e.gql(creator.Token, `mutation($o: ID!, $s: ID!, $sp: ID!) { createSiteSection(organizationId: $o, siteId: $s, input: {spaceId: $sp, title: "From GraphQL"}) { id title path default siteSpaces { section space { id } } } }`,
			map[string]any{"o": o.id, "s": site, "sp": api}).ok(&g)
		c := g.CreateSiteSection
		if c.Title != "From GraphQL" || c.Path != "from-graphql" || c.Default || len(c.SiteSpaces) != 1 || c.SiteSpaces[0].Section != c.ID || c.SiteSpaces[0].Space.ID != api {
			t.Errorf("GraphQL createSiteSection = %+v", c)
		}
		if code := e.gql(creator.Token, `mutation($o: ID!, $s: ID!) { createSiteSection(organizationId: $o, siteId: $s, input: {spaceId: "nope"}) { id } }`,
			map[string]any{"o": o.id, "s": site}).code(); code != "INVALID" {
			t.Errorf("GraphQL unknown space code = %s", code)
		}
	})
}

// Giving a section to a site that publishes site spaces at its root first moves them into a
// default section of their own, in their order, so that nothing stays outside the sections.
func TestSiteSectionsWrapRootSiteSpaces(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		guide, api := o.space("", "Guide"), o.space("", "API")
		site := o.siteCreate(o.admin.Token, map[string]any{"title": "Docs", "spaces": []string{guide, api}})["id"].(string)
		before := o.siteOrder(site)
		sec := o.sectionAdd(site, o.space("", "Changelog"), nil)
		if sec.Default {
			t.Errorf("the new section is the default; the wrapped one should be")
		}
		st := o.sectionsOf(site)
		if got := outline(st); got != "Guide* Changelog" {
			t.Fatalf("structure = %q, want the root site spaces wrapped as Guide*, then Changelog", got)
		}
		var ids []string
		for _, ss := range st[0].SiteSpaces {
			ids = append(ids, ss.ID)
		}
		if !cmp.Equal(ids, before) || !st[0].SiteSpaces[0].Default || st[0].Path != "guide" {
			t.Errorf("wrapped section = %+v, want site spaces %v with the first default", st[0], before)
		}
		// URLs did not move: the wrapped section is the default.
		root := "https://bindery.test/sites/" + site + "/"
		if u := st[0].SiteSpaces[1].URLs.Published; u == nil || *u != root+"api/" {
			t.Errorf("wrapped site space URL = %v, want %sapi/", u, root)
		}
		// The site's default section can change.
		e.call(o.admin.Token, "PATCH", sitePath(o, site), map[string]any{"defaultSiteSection": sec.ID}).want(http.StatusOK)
		if got := outline(o.sectionsOf(site)); got != "Guide Changelog*" {
			t.Errorf("after defaultSiteSection: %q", got)
		}
		siteWantInvalid(t, "unknown default section", e.call(o.admin.Token, "PATCH", sitePath(o, site), map[string]any{"defaultSiteSection": "nope"}), "defaultSiteSection")
		siteWantInvalid(t, "null default section", e.call(o.admin.Token, "PATCH", sitePath(o, site), `{"defaultSiteSection":null}`), "defaultSiteSection")
		// Site-space paths are unique within a section only.
		var ss siteSpaceJSON
		e.call(o.admin.Token, "POST", sitePath(o, site)+"/site-spaces", map[string]any{"spaceId": guide, "sectionId": sec.ID}).want(http.StatusCreated).decode(&ss)
		if ss.Path != "guide" {
			t.Errorf("path in another section = %q, want guide", ss.Path)
		}
		siteWantInvalid(t, "path taken in the section", e.call(o.admin.Token, "PATCH", sitePath(o, site)+"/site-spaces/"+ss.ID, `{"path":"changelog"}`), "path", "changelog")
		e.call(o.admin.Token, "PATCH", sitePath(o, site)+"/site-spaces/"+ss.ID, `{"path":"api"}`).want(http.StatusOK)
		// defaultSiteSpace on the site makes it the default of its own section.
		e.call(o.admin.Token, "PATCH", sitePath(o, site), map[string]any{"defaultSiteSpace": ss.ID}).want(http.StatusOK)
		for _, it := range o.sectionsOf(site) {
			defaults := 0
			for _, s := range it.SiteSpaces {
				if s.Default {
					defaults++
				}
			}
			if defaults != 1 {
				t.Errorf("section %s has %d default site spaces", it.Title, defaults)
			}
		}
	})
}

func TestSiteSectionsUpdateDelete(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		site, base := o.site("Docs")
		a := o.sectionAdd(site, o.space("", "Alpha"), nil)
		b := o.sectionAdd(site, o.space("", "Beta"), nil)
		c := o.sectionAdd(site, o.space("", "Gamma"), nil)

		upd := e.call(o.admin.Token, "PATCH", base+"/sections/"+b.ID, map[string]any{
			"title": "Beta 2", "path": "beta-two", "icon": "star", "description": "Second", "condition": `visitor.claims.plan == "pro"`,
		}).want(http.StatusOK)
		var got siteSectionJSON
		upd.decode(&got)
		if got.Title != "Beta 2" || got.Path != "beta-two" || deref(got.Icon) != "star" || deref(got.Description) != "Second" || deref(got.Condition) != `visitor.claims.plan == "pro"` {
			t.Errorf("updated section = %+v", got)
		}
		if u := got.URLs.Published; u == nil || !strings.HasSuffix(*u, "/beta-two/") {
			t.Errorf("updated section URL = %v", u)
		}
		// Absent fields stay; null clears; an omitted condition is left alone.
		got = siteSectionJSON{}
		e.call(o.admin.Token, "PATCH", base+"/sections/"+b.ID, `{"icon":null,"description":null}`).want(http.StatusOK).decode(&got)
		if got.Icon != nil || got.Description != nil || got.Title != "Beta 2" || got.Condition == nil {
			t.Errorf("after clearing icon and description = %+v", got)
		}
		got = siteSectionJSON{}
		e.call(o.admin.Token, "PATCH", base+"/sections/"+b.ID, `{"condition":null}`).want(http.StatusOK).decode(&got)
		if got.Condition != nil {
			t.Errorf("condition after null = %v", *got.Condition)
		}
		// A second site space of the section becomes its default.
		var extra siteSpaceJSON
		e.call(o.admin.Token, "POST", base+"/site-spaces", map[string]any{"spaceId": o.space("", "Extra"), "sectionId": b.ID}).want(http.StatusCreated).decode(&extra)
		e.call(o.admin.Token, "PATCH", base+"/sections/"+b.ID, map[string]any{"defaultSiteSpace": extra.ID}).want(http.StatusOK).decode(&got)
		if len(got.SiteSpaces) != 2 || got.SiteSpaces[0].Default || !got.SiteSpaces[1].Default {
			t.Errorf("after defaultSiteSpace: %+v", got.SiteSpaces)
		}

		for _, tt := range []struct {
			name  string
			body  any
			field string
			extra []string
		}{
			{"path taken", map[string]any{"path": a.Path}, "path", []string{a.Path}},
			{"bad path", map[string]any{"path": "Not A Path"}, "path", nil},
			{"path too long", map[string]any{"path": strings.Repeat("p", 101)}, "path", nil},
			{"title too short", map[string]any{"title": "x"}, "title", nil},
			{"title null", `{"title":null}`, "title", nil},
			{"description too long", map[string]any{"description": strings.Repeat("d", 257)}, "description", nil},
			{"icon too long", map[string]any{"icon": strings.Repeat("i", 51)}, "icon", nil},
			{"condition too long", map[string]any{"condition": strings.Repeat("x", 1025)}, "condition", nil},
			{"condition syntax", map[string]any{"condition": `visitor.claims.plan ==`}, "condition", []string{"(1:"}},
			{"condition not boolean", map[string]any{"condition": `1 + 2`}, "condition", nil},
			{"default site space of another section", map[string]any{"defaultSiteSpace": a.SiteSpaces[0].ID}, "defaultSiteSpace", nil},
		} {
			siteWantInvalid(t, tt.name, e.call(o.admin.Token, "PATCH", base+"/sections/"+b.ID, tt.body), tt.field, tt.extra...)
		}
		e.call(o.admin.Token, "PATCH", base+"/sections/nope", `{"title":"Nope"}`).wantError(http.StatusNotFound)
		otherSite := o.siteCreate(o.admin.Token, map[string]any{"title": "Other"})["id"].(string)
		e.call(o.admin.Token, "PATCH", sitePath(o, otherSite)+"/sections/"+b.ID, `{"title":"Nope"}`).wantError(http.StatusNotFound)

		// Deleting the default promotes the first remaining section; its site spaces go with it.
		e.call(o.admin.Token, "DELETE", base+"/sections/"+a.ID, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", base+"/sections/"+a.ID, nil).want(http.StatusNoContent)
		if got := outline(o.sectionsOf(site)); got != "Beta 2* Gamma" {
			t.Errorf("after deleting the default: %q", got)
		}
		e.call(o.admin.Token, "PATCH", base+"/site-spaces/"+a.SiteSpaces[0].ID, `{"path":"gone"}`).wantError(http.StatusNotFound)
		// GraphQL deletes too; the last section gone, the site is back to the site-spaces variant.
		var d struct{ DeleteSiteSection bool }
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!, $id: ID!) { deleteSiteSection(organizationId: $o, siteId: $s, siteSectionId: $id) }`, map[string]any{"o": o.id, "s": site, "id": b.ID}).ok(&d)
		if !d.DeleteSiteSection {
			t.Errorf("GraphQL deleteSiteSection = false")
		}
		e.call(o.admin.Token, "DELETE", base+"/sections/"+c.ID, nil).want(http.StatusNoContent)
		if st := o.siteStructure(o.admin.Token, site, ""); st.Type != "siteSpaces" || len(st.Structure) != 0 {
			t.Errorf("structure without sections = %+v", st)
		}
		s := e.call(o.admin.Token, "GET", base, nil).want(http.StatusOK).object()
		if s["published"] != false || s["siteSpaces"] != float64(0) {
			t.Errorf("site after deleting every section: %v", s)
		}
	})
}

func TestSiteSectionGroups(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		site, base := o.site("Docs")
		sec := map[string]string{}
		for _, name := range []string{"Home", "Guides", "Recipes", "API", "SDKs"} {
			sec[name] = o.sectionAdd(site, o.space("", name), nil).ID
		}

		// Groups nest two deep; the listed sections move into them in order.
		res := e.call(o.admin.Token, "POST", base+"/section-groups", map[string]any{"title": "Learn", "icon": "school", "sections": []string{sec["Recipes"], sec["Guides"]}}).want(http.StatusCreated)
		learn := res.object()["id"].(string)
		if loc := res.Header.Get("Location"); loc != "https://bindery.test/v1"+base+"/section-groups/"+learn {
			t.Errorf("Location = %q", loc)
		}
		dev := o.groupAdd(site, map[string]any{"title": "Developers", "sections": []string{sec["API"]}})
		libs := o.groupAdd(site, map[string]any{"title": "Libraries", "parent": dev, "sections": []string{sec["SDKs"]}})
		if got := outline(o.sectionsOf(site)); got != "Home* Learn[Recipes Guides] Developers[API Libraries[SDKs]]" {
			t.Errorf("structure = %q", got)
		}
		res = e.call(o.admin.Token, "GET", base+"/structure", nil).want(http.StatusOK)
		golden(t, "site_structure_sections", res.Body)

		var groups struct {
			Items []siteItemJSON
			Count int
		}
		e.call(o.admin.Token, "GET", base+"/section-groups", nil).want(http.StatusOK).decode(&groups)
		var titles []string
		for _, g := range groups.Items {
			titles = append(titles, g.Title+"("+outline(g.Sections)+")")
		}
		if groups.Count != 3 || strings.Join(titles, " ") != "Learn(Recipes Guides) Developers(API) Libraries(SDKs)" {
			t.Errorf("groups = %v (count %d)", titles, groups.Count)
		}
		if g := groups.Items[2]; g.SectionGroup == nil || *g.SectionGroup != dev {
			t.Errorf("nested group's sectionGroup = %v, want %s", g.SectionGroup, dev)
		}

		// Update; null removes the icon.
		upd := e.call(o.admin.Token, "PATCH", base+"/section-groups/"+learn, `{"title":"Learning","icon":null}`).want(http.StatusOK).object()
		if upd["title"] != "Learning" || upd["icon"] != nil || upd["object"] != "site-section-group" {
			t.Errorf("updated group = %v", upd)
		}

		// Add a section to a group (it leaves its former one), remove it again (right after the group).
		res = e.call(o.admin.Token, "POST", base+"/section-groups/"+libs+"/sections", map[string]any{"sectionId": sec["Guides"]}).want(http.StatusCreated)
		if loc := res.Header.Get("Location"); loc != "https://bindery.test/v1"+base+"/section-groups/"+libs+"/sections/"+sec["Guides"] {
			t.Errorf("Location = %q", loc)
		}
		if got := outline(o.sectionsOf(site)); got != "Home* Learning[Recipes] Developers[API Libraries[SDKs Guides]]" {
			t.Errorf("after adding Guides to Libraries: %q", got)
		}
		e.call(o.admin.Token, "DELETE", base+"/section-groups/"+libs+"/sections/"+sec["Guides"], nil).want(http.StatusNoContent)
		if got := outline(o.sectionsOf(site)); got != "Home* Learning[Recipes] Developers[API Libraries[SDKs] Guides]" {
			t.Errorf("after removing Guides from Libraries: %q", got)
		}
		// Not in the group, or no such group: 204, nothing moves.
		e.call(o.admin.Token, "DELETE", base+"/section-groups/"+libs+"/sections/"+sec["Guides"], nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", base+"/section-groups/nope/sections/"+sec["Home"], nil).want(http.StatusNoContent)
		if got := outline(o.sectionsOf(site)); got != "Home* Learning[Recipes] Developers[API Libraries[SDKs] Guides]" {
			t.Errorf("after idempotent removals: %q", got)
		}

		// Deleting a group moves what it holds up to its parent, in its place.
		e.call(o.admin.Token, "DELETE", base+"/section-groups/"+libs, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", base+"/section-groups/"+libs, nil).want(http.StatusNoContent)
		if got := outline(o.sectionsOf(site)); got != "Home* Learning[Recipes] Developers[API SDKs Guides]" {
			t.Errorf("after deleting Libraries: %q", got)
		}

		// Invalid input; ids from elsewhere.
		otherSite := o.siteCreate(o.admin.Token, map[string]any{"title": "Other"})["id"].(string)
		otherSection := o.sectionAdd(otherSite, o.space("", "Elsewhere"), nil).ID
		for _, tt := range []struct {
			name  string
			body  any
			field string
		}{
			{"no title", `{}`, "title"},
			{"title too long", map[string]any{"title": strings.Repeat("t", 101)}, "title"},
			{"icon too long", map[string]any{"title": "T", "icon": strings.Repeat("i", 51)}, "icon"},
			{"unknown parent", map[string]any{"title": "T", "parent": "nope"}, "parent"},
			{"unknown section", map[string]any{"title": "T", "sections": []string{sec["Home"], "nope"}}, "sections[1]"},
			{"another site's section", map[string]any{"title": "T", "sections": []string{otherSection}}, "sections[0]"},
			{"section listed twice", map[string]any{"title": "T", "sections": []string{sec["Home"], sec["Home"]}}, "sections"},
			{"sections not a list", `{"title":"T","sections":"x"}`, "sections"},
		} {
			siteWantInvalid(t, tt.name, e.call(o.admin.Token, "POST", base+"/section-groups", tt.body), tt.field)
		}
		siteWantInvalid(t, "rename to nothing", e.call(o.admin.Token, "PATCH", base+"/section-groups/"+learn, `{"title":""}`), "title")
		siteWantInvalid(t, "rename to null", e.call(o.admin.Token, "PATCH", base+"/section-groups/"+learn, `{"title":null}`), "title")
		siteWantInvalid(t, "add no section", e.call(o.admin.Token, "POST", base+"/section-groups/"+learn+"/sections", `{}`), "sectionId")
		siteWantInvalid(t, "add another site's section", e.call(o.admin.Token, "POST", base+"/section-groups/"+learn+"/sections", map[string]any{"sectionId": otherSection}), "sectionId")
		e.call(o.admin.Token, "POST", base+"/section-groups/nope/sections", map[string]any{"sectionId": sec["Home"]}).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "PATCH", base+"/section-groups/nope", `{"title":"T"}`).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "PATCH", sitePath(o, otherSite)+"/section-groups/"+learn, `{"title":"T"}`).wantError(http.StatusNotFound)
		if got := outline(o.sectionsOf(site)); got != "Home* Learning[Recipes] Developers[API SDKs Guides]" {
			t.Errorf("after refused changes: %q", got)
		}

		// GraphQL: groups with their children, through the union.
		var g struct {
			CreateSiteSectionGroup struct {
				ID       string
				Children []struct {
					Typename string `json:"__typename"`
					ID       string
				}
			}
		}
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!, $in: CreateSiteSectionGroupInput!) { createSiteSectionGroup(organizationId: $o, siteId: $s, input: $in) { id children { __typename ... on SiteSection { id } ... on SiteSectionGroup { id } } } }`,
			map[string]any{"o": o.id, "s": site, "in": map[string]any{"title": "Nested", "parent": learn, "sections": []string{sec["Home"]}}}).ok(&g)
		if ch := g.CreateSiteSectionGroup.Children; len(ch) != 1 || ch[0].Typename != "SiteSection" || ch[0].ID != sec["Home"] {
			t.Errorf("GraphQL group children = %+v", ch)
		}
		var gs struct {
			Organization struct {
				Site struct {
					Structure struct {
						Type     string
						Sections []struct {
							Typename string `json:"__typename"`
							Title    string
							Children []struct{ Title string }
						}
					}
					SectionGroups struct{ TotalCount int }
				}
			}
		}
		e.gql(o.admin.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { sectionGroups { totalCount }
			structure { type sections { __typename ... on SiteSection { title } ... on SiteSectionGroup { title children { ... on SiteSection { title } ... on SiteSectionGroup { title } } } } } } } }`,
			map[string]any{"o": o.id, "s": site}).ok(&gs)
		st := gs.Organization.Site.Structure
		var top []string
		for _, it := range st.Sections {
			top = append(top, it.Typename+":"+it.Title+fmt.Sprint(len(it.Children)))
		}
		if st.Type != "sections" || strings.Join(top, " ") != "SiteSectionGroup:Learning2 SiteSectionGroup:Developers3" || gs.Organization.Site.SectionGroups.TotalCount != 3 {
			t.Errorf("GraphQL structure = %s %v, groups %d", st.Type, top, gs.Organization.Site.SectionGroups.TotalCount)
		}
		var rm struct{ RemoveSectionFromGroup bool }
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!, $g: ID!, $sc: ID!) { removeSectionFromGroup(organizationId: $o, siteId: $s, siteSectionGroupId: $g, siteSectionId: $sc) }`,
			map[string]any{"o": o.id, "s": site, "g": g.CreateSiteSectionGroup.ID, "sc": sec["Home"]}).ok(&rm)
		if !rm.RemoveSectionFromGroup {
			t.Errorf("GraphQL removeSectionFromGroup = false")
		}
		if got := outline(o.sectionsOf(site)); got != "Learning[Recipes Nested[] Home*] Developers[API SDKs Guides]" {
			t.Errorf("after GraphQL changes: %q", got)
		}
		// A site goes with its nested groups and sections.
		e.call(o.admin.Token, "DELETE", base, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "GET", base+"/sections", nil).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "GET", base+"/section-groups", nil).wantError(http.StatusNotFound)
	})
}

func TestSiteSectionsSort(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		site, base := o.site("Docs")
		sec := map[string]siteSectionJSON{}
		for _, name := range []string{"A", "B", "C", "D"} {
			sec[name] = o.sectionAdd(site, o.space("", "Space "+name), map[string]any{"title": "S" + name})
		}
		grp := o.groupAdd(site, map[string]any{"title": "G", "sections": []string{sec["C"].ID}})
		inner := o.groupAdd(site, map[string]any{"title": "H", "parent": grp})
		sort := func(body map[string]any, want int) response {
			t.Helper()
			return e.call(o.admin.Token, "PATCH", base+"/structure/sort", body).want(want)
		}
		if got := outline(o.sectionsOf(site)); got != "SA* SB SD G[SC H[]]" {
			t.Fatalf("start = %q", got)
		}
		// Sections and groups of one parent share one order.
		var moved siteSectionJSON
		sort(outlineSort("site-section", sec["D"].ID, "site-section-group", grp, true), http.StatusOK).decode(&moved)
		if moved.Object != "site-section" || moved.ID != sec["D"].ID {
			t.Errorf("sort answered %+v", moved)
		}
		if got := outline(o.sectionsOf(site)); got != "SA* SB G[SC H[]] SD" {
			t.Errorf("after SD after G: %q", got)
		}
		// Next to an item of a group, a section joins that group.
		sort(outlineSort("site-section", sec["A"].ID, "site-section", sec["C"].ID, false), http.StatusOK)
		if got := outline(o.sectionsOf(site)); got != "SB G[SA* SC H[]] SD" {
			t.Errorf("after SA before SC: %q", got)
		}
		g := sort(outlineSort("site-section-group", grp, "site-section", sec["B"].ID, false), http.StatusOK).object()
		if g["object"] != "site-section-group" || g["id"] != grp {
			t.Errorf("group sort answered %v", g)
		}
		if got := outline(o.sectionsOf(site)); got != "G[SA* SC H[]] SB SD" {
			t.Errorf("after G before SB: %q", got)
		}
		// A group cannot go into itself or its own groups.
		siteWantInvalid(t, "group into its own group", e.call(o.admin.Token, "PATCH", base+"/structure/sort", outlineSort("site-section-group", grp, "site-section-group", inner, true)), "position")
		siteWantInvalid(t, "group into itself", e.call(o.admin.Token, "PATCH", base+"/structure/sort", outlineSort("site-section-group", grp, "site-section", sec["C"].ID, true)), "position")
		siteWantInvalid(t, "section next to a site space", e.call(o.admin.Token, "PATCH", base+"/structure/sort", outlineSort("site-section", sec["A"].ID, "site-space", sec["B"].SiteSpaces[0].ID, true)), "position")
		siteWantInvalid(t, "site space next to a site space of another section", e.call(o.admin.Token, "PATCH", base+"/structure/sort", outlineSort("site-space", sec["A"].SiteSpaces[0].ID, "site-space", sec["B"].SiteSpaces[0].ID, true)), "position")
		e.call(o.admin.Token, "PATCH", base+"/structure/sort", outlineSort("site-section", "nope", "site-section", sec["B"].ID, true)).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "PATCH", base+"/structure/sort", outlineSort("site-section", sec["B"].ID, "site-section-group", "nope", true)).wantError(http.StatusNotFound)
		// A section id given as a group is not found.
		e.call(o.admin.Token, "PATCH", base+"/structure/sort", outlineSort("site-section-group", sec["B"].ID, "site-section", sec["D"].ID, true)).wantError(http.StatusNotFound)

		// The deprecated moves do the same.
		e.call(o.admin.Token, "POST", base+"/sections/"+sec["D"].ID+"/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "siteSection": sec["B"].ID}}}).want(http.StatusOK).decode(&moved)
		if moved.ID != sec["D"].ID {
			t.Errorf("move answered %+v", moved)
		}
		e.call(o.admin.Token, "POST", base+"/section-groups/"+inner+"/move", map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section", "id": sec["B"].ID}}}).want(http.StatusOK)
		if got := outline(o.sectionsOf(site)); got != "G[SA* SC] SD SB H[]" {
			t.Errorf("after the deprecated moves: %q", got)
		}
		e.call(o.admin.Token, "POST", base+"/sections/nope/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "siteSection": sec["B"].ID}}}).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "POST", base+"/sections/"+sec["D"].ID+"/move", `{"position":{}}`).wantError(http.StatusBadRequest)
		siteWantInvalid(t, "move next to no section", e.call(o.admin.Token, "POST", base+"/sections/"+sec["D"].ID+"/move", `{"position":{"before":{"type":"site-section"}}}`), "position")
		siteWantInvalid(t, "move a group next to a site space", e.call(o.admin.Token, "POST", base+"/section-groups/"+grp+"/move", `{"position":{"before":{"type":"site-space","id":"x"}}}`), "position")

		// Site spaces sort within their section.
		var extra siteSpaceJSON
		e.call(o.admin.Token, "POST", base+"/site-spaces", map[string]any{"spaceId": o.space("", "Extra"), "sectionId": sec["B"].ID}).want(http.StatusCreated).decode(&extra)
		var ss siteSpaceJSON
		sort(outlineSort("site-space", extra.ID, "site-space", sec["B"].SiteSpaces[0].ID, false), http.StatusOK).decode(&ss)
		if ss.ID != extra.ID || ss.Object != "site-space" {
			t.Errorf("site space sort answered %+v", ss)
		}
		for _, it := range o.sectionsOf(site) {
			if it.ID == sec["B"].ID && (len(it.SiteSpaces) != 2 || it.SiteSpaces[0].ID != extra.ID || !it.SiteSpaces[1].Default) {
				t.Errorf("section B's site spaces after the sort = %+v", it.SiteSpaces)
			}
		}

		// GraphQL answers the moved item through the union.
		var gq struct {
			SortSiteStructure struct {
				Typename string `json:"__typename"`
				ID       string
			}
		}
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!, $in: SortSiteStructureInput!) { sortSiteStructure(organizationId: $o, siteId: $s, input: $in) { __typename ... on SiteSectionGroup { id } } }`,
			map[string]any{"o": o.id, "s": site, "in": outlineSort("site-section-group", inner, "site-section-group", grp, false)}).ok(&gq)
		if gq.SortSiteStructure.Typename != "SiteSectionGroup" || gq.SortSiteStructure.ID != inner {
			t.Errorf("GraphQL sort = %+v", gq.SortSiteStructure)
		}
		if got := outline(o.sectionsOf(site)); got != "H[] G[SA* SC] SD SB" {
			t.Errorf("after the GraphQL sort: %q", got)
		}
	})
}

// Two sorts of sections racing on PostgreSQL give one order or the other, never a mix.
func TestSiteSectionsSortRace(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		if e.store.Dialect() != storage.Postgres {
			t.Skip("SQLite serialises writers itself")
		}
		o := newContentOrg(e)
		site, base := o.site("Docs")
		var start []string
		for _, name := range []string{"A", "B", "C", "D"} {
			start = append(start, o.sectionAdd(site, o.space("", name), nil).ID)
		}
		order := func() []string {
			var ids []string
			for _, it := range o.sectionsOf(site) {
				ids = append(ids, it.ID)
			}
			return ids
		}
		type move struct {
			id, anchor string
			after      bool
		}
		m1, m2 := move{start[0], start[3], true}, move{start[1], start[0], false}
		one := siteSimulate(siteSimulate(start, m1.id, m1.anchor, m1.after), m2.id, m2.anchor, m2.after)
		two := siteSimulate(siteSimulate(start, m2.id, m2.anchor, m2.after), m1.id, m1.anchor, m1.after)
		if cmp.Equal(one, two) {
			t.Fatalf("the moves commute; pick others")
		}
		for round := 0; round < 8; round++ {
			for i := 1; i < len(start); i++ {
				e.call(o.admin.Token, "PATCH", base+"/structure/sort", outlineSort("site-section", start[i], "site-section", start[i-1], true)).want(http.StatusOK)
			}
			e.call(o.admin.Token, "PATCH", base+"/structure/sort", outlineSort("site-section", start[0], "site-section", start[1], false)).want(http.StatusOK)
			if got := order(); !cmp.Equal(got, start) {
				t.Fatalf("round %d: reset gave %v, want %v", round, got, start)
			}
			var wg sync.WaitGroup
			statuses := make([]int, 2)
			for i, m := range []move{m1, m2} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					statuses[i] = e.call(o.admin.Token, "PATCH", base+"/structure/sort", outlineSort("site-section", m.id, "site-section", m.anchor, m.after)).Status
				}()
			}
			wg.Wait()
			if statuses[0] != http.StatusOK || statuses[1] != http.StatusOK {
				t.Errorf("round %d: concurrent sorts answered %v", round, statuses)
			}
			got := order()
			if !cmp.Equal(got, one) && !cmp.Equal(got, two) {
				t.Errorf("round %d: order %v is neither %v nor %v", round, got, one, two)
			}
			sorted, want := slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(start))
			if !cmp.Equal(sorted, want) {
				t.Errorf("round %d: items %v, want a permutation of %v", round, got, start)
			}
		}
	})
}

// Section conditions hide a section, and what it holds, from visitors they do not hold for;
// groups left empty disappear.
func TestSiteSectionConditions(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		site, base := o.site("Docs")
		pub := o.sectionAdd(site, o.space("", "Public"), nil)
		pro := o.sectionAdd(site, o.space("", "Pro"), nil)
		ent := o.sectionAdd(site, o.space("", "Enterprise"), nil)
		o.groupAdd(site, map[string]any{"title": "Paid", "sections": []string{pro.ID, ent.ID}})
		var extra siteSpaceJSON
		e.call(o.admin.Token, "POST", base+"/site-spaces", map[string]any{"spaceId": o.space("", "Beta"), "sectionId": pub.ID}).want(http.StatusCreated).decode(&extra)
		e.call(o.admin.Token, "PATCH", base+"/site-spaces/"+extra.ID, map[string]any{"condition": `visitor.claims.beta == true`}).want(http.StatusOK)
		e.call(o.admin.Token, "PATCH", base+"/sections/"+pro.ID, map[string]any{"condition": `visitor.claims.plan in ["pro", "enterprise"]`}).want(http.StatusOK)
		e.call(o.admin.Token, "PATCH", base+"/sections/"+ent.ID, map[string]any{"condition": `visitor.claims.plan == "enterprise"`}).want(http.StatusOK)
		visible := func(claims map[string]any) string {
			t.Helper()
			var g struct {
				Organization struct {
					Site struct {
						VisibleStructure struct {
							Type     string
							Sections []struct {
								Title      string
								SiteSpaces []struct{ Title string }
								Children   []struct{ Title string }
							}
						}
					}
				}
			}
			e.gql(o.admin.Token, `query($o: ID!, $s: ID!, $c: Document!) { organization(id: $o) { site(id: $s) { visibleStructure(claims: $c) { type sections {
				... on SiteSection { title siteSpaces { title } } ... on SiteSectionGroup { title children { ... on SiteSection { title } } } } } } } }`,
				map[string]any{"o": o.id, "s": site, "c": claims}).ok(&g)
			var out []string
			for _, it := range g.Organization.Site.VisibleStructure.Sections {
				s := it.Title
				for _, ss := range it.SiteSpaces {
					s += "/" + ss.Title
				}
				for _, c := range it.Children {
					s += "[" + c.Title + "]"
				}
				out = append(out, s)
			}
			return strings.Join(out, " ")
		}
		for _, tt := range []struct {
			claims map[string]any
			want   string
		}{
			{map[string]any{}, "Public/Public"},
			{map[string]any{"beta": true}, "Public/Public/Beta"},
			{map[string]any{"plan": "pro"}, "Public/Public Paid[Pro]"},
			{map[string]any{"plan": "enterprise"}, "Public/Public Paid[Pro][Enterprise]"},
		} {
			if got := visible(tt.claims); got != tt.want {
				t.Errorf("visible for %v = %q, want %q", tt.claims, got, tt.want)
			}
		}
		// The full structure keeps everything.
		if got := outline(o.sectionsOf(site)); got != "Public* Paid[Pro Enterprise]" {
			t.Errorf("structure = %q", got)
		}
	})
}

// Reading organization → sites → sections → site spaces → space costs the same statements
// whatever the number of sites, sections and site spaces.
func TestSiteSectionsGraphStatementsDoNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		const q = `query($o: ID!) { organization(id: $o) { sites(first: 20) { nodes { id
			sections { nodes { id title urls { published } siteSpaces { id path space { id title permissions { edit } } } } }
			sectionGroups { nodes { id children { ... on SiteSection { id siteSpaces { id } } } } }
			structure { type sections { ... on SiteSection { id } ... on SiteSectionGroup { children { ... on SiteSection { siteSpaces { space { id } } } } } } }
		} } } }`
		addSites := func(n int) {
			for i := range n {
				site := o.siteCreate(o.admin.Token, map[string]any{"title": "Site", "spaces": []string{o.space("", fmt.Sprintf("Root %d", i))}})["id"].(string)
				a := o.sectionAdd(site, o.space("", fmt.Sprintf("A %d", i)), nil)
				b := o.sectionAdd(site, o.space("", fmt.Sprintf("B %d", i)), nil)
				e.call(o.admin.Token, "POST", sitePath(o, site)+"/site-spaces", map[string]any{"spaceId": o.space("", fmt.Sprintf("More %d", i)), "sectionId": b.ID}).want(http.StatusCreated)
				o.groupAdd(site, map[string]any{"title": "Group", "sections": []string{a.ID, b.ID}})
			}
		}
		count := func(wantSites int) int64 {
			t.Helper()
			var n atomic.Int64
			var data struct {
				Organization struct {
					Sites struct {
						Nodes []struct {
							Sections struct {
								Nodes []struct {
									SiteSpaces []struct{ Space struct{ ID string } }
								}
							}
						}
					}
				}
			}
			e.gqlCounted(reader.Token, q, map[string]any{"o": o.id}, &n).ok(&data)
			if got := len(data.Organization.Sites.Nodes); got != wantSites {
				t.Fatalf("read %d sites, want %d", got, wantSites)
			}
			for _, s := range data.Organization.Sites.Nodes {
				var spaces int
				for _, sec := range s.Sections.Nodes {
					spaces += len(sec.SiteSpaces)
				}
				if len(s.Sections.Nodes) != 3 || spaces != 4 {
					t.Fatalf("a site shows %d sections and %d site spaces, want 3 and 4", len(s.Sections.Nodes), spaces)
				}
			}
			return n.Load()
		}
		addSites(2)
		few := count(2)
		addSites(13)
		if many := count(15); many != few {
			t.Errorf("statements grew with sites and sections: %d (2 sites) → %d (15 sites)", few, many)
		}
		// REST reads of one site are flat too.
		site := o.siteCreate(o.admin.Token, map[string]any{"title": "Big"})["id"].(string)
		rest := func() [3]int64 {
			var st, sc, gr atomic.Int64
			e.callCounted(reader.Token, "GET", sitePath(o, site)+"/structure", nil, &st).want(http.StatusOK)
			e.callCounted(reader.Token, "GET", sitePath(o, site)+"/sections?limit=1000", nil, &sc).want(http.StatusOK)
			e.callCounted(reader.Token, "GET", sitePath(o, site)+"/section-groups", nil, &gr).want(http.StatusOK)
			return [3]int64{st.Load(), sc.Load(), gr.Load()}
		}
		o.sectionAdd(site, o.space("", "First"), nil)
		small := rest()
		for i := range 12 {
			sec := o.sectionAdd(site, o.space("", fmt.Sprintf("Sec %d", i)), nil)
			o.groupAdd(site, map[string]any{"title": "G", "sections": []string{sec.ID}})
		}
		if big := rest(); big != small {
			t.Errorf("REST statements grew (structure, sections, groups): %v → %v", small, big)
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
