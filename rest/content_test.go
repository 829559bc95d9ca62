package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The content tests: pages edited through GraphQL and read through both doors, change requests,
// revisions and files. Their helpers are prefixed ct so they keep out of the other tests' way.

// ctPage is a page as both doors show it (REST's JSON and GraphQL's RevisionPage share names).
type ctPage struct {
	ID          string          `json:"id"`
	Title       string          `json:"title"`
	Type        string          `json:"type"`
	Kind        string          `json:"kind"`
	Slug        string          `json:"slug"`
	Path        string          `json:"path"`
	Emoji       *string         `json:"emoji"`
	Description *string         `json:"description"`
	Hidden      bool            `json:"hidden"`
	Layout      map[string]any  `json:"layout"`
	Markdown    *string         `json:"markdown"`
	Document    json.RawMessage `json:"document"`
	Target      json.RawMessage `json:"target"`
	Href        *string         `json:"href"`
	Parent      *string         `json:"parent"`
	Pages       []ctPage        `json:"pages"`
}

// ctFile is a file of a revision.
type ctFile struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	DownloadURL string `json:"downloadURL"`
	Size        int    `json:"size"`
	Dimensions  *struct {
		Width  int `json:"width"`
		Height int `json:"height"`
	} `json:"dimensions"`
}

// ctRevision is a revision as REST shows it.
type ctRevision struct {
	ID         string   `json:"id"`
	Type       string   `json:"type"`
	Parents    []string `json:"parents"`
	Pages      []ctPage `json:"pages"`
	Files      []ctFile `json:"files"`
	MergedFrom *struct {
		ID string `json:"id"`
	} `json:"mergedFrom"`
}

// ctChangeRequest is a change request as REST shows it.
type ctChangeRequest struct {
	ID                     string  `json:"id"`
	Number                 int     `json:"number"`
	Status                 string  `json:"status"`
	Subject                string  `json:"subject"`
	Space                  string  `json:"space"`
	Revision               string  `json:"revision"`
	RevisionInitial        string  `json:"revisionInitial"`
	RevisionMerged         *string `json:"revisionMerged"`
	RevisionMergedAncestor *string `json:"revisionMergedAncestor"`
	Outdated               bool    `json:"outdated"`
	URLs                   struct {
		Location string `json:"location"`
		App      string `json:"app"`
	} `json:"urls"`
}

// ctEdit is the answer to a page mutation.
type ctEdit struct {
	Revision struct {
		ID      string   `json:"id"`
		Type    string   `json:"type"`
		Parents []string `json:"parents"`
	} `json:"revision"`
	Page *ctPage `json:"page"`
}

const (
	ctCreatePage = `mutation($t: ContentTarget!, $in: CreatePageInput!) {
		createPage(target: $t, input: $in) { revision { id type parents } page { id type title slug path parent } } }`
	ctUpdatePage = `mutation($t: ContentTarget!, $p: ID!, $in: UpdatePageInput!) {
		updatePage(target: $t, pageId: $p, input: $in) { revision { id type parents } page { id type title slug path parent markdown } } }`
	ctMovePage = `mutation($t: ContentTarget!, $p: ID!, $in: MovePageInput!) {
		movePage(target: $t, pageId: $p, input: $in) { revision { id type parents } page { id type title slug path parent } } }`
	ctDeletePage = `mutation($t: ContentTarget!, $p: ID!) {
		deletePage(target: $t, pageId: $p) { revision { id type parents } page { id } } }`
	ctGraphPages = `query($s: ID!) { space(id: $s) { content { id parents pages {
		id type title slug path parent pages { id type title slug path parent pages { id type title slug path parent } } } } } }`
)

// ctSpace is a space of a fresh organization, edited and read as its admin.
type ctSpace struct {
	e     *env
	org   string
	admin account
	id    string
}

func newCtSpace(e *env) *ctSpace {
	e.t.Helper()
	org, admin := e.org("Acme", "admin@acme.test")
	id := e.call(admin.Token, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": "Docs"}).want(http.StatusCreated).object()["id"].(string)
	return &ctSpace{e: e, org: org, admin: admin, id: id}
}

// mutate runs a page mutation as the admin, failing on any error, and returns its answer.
func (s *ctSpace) mutate(query string, vars map[string]any) ctEdit {
	s.e.t.Helper()
	var data map[string]ctEdit
	s.e.gql(s.admin.Token, query, vars).ok(&data)
	for _, v := range data {
		return v
	}
	s.e.t.Fatalf("no answer to %s", query)
	return ctEdit{}
}

func (s *ctSpace) create(to, input map[string]any) ctEdit {
	s.e.t.Helper()
	return s.mutate(ctCreatePage, map[string]any{"t": to, "in": input})
}

func (s *ctSpace) update(to map[string]any, page string, input map[string]any) ctEdit {
	s.e.t.Helper()
	return s.mutate(ctUpdatePage, map[string]any{"t": to, "p": page, "in": input})
}

func (s *ctSpace) move(to map[string]any, page string, input map[string]any) ctEdit {
	s.e.t.Helper()
	return s.mutate(ctMovePage, map[string]any{"t": to, "p": page, "in": input})
}

func (s *ctSpace) remove(to map[string]any, page string) ctEdit {
	s.e.t.Helper()
	return s.mutate(ctDeletePage, map[string]any{"t": to, "p": page})
}

// wantCode runs a mutation as token and fails unless it answers the GraphQL error code (and,
// when field is not empty, names that field) without data.
func (s *ctSpace) wantCode(token, query string, vars map[string]any, code, field string) {
	s.e.t.Helper()
	if msg := s.refusal(token, query, vars, code, field); msg != "" {
		s.e.t.Fatal(msg)
	}
}

// refusal is wantCode's check: "" when the mutation was refused as expected, else what is wrong.
func (s *ctSpace) refusal(token, query string, vars map[string]any, code, field string) string {
	s.e.t.Helper()
	res := s.e.gql(token, query, vars)
	if len(res.Errors) == 0 {
		return fmt.Sprintf("want %s, got data %s", code, res.Data)
	}
	got, _ := res.Errors[0].Extensions["code"].(string)
	f, _ := res.Errors[0].Extensions["field"].(string)
	if got != code || (field != "" && f != field) {
		return fmt.Sprintf("code %q field %q, want %q %q; errors %+v", got, f, code, field, res.Errors)
	}
	if data := strings.TrimSpace(string(res.Data)); data != "" && data != "null" {
		return fmt.Sprintf("a refused mutation answered data %s", data)
	}
	return ""
}

// base is a content prefix: the space's content, a change request's, or a revision.
func (s *ctSpace) base(changeRequest string) string {
	if changeRequest != "" {
		return "/spaces/" + s.id + "/change-requests/" + changeRequest + "/content"
	}
	return "/spaces/" + s.id + "/content"
}

func (s *ctSpace) revisionBase(revision string) string {
	return "/spaces/" + s.id + "/revisions/" + revision
}

// revision reads a whole revision through REST (prefix: a base).
func (s *ctSpace) revision(prefix string) ctRevision {
	s.e.t.Helper()
	var rev ctRevision
	s.e.call(s.admin.Token, "GET", prefix, nil).want(http.StatusOK).decode(&rev)
	return rev
}

// pages reads a page tree through REST.
func (s *ctSpace) pages(prefix string) []ctPage {
	s.e.t.Helper()
	var list struct {
		Pages []ctPage `json:"pages"`
	}
	s.e.call(s.admin.Token, "GET", prefix+"/pages", nil).want(http.StatusOK).decode(&list)
	return list.Pages
}

// page reads one page through REST; format "" is the default.
func (s *ctSpace) page(prefix, id, format string) ctPage {
	s.e.t.Helper()
	path := prefix + "/page/" + id
	if format != "" {
		path += "?format=" + format
	}
	var p ctPage
	s.e.call(s.admin.Token, "GET", path, nil).want(http.StatusOK).decode(&p)
	return p
}

// markdown is a page's markdown through REST.
func (s *ctSpace) markdown(prefix, id string) string {
	s.e.t.Helper()
	p := s.page(prefix, id, "markdown")
	if p.Markdown == nil {
		s.e.t.Fatalf("page %s has no markdown", id)
	}
	return *p.Markdown
}

// current is the space's current revision id as GET /spaces/{id} shows it.
func (s *ctSpace) current() string {
	s.e.t.Helper()
	return s.e.call(s.admin.Token, "GET", "/spaces/"+s.id, nil).want(http.StatusOK).object()["revision"].(string)
}

// graphOutline is the outline of the space's current pages through GraphQL.
func (s *ctSpace) graphOutline() []string {
	s.e.t.Helper()
	var data struct {
		Space struct {
			Content struct {
				ID    string   `json:"id"`
				Pages []ctPage `json:"pages"`
			} `json:"content"`
		} `json:"space"`
	}
	s.e.gql(s.admin.Token, ctGraphPages, map[string]any{"s": s.id}).ok(&data)
	return ctOutline(data.Space.Content.Pages)
}

// outline lists a page tree depth first, one line per page: indentation for depth, the type and
// the path (the title for links).
func ctOutline(pages []ctPage) []string {
	out := []string{}
	var walk func([]ctPage, int)
	walk = func(pages []ctPage, depth int) {
		for _, p := range pages {
			name := p.Path
			if strings.EqualFold(p.Type, "link") {
				name = p.Title
			}
			out = append(out, strings.Repeat("  ", depth)+strings.ToLower(p.Type)+" "+name)
			walk(p.Pages, depth+1)
		}
	}
	walk(pages, 0)
	return out
}

// ctFindPage finds a page of a tree by id.
func ctFindPage(pages []ctPage, id string) *ctPage {
	for i := range pages {
		if pages[i].ID == id {
			return &pages[i]
		}
		if p := ctFindPage(pages[i].Pages, id); p != nil {
			return p
		}
	}
	return nil
}

// wantOutline checks the space's current pages, read through REST and through GraphQL, against
// want; step names the moment in the failure.
func (s *ctSpace) wantOutline(step string, want []string) {
	s.e.t.Helper()
	ctWantOutline(s.e.t, "REST "+step, ctOutline(s.pages(s.base(""))), want)
	ctWantOutline(s.e.t, "GraphQL "+step, s.graphOutline(), want)
}

func ctWantOutline(t testing.TB, what string, got, want []string) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s outline (-want +got):\n%s", what, diff)
	}
}

// ctDocNode is a node of the document tree, enough of it to find blocks and their text.
type ctDocNode struct {
	Object string         `json:"object"`
	Type   string         `json:"type"`
	Data   map[string]any `json:"data"`
	Nodes  []ctDocNode    `json:"nodes"`
	Leaves []struct {
		Text string `json:"text"`
	} `json:"leaves"`
}

func (n ctDocNode) text() string {
	var b strings.Builder
	for _, l := range n.Leaves {
		b.WriteString(l.Text)
	}
	for _, c := range n.Nodes {
		b.WriteString(c.text())
	}
	return b.String()
}

// blocks lists the document's nodes depth first, as "type: text".
func ctBlocks(t *testing.T, raw json.RawMessage) []ctDocNode {
	t.Helper()
	var doc ctDocNode
	if err := json.Unmarshal(raw, &doc); err != nil || doc.Object != "document" {
		t.Fatalf("not a document (%v): %s", err, raw)
	}
	var out []ctDocNode
	var walk func([]ctDocNode)
	walk = func(nodes []ctDocNode) {
		for _, n := range nodes {
			if n.Object == "block" || n.Object == "inline" {
				out = append(out, n)
			}
			walk(n.Nodes)
		}
	}
	walk(doc.Nodes)
	return out
}

// ctWantBlock fails unless the document has a block of type whose text is text.
func ctWantBlock(t *testing.T, raw json.RawMessage, typ, text string) {
	t.Helper()
	var seen []string
	for _, n := range ctBlocks(t, raw) {
		if n.Type == typ && n.text() == text {
			return
		}
		seen = append(seen, n.Type+": "+n.text())
	}
	t.Fatalf("no %s block %q in the document; blocks: %q", typ, text, seen)
}

// ctPNG is a w×h PNG image.
func ctPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.RGBA{R: uint8(40 * x), G: uint8(80 * y), B: 200, A: 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// download GETs a downloadURL through the server as token ("" for none).
func (e *env) ctDownload(token, downloadURL string) *httptest.ResponseRecorder {
	e.t.Helper()
	path, found := strings.CutPrefix(downloadURL, "https://bindery.test")
	if !found {
		e.t.Fatalf("downloadURL %q is not on the public URL", downloadURL)
	}
	_, rec := e.serve(httptest.NewRequest("GET", path, nil), token, nil)
	return rec
}

func TestContentPageEditingOnALiveSpace(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		to := target(s.id, "")
		initial := s.revision(s.base(""))
		if initial.ID != s.current() || len(initial.Pages) != 0 || len(initial.Parents) != 0 {
			t.Fatalf("a new space's content = %+v, want an empty first revision (space revision %s)", initial, s.current())
		}

		// Every edit is a new revision whose parent is the one before, as both doors show.
		last := initial.ID
		seen := map[string]bool{last: true}
		chain := func(ed ctEdit) {
			t.Helper()
			if seen[ed.Revision.ID] {
				t.Fatalf("edit reused revision %s", ed.Revision.ID)
			}
			seen[ed.Revision.ID] = true
			if !slices.Equal(ed.Revision.Parents, []string{last}) || ed.Revision.Type != "EDITS" {
				t.Fatalf("edit revision = %+v, want type EDITS with parents [%s]", ed.Revision, last)
			}
			rest := s.revision(s.base(""))
			if rest.ID != ed.Revision.ID || !slices.Equal(rest.Parents, []string{last}) || rest.Type != "edits" {
				t.Fatalf("GET content = %s %s %v, want %s edits [%s]", rest.ID, rest.Type, rest.Parents, ed.Revision.ID, last)
			}
			if cur := s.current(); cur != ed.Revision.ID {
				t.Fatalf("space revision = %s, want %s", cur, ed.Revision.ID)
			}
			last = ed.Revision.ID
		}

		// Create: slugs from titles, made unique among siblings; children before and after.
		gs := s.create(to, map[string]any{"title": "Getting Started!", "markdown": "# Welcome\n\nHello **world**, this is Bindery."})
		chain(gs)
		if p := gs.Page; p.Slug != "getting-started" || p.Path != "getting-started" || p.Type != "DOCUMENT" || p.Parent != nil {
			t.Fatalf("created page = %+v, want a root document getting-started", p)
		}
		gs2 := s.create(to, map[string]any{"title": "Getting started"})
		chain(gs2)
		if gs2.Page.Slug != "getting-started-2" {
			t.Fatalf("second slug = %q, want getting-started-2", gs2.Page.Slug)
		}
		gs3 := s.create(to, map[string]any{"title": "Getting  started?"})
		chain(gs3)
		if gs3.Page.Slug != "getting-started-3" {
			t.Fatalf("third slug = %q, want getting-started-3", gs3.Page.Slug)
		}
		install := s.create(to, map[string]any{"title": "Install", "parent": gs.Page.ID, "markdown": "Run it."})
		chain(install)
		if install.Page.Path != "getting-started/install" || install.Page.Parent == nil || *install.Page.Parent != gs.Page.ID {
			t.Fatalf("child = %+v, want path getting-started/install under %s", install.Page, gs.Page.ID)
		}
		configure := s.create(to, map[string]any{"title": "Configure", "parent": gs.Page.ID, "before": install.Page.ID})
		chain(configure)
		upgrade := s.create(to, map[string]any{"title": "Upgrade", "parent": gs.Page.ID, "after": configure.Page.ID})
		chain(upgrade)
		first := s.create(to, map[string]any{"title": "Überblick", "before": gs.Page.ID, "emoji": "1f44b"})
		chain(first)
		if first.Page.Slug != "uberblick" {
			t.Fatalf("accented slug = %q, want uberblick", first.Page.Slug)
		}
		reference := s.create(to, map[string]any{"type": "GROUP", "title": "Reference"})
		chain(reference)
		api := s.create(to, map[string]any{"title": "API", "parent": reference.Page.ID, "slug": "http-api", "markdown": "## Endpoints"})
		chain(api)
		if api.Page.Path != "reference/http-api" {
			t.Fatalf("explicit slug path = %q, want reference/http-api", api.Page.Path)
		}
		link := s.create(to, map[string]any{"type": "LINK", "title": "GitHub", "parent": reference.Page.ID, "target": map[string]any{"kind": "url", "url": "https://github.com/bindery"}})
		chain(link)
		if link.Page.Type != "LINK" || link.Page.Path != "" {
			t.Fatalf("link = %+v, want a LINK without path", link.Page)
		}

		want := []string{
			"document uberblick",
			"document getting-started",
			"  document getting-started/configure",
			"  document getting-started/upgrade",
			"  document getting-started/install",
			"document getting-started-2",
			"document getting-started-3",
			"group reference",
			"  document reference/http-api",
			"  link GitHub",
		}
		tree := s.pages(s.base(""))
		ctWantOutline(t, "REST", ctOutline(tree), want)
		ctWantOutline(t, "GraphQL", s.graphOutline(), want)
		if got := ctOutline(s.revision(s.base("")).Pages); !slices.Equal(got, want) {
			t.Fatalf("GET content pages = %q, want %q", got, want)
		}
		if l := ctFindPage(tree, link.Page.ID); l == nil || l.Href == nil || *l.Href != "https://github.com/bindery" || l.Kind != "link" {
			t.Fatalf("link page in REST = %+v, want href https://github.com/bindery", l)
		}
		if g := ctFindPage(tree, reference.Page.ID); g == nil || g.Kind != "group" || g.Markdown != nil {
			t.Fatalf("group page in REST = %+v", g)
		}
		if p := ctFindPage(tree, first.Page.ID); p == nil || p.Emoji == nil || *p.Emoji != "1f44b" {
			t.Fatalf("emoji of the created page = %+v", p)
		}

		var byPath struct {
			Space struct {
				Content struct {
					PageByPath *struct{ ID, Markdown string }
				}
			}
		}
		e.gql(s.admin.Token, `query($s: ID!) { space(id: $s) { content { pageByPath(path: "getting-started/install", format: MARKDOWN) { id markdown } } } }`,
			map[string]any{"s": s.id}).ok(&byPath)
		if p := byPath.Space.Content.PageByPath; p == nil || p.ID != install.Page.ID || p.Markdown != "Run it." {
			t.Fatalf("GraphQL pageByPath = %+v", p)
		}
		// REST: the page at a path, in the space's content, a revision and a change request
		// (getPageByPath, getPageInRevisionByPath, getPageInChangeRequestByPath).
		cr := e.openChangeRequest(s.admin.Token, s.id, "By path")
		for _, base := range []string{s.base(""), s.revisionBase(s.revision(s.base("")).ID), s.base(cr)} {
			for _, path := range []string{"getting-started/install", "getting-started%2Finstall", "/getting-started/install/"} {
				var p ctPage
				e.call(s.admin.Token, "GET", base+"/path/"+path+"?format=markdown", nil).want(http.StatusOK).decode(&p)
				if p.ID != install.Page.ID || p.Markdown == nil || *p.Markdown != "Run it." {
					t.Fatalf("GET %s/path/%s = %+v", base, path, p)
				}
			}
			var g ctPage
			e.call(s.admin.Token, "GET", base+"/path/reference", nil).want(http.StatusOK).decode(&g)
			if g.ID != reference.Page.ID || g.Kind != "group" {
				t.Fatalf("GET %s/path/reference = %+v, want the group", base, g)
			}
			// A link has no path of its own; an unknown path, or none, is 404; a bad flag 400.
			e.call(s.admin.Token, "GET", base+"/path/getting-started/absent", nil).want(http.StatusNotFound)
			e.callRaw(s.admin.Token, "GET", "/v1"+base+"/path/").want(http.StatusNotFound)
			e.call(s.admin.Token, "GET", base+"/path/getting-started/install?evaluated=maybe", nil).want(http.StatusBadRequest)
		}

		// Content: markdown as written; the document tree has the heading and the paragraph.
		if md := s.markdown(s.base(""), gs.Page.ID); md != "# Welcome\n\nHello **world**, this is Bindery." {
			t.Fatalf("markdown = %q", md)
		}
		doc := s.page(s.base(""), gs.Page.ID, "")
		if doc.Markdown != nil || len(doc.Document) == 0 {
			t.Fatalf("default format = markdown %v, document %s; want the document only", doc.Markdown, doc.Document)
		}
		ctWantBlock(t, doc.Document, "heading-1", "Welcome")
		ctWantBlock(t, doc.Document, "paragraph", "Hello world, this is Bindery.")
		if got := ctOutline(doc.Pages); !slices.Equal(got, []string{"document getting-started/configure", "document getting-started/upgrade", "document getting-started/install"}) {
			t.Fatalf("page children = %q", got)
		}
		if p := s.page(s.base(""), install.Page.ID, "document"); p.Path != "getting-started/install" {
			t.Fatalf("child read alone has path %q", p.Path)
		}

		// Update: title (the slug stays), markdown, emoji, description, hidden, layout.
		layout := map[string]any{"width": "wide", "cover": false, "coverSize": "full", "title": true, "description": false,
			"tableOfContents": false, "outline": true, "pagination": false, "metadata": true}
		up := s.update(to, install.Page.ID, map[string]any{
			"title": "Installation", "markdown": "# Install\n\nDownload the binary.", "emoji": "1f4e6",
			"description": "How to install", "hidden": true, "layout": layout,
		})
		chain(up)
		if up.Page.Title != "Installation" || up.Page.Slug != "install" {
			t.Fatalf("updated page = %+v, want title Installation, slug install", up.Page)
		}
		got := s.page(s.base(""), install.Page.ID, "markdown")
		if got.Title != "Installation" || got.Slug != "install" || got.Path != "getting-started/install" ||
			got.Emoji == nil || *got.Emoji != "1f4e6" || got.Description == nil || *got.Description != "How to install" ||
			!got.Hidden || got.Markdown == nil || *got.Markdown != "# Install\n\nDownload the binary." {
			t.Fatalf("page after update = %+v", got)
		}
		if diff := cmp.Diff(layout, got.Layout); diff != "" {
			t.Fatalf("layout after update (-want +got):\n%s", diff)
		}
		ctWantBlock(t, s.page(s.base(""), install.Page.ID, "").Document, "paragraph", "Download the binary.")
		// Clearing: null clears the emoji; fields not given stay.
		chain(s.update(to, install.Page.ID, map[string]any{"emoji": nil, "hidden": false}))
		got = s.page(s.base(""), install.Page.ID, "markdown")
		if got.Emoji != nil || got.Hidden || got.Description == nil || got.Title != "Installation" || *got.Markdown != "# Install\n\nDownload the binary." {
			t.Fatalf("page after clearing the emoji = %+v", got)
		}

		// Move: reorder among siblings, re-parent (the slug made unique there), to the root.
		chain(s.move(to, install.Page.ID, map[string]any{"parent": gs.Page.ID, "before": configure.Page.ID}))
		moved := s.move(to, gs2.Page.ID, map[string]any{"parent": reference.Page.ID, "after": api.Page.ID})
		chain(moved)
		if moved.Page.Path != "reference/getting-started-2" || moved.Page.Parent == nil || *moved.Page.Parent != reference.Page.ID {
			t.Fatalf("re-parented page = %+v", moved.Page)
		}
		// A second "install" under the root, then the first one moves to the root too: install-2.
		chain(s.create(to, map[string]any{"title": "Install", "after": gs3.Page.ID}))
		toRoot := s.move(to, install.Page.ID, map[string]any{"before": gs.Page.ID})
		chain(toRoot)
		if toRoot.Page.Slug != "install-2" || toRoot.Page.Path != "install-2" || toRoot.Page.Parent != nil {
			t.Fatalf("page moved to the root = %+v, want slug install-2 at the root", toRoot.Page)
		}
		want = []string{
			"document uberblick",
			"document install-2",
			"document getting-started",
			"  document getting-started/configure",
			"  document getting-started/upgrade",
			"document getting-started-3",
			"document install",
			"group reference",
			"  document reference/http-api",
			"  document reference/getting-started-2",
			"  link GitHub",
		}
		s.wantOutline("after moves", want)
		// The moved page kept its content.
		if md := s.markdown(s.base(""), install.Page.ID); md != "# Install\n\nDownload the binary." {
			t.Fatalf("moved page markdown = %q", md)
		}

		// A page cannot move into itself or its descendants; a group stays at the root.
		nested := s.create(to, map[string]any{"title": "Deep", "parent": configure.Page.ID})
		chain(nested)
		s.wantCode(s.admin.Token, ctMovePage, map[string]any{"t": to, "p": gs.Page.ID, "in": map[string]any{"parent": gs.Page.ID}}, "INVALID", "parent")
		s.wantCode(s.admin.Token, ctMovePage, map[string]any{"t": to, "p": gs.Page.ID, "in": map[string]any{"parent": configure.Page.ID}}, "INVALID", "parent")
		s.wantCode(s.admin.Token, ctMovePage, map[string]any{"t": to, "p": gs.Page.ID, "in": map[string]any{"parent": nested.Page.ID}}, "INVALID", "parent")
		s.wantCode(s.admin.Token, ctMovePage, map[string]any{"t": to, "p": reference.Page.ID, "in": map[string]any{"parent": gs.Page.ID}}, "INVALID", "parent")
		if cur := s.current(); cur != last {
			t.Fatalf("refused moves wrote revision %s", cur)
		}
		if p := s.page(s.base(""), nested.Page.ID, "markdown"); p.Path != "getting-started/configure/deep" {
			t.Fatalf("grandchild path = %q", p.Path)
		}

		// Delete removes the subtree; the pages are gone from every read of the new content.
		del := s.remove(to, gs.Page.ID)
		chain(del)
		if del.Page != nil {
			t.Fatalf("deletePage answered page %+v, want null", del.Page)
		}
		want = []string{
			"document uberblick",
			"document install-2",
			"document getting-started-3",
			"document install",
			"group reference",
			"  document reference/http-api",
			"  document reference/getting-started-2",
			"  link GitHub",
		}
		s.wantOutline("after delete", want)
		for _, id := range []string{gs.Page.ID, configure.Page.ID, upgrade.Page.ID, nested.Page.ID} {
			e.call(s.admin.Token, "GET", s.base("")+"/page/"+id, nil).wantError(http.StatusNotFound)
		}
		s.wantCode(s.admin.Token, ctDeletePage, map[string]any{"t": to, "p": configure.Page.ID}, "NOT_FOUND", "")
		// A deleted page's slug is free again.
		again := s.create(to, map[string]any{"title": "Getting Started", "before": reference.Page.ID})
		chain(again)
		if again.Page.Slug != "getting-started" {
			t.Fatalf("slug after delete = %q, want getting-started", again.Page.Slug)
		}
	})
}

func TestContentEditValidation(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		to := target(s.id, "")
		doc := s.create(to, map[string]any{"title": "Getting Started", "markdown": "Hello"}).Page.ID
		child := s.create(to, map[string]any{"title": "Child", "parent": doc}).Page.ID
		link := s.create(to, map[string]any{"type": "LINK", "title": "Link", "target": map[string]any{"kind": "url", "url": "https://example.com"}}).Page.ID
		group := s.create(to, map[string]any{"type": "GROUP", "title": "Group"}).Page.ID
		before := s.revision(s.base(""))

		create := func(in map[string]any) map[string]any { return map[string]any{"t": to, "in": in} }
		update := func(p string, in map[string]any) map[string]any { return map[string]any{"t": to, "p": p, "in": in} }
		cases := []struct {
			name, query string
			vars        map[string]any
			code, field string
		}{
			{"empty title", ctCreatePage, create(map[string]any{"title": ""}), "INVALID", "title"},
			{"long title", ctCreatePage, create(map[string]any{"title": strings.Repeat("x", 256)}), "INVALID", "title"},
			{"bad slug", ctCreatePage, create(map[string]any{"title": "Page", "slug": "Not A Slug"}), "INVALID", "slug"},
			{"taken slug", ctCreatePage, create(map[string]any{"title": "Page", "slug": "getting-started"}), "INVALID", "slug"},
			{"group under a parent", ctCreatePage, create(map[string]any{"type": "GROUP", "title": "G", "parent": doc}), "INVALID", "parent"},
			{"group with markdown", ctCreatePage, create(map[string]any{"type": "GROUP", "title": "G", "markdown": "x"}), "INVALID", "markdown"},
			{"link without target", ctCreatePage, create(map[string]any{"type": "LINK", "title": "L"}), "INVALID", "target"},
			{"link with a bad kind", ctCreatePage, create(map[string]any{"type": "LINK", "title": "L", "target": map[string]any{"kind": "ftp"}}), "INVALID", "target.kind"},
			{"link with markdown", ctCreatePage, create(map[string]any{"type": "LINK", "title": "L", "target": map[string]any{"kind": "url", "url": "https://example.com"}, "markdown": "x"}), "INVALID", "markdown"},
			{"document with a target", ctCreatePage, create(map[string]any{"title": "D", "target": map[string]any{"kind": "url", "url": "https://example.com"}}), "INVALID", "target"},
			{"under a link", ctCreatePage, create(map[string]any{"title": "D", "parent": link}), "INVALID", "parent"},
			{"before and after", ctCreatePage, create(map[string]any{"title": "D", "before": doc, "after": group}), "INVALID", "before"},
			{"before a non-sibling", ctCreatePage, create(map[string]any{"title": "D", "before": child}), "INVALID", "before"},
			{"bad layout", ctCreatePage, create(map[string]any{"title": "D", "layout": map[string]any{"width": "huge", "cover": true, "coverSize": "hero", "title": true,
				"description": true, "tableOfContents": true, "outline": true, "pagination": true, "metadata": true}}), "INVALID", "layout.width"},
			{"unknown parent", ctCreatePage, create(map[string]any{"title": "D", "parent": "aaaaaaaaaaaaaaaaaaaa"}), "NOT_FOUND", ""},
			{"null title", ctUpdatePage, update(doc, map[string]any{"title": nil}), "INVALID", "title"},
			{"empty title on update", ctUpdatePage, update(doc, map[string]any{"title": ""}), "INVALID", "title"},
			{"bad slug on update", ctUpdatePage, update(doc, map[string]any{"slug": "Not A Slug"}), "INVALID", "slug"},
			{"sibling's slug", ctUpdatePage, update(doc, map[string]any{"slug": "group"}), "INVALID", "slug"},
			{"markdown of a group", ctUpdatePage, update(group, map[string]any{"markdown": "x"}), "INVALID", "markdown"},
			{"target of a document", ctUpdatePage, update(doc, map[string]any{"target": map[string]any{"kind": "url", "url": "https://example.com"}}), "INVALID", "target"},
			{"variables not an object", ctUpdatePage, update(doc, map[string]any{"variables": []any{1}}), "INVALID", "variables"},
			{"unknown page", ctUpdatePage, update("aaaaaaaaaaaaaaaaaaaa", map[string]any{"title": "X"}), "NOT_FOUND", ""},
			{"move before and after", ctMovePage, update(child, map[string]any{"parent": doc, "before": child, "after": child}), "INVALID", "before"},
			{"move into its child", ctMovePage, update(doc, map[string]any{"parent": child}), "INVALID", "parent"},
			{"move a group down", ctMovePage, update(group, map[string]any{"parent": doc}), "INVALID", "parent"},
			{"move under a link", ctMovePage, update(child, map[string]any{"parent": link}), "INVALID", "parent"},
			{"move before a non-sibling", ctMovePage, update(child, map[string]any{"before": child}), "INVALID", "before"},
			{"delete an unknown page", ctDeletePage, map[string]any{"t": to, "p": "aaaaaaaaaaaaaaaaaaaa"}, "NOT_FOUND", ""},
		}
		for _, c := range cases {
			if msg := s.refusal(s.admin.Token, c.query, c.vars, c.code, c.field); msg != "" {
				t.Errorf("%s: %s", c.name, msg)
			}
		}

		// Nothing was written.
		after := s.revision(s.base(""))
		if after.ID != before.ID || s.current() != before.ID {
			t.Fatalf("refused edits moved the revision from %s to %s", before.ID, after.ID)
		}
		if diff := cmp.Diff(ctOutline(before.Pages), ctOutline(after.Pages)); diff != "" {
			t.Fatalf("refused edits changed the tree (-before +after):\n%s", diff)
		}
		if md := s.markdown(s.base(""), doc); md != "Hello" {
			t.Fatalf("markdown after refused edits = %q", md)
		}

		// REST refuses unknown query values on every content source, naming the parameter.
		cr := e.openChangeRequest(s.admin.Token, s.id, "Fix")
		for _, prefix := range []string{s.base(""), s.base(cr), s.revisionBase(before.ID)} {
			for query, name := range map[string]string{"format=html": "format", "evaluated=maybe": "evaluated", "metadata=maybe": "metadata", "computed=2": "computed"} {
				msg := e.call(s.admin.Token, "GET", prefix+"/page/"+doc+"?"+query, nil).wantError(http.StatusBadRequest)
				if !strings.Contains(msg, name) {
					t.Errorf("GET %s/page?%s: message %q does not name %s", prefix, query, msg, name)
				}
			}
		}
		for _, query := range []string{"evaluated=true", "evaluated=false", "evaluated=deterministic-only", "metadata=false", "computed=true", "format=markdown", "format=document"} {
			e.call(s.admin.Token, "GET", s.base("")+"/page/"+doc+"?"+query, nil).want(http.StatusOK)
		}
		e.call(s.admin.Token, "GET", s.base("")+"/page/aaaaaaaaaaaaaaaaaaaa", nil).wantError(http.StatusNotFound)
		msg := e.call(s.admin.Token, "GET", "/spaces/"+s.id+"/change-requests?status=merging", nil).wantError(http.StatusBadRequest)
		if !strings.Contains(msg, "status") {
			t.Errorf("bad status filter message %q does not name status", msg)
		}
	})
}

func TestContentEditPermissions(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		to := target(s.id, "")
		page := s.create(to, map[string]any{"title": "Home", "markdown": "Hi"}).Page.ID
		reader := e.member(s.org, "reader@acme.test", "read")
		editor := e.member(s.org, "editor@acme.test", "edit")
		_, outsider := e.org("Other", "admin@other.test")
		rev := s.current()
		createVars := map[string]any{"t": to, "in": map[string]any{"title": "New"}}
		updateVars := map[string]any{"t": to, "p": page, "in": map[string]any{"title": "Changed"}}

		// A reader reads but may not edit; an outsider does not even see the space.
		e.call(reader.Token, "GET", s.base("")+"/page/"+page, nil).want(http.StatusOK)
		s.wantCode(reader.Token, ctCreatePage, createVars, "FORBIDDEN", "")
		s.wantCode(reader.Token, ctUpdatePage, updateVars, "FORBIDDEN", "")
		s.wantCode(reader.Token, ctMovePage, map[string]any{"t": to, "p": page, "in": map[string]any{}}, "FORBIDDEN", "")
		s.wantCode(reader.Token, ctDeletePage, map[string]any{"t": to, "p": page}, "FORBIDDEN", "")
		if res := e.upload(reader.Token, to, "a.txt", []byte("x")); res.code() != "FORBIDDEN" {
			t.Fatalf("reader upload code = %q", res.code())
		}
		e.call(reader.Token, "POST", "/spaces/"+s.id+"/change-requests", map[string]any{"subject": "No"}).wantError(http.StatusForbidden)

		e.call(outsider.Token, "GET", s.base(""), nil).wantError(http.StatusNotFound)
		e.call(outsider.Token, "GET", s.base("")+"/page/"+page, nil).wantError(http.StatusNotFound)
		s.wantCode(outsider.Token, ctCreatePage, createVars, "NOT_FOUND", "")
		s.wantCode(outsider.Token, ctUpdatePage, updateVars, "NOT_FOUND", "")
		s.wantCode(outsider.Token, ctDeletePage, map[string]any{"t": to, "p": page}, "NOT_FOUND", "")
		e.call(outsider.Token, "POST", "/spaces/"+s.id+"/change-requests", map[string]any{"subject": "No"}).wantError(http.StatusNotFound)
		if cur := s.current(); cur != rev {
			t.Fatalf("refused edits moved the revision from %s to %s", rev, cur)
		}

		// An editor edits.
		var data struct{ CreatePage ctEdit }
		e.gql(editor.Token, ctCreatePage, createVars).ok(&data)
		if data.CreatePage.Page == nil || data.CreatePage.Page.Slug != "new" {
			t.Fatalf("editor's page = %+v", data.CreatePage.Page)
		}
		rev = s.current()

		// A locked space takes no live edit, but takes edits through a change request.
		e.call(s.admin.Token, "PATCH", "/spaces/"+s.id, map[string]any{"editMode": "locked"}).want(http.StatusOK)
		s.wantCode(s.admin.Token, ctCreatePage, createVars, "INVALID", "changeRequestId")
		s.wantCode(editor.Token, ctUpdatePage, updateVars, "INVALID", "changeRequestId")
		s.wantCode(s.admin.Token, ctDeletePage, map[string]any{"t": to, "p": page}, "INVALID", "changeRequestId")
		if res := e.upload(s.admin.Token, to, "a.txt", []byte("x")); res.code() != "INVALID" {
			t.Fatalf("live upload on a locked space: code %q", res.code())
		}
		if cur := s.current(); cur != rev {
			t.Fatalf("a locked space's revision moved from %s to %s", rev, cur)
		}
		cr := e.openChangeRequest(editor.Token, s.id, "Through review")
		inCR := target(s.id, cr)
		var upd struct{ UpdatePage ctEdit }
		e.gql(editor.Token, ctUpdatePage, map[string]any{"t": inCR, "p": page, "in": map[string]any{"markdown": "Reviewed"}}).ok(&upd)
		if md := s.markdown(s.base(cr), page); md != "Reviewed" {
			t.Fatalf("change request markdown = %q", md)
		}
		if md := s.markdown(s.base(""), page); md != "Hi" {
			t.Fatalf("space markdown before the merge = %q", md)
		}
		// A reader may not edit the change request either.
		s.wantCode(reader.Token, ctUpdatePage, map[string]any{"t": inCR, "p": page, "in": map[string]any{"markdown": "x"}}, "FORBIDDEN", "")
		e.call(reader.Token, "POST", "/spaces/"+s.id+"/change-requests/"+cr+"/merge", nil).wantError(http.StatusForbidden)
		e.call(s.admin.Token, "POST", "/spaces/"+s.id+"/change-requests/"+cr+"/merge", nil).want(http.StatusOK)
		if md := s.markdown(s.base(""), page); md != "Reviewed" {
			t.Fatalf("space markdown after the merge = %q", md)
		}

		// Live again: live edits work again.
		e.call(s.admin.Token, "PATCH", "/spaces/"+s.id, map[string]any{"editMode": "live"}).want(http.StatusOK)
		s.update(to, page, map[string]any{"markdown": "Live"})
		if md := s.markdown(s.base(""), page); md != "Live" {
			t.Fatalf("space markdown after a live edit = %q", md)
		}
	})
}

// counters reads a space's change request counters through both doors, failing when they
// disagree: [changeRequests, changeRequestsOpen, changeRequestsDraft].
func (s *ctSpace) counters() [3]int {
	s.e.t.Helper()
	var rest struct{ ChangeRequests, ChangeRequestsOpen, ChangeRequestsDraft int }
	s.e.call(s.admin.Token, "GET", "/spaces/"+s.id, nil).want(http.StatusOK).decode(&rest)
	var data struct {
		Space struct{ ChangeRequests, ChangeRequestsOpen, ChangeRequestsDraft int }
	}
	s.e.gql(s.admin.Token, `query($s: ID!) { space(id: $s) { changeRequests changeRequestsOpen changeRequestsDraft } }`, map[string]any{"s": s.id}).ok(&data)
	if rest != data.Space {
		s.e.t.Fatalf("counters: REST %+v, GraphQL %+v", rest, data.Space)
	}
	return [3]int{rest.ChangeRequests, rest.ChangeRequestsOpen, rest.ChangeRequestsDraft}
}

func (s *ctSpace) wantCounters(total, open, draft int) {
	s.e.t.Helper()
	if got := s.counters(); got != [3]int{total, open, draft} {
		s.e.t.Fatalf("counters [all open draft] = %v, want %v", got, [3]int{total, open, draft})
	}
}

// changeRequest reads a change request through REST by id or number.
func (s *ctSpace) changeRequest(idOrNumber string) ctChangeRequest {
	s.e.t.Helper()
	var cr ctChangeRequest
	s.e.call(s.admin.Token, "GET", "/spaces/"+s.id+"/change-requests/"+idOrNumber, nil).want(http.StatusOK).decode(&cr)
	return cr
}

// changeRequestIDs lists the ids of a space's change requests through REST (query: "" or
// "?status=…").
func (s *ctSpace) changeRequestIDs(query string) []string {
	s.e.t.Helper()
	var list struct {
		Items []ctChangeRequest `json:"items"`
		Count int               `json:"count"`
	}
	s.e.call(s.admin.Token, "GET", "/spaces/"+s.id+"/change-requests"+query, nil).want(http.StatusOK).decode(&list)
	ids := []string{}
	for _, cr := range list.Items {
		ids = append(ids, cr.ID)
	}
	if list.Count != len(ids) {
		s.e.t.Fatalf("change request list%s: count %d for %d items", query, list.Count, len(ids))
	}
	return ids
}

// graphChangeRequestIDs lists change requests through GraphQL (status: "" or an enum value).
func (s *ctSpace) graphChangeRequestIDs(status string) []string {
	s.e.t.Helper()
	query := `query($s: ID!) { space(id: $s) { changeRequestList { totalCount nodes { id } } } }`
	vars := map[string]any{"s": s.id}
	if status != "" {
		query = `query($s: ID!, $st: ChangeRequestStatus) { space(id: $s) { changeRequestList(status: $st) { totalCount nodes { id } } } }`
		vars["st"] = status
	}
	var data struct {
		Space struct {
			ChangeRequestList struct {
				TotalCount int
				Nodes      []struct{ ID string }
			}
		}
	}
	s.e.gql(s.admin.Token, query, vars).ok(&data)
	ids := []string{}
	for _, n := range data.Space.ChangeRequestList.Nodes {
		ids = append(ids, n.ID)
	}
	if data.Space.ChangeRequestList.TotalCount != len(ids) {
		s.e.t.Fatalf("GraphQL change request list %s: totalCount %d for %d nodes", status, data.Space.ChangeRequestList.TotalCount, len(ids))
	}
	return ids
}

func ctWantIDs(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s = %q, want %q", what, got, want)
	}
}

// ctMergeResult is the answer to a merge or an update.
type ctMergeResult struct {
	Revision string `json:"revision"`
	Result   string `json:"result"`
}

func (s *ctSpace) merge(cr string) ctMergeResult {
	s.e.t.Helper()
	var m ctMergeResult
	s.e.call(s.admin.Token, "POST", "/spaces/"+s.id+"/change-requests/"+cr+"/merge", nil).want(http.StatusOK).decode(&m)
	return m
}

func (s *ctSpace) updateFromSpace(cr string) ctMergeResult {
	s.e.t.Helper()
	var m ctMergeResult
	s.e.call(s.admin.Token, "POST", "/spaces/"+s.id+"/change-requests/"+cr+"/update", nil).want(http.StatusOK).decode(&m)
	return m
}

const ctUpdateChangeRequest = `mutation($s: ID!, $cr: ID!, $in: UpdateChangeRequestInput!) {
	updateChangeRequest(spaceId: $s, changeRequestId: $cr, input: $in) { id number status subject } }`

func TestChangeRequestLifecycle(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		other := e.call(s.admin.Token, "POST", "/orgs/"+s.org+"/spaces", map[string]any{"title": "Other"}).want(http.StatusCreated).object()["id"].(string)
		s.wantCounters(0, 0, 0)
		rev := s.current()

		// Create through REST: 201, Location, number 1, on the space's current revision.
		res := e.call(s.admin.Token, "POST", "/spaces/"+s.id+"/change-requests", map[string]any{"subject": "First"}).want(http.StatusCreated)
		var cr1 ctChangeRequest
		res.decode(&cr1)
		if loc := res.Header.Get("Location"); loc != cr1.URLs.Location || loc != "https://bindery.test/v1/spaces/"+s.id+"/change-requests/"+cr1.ID {
			t.Fatalf("Location %q, urls.location %q", loc, cr1.URLs.Location)
		}
		if cr1.Number != 1 || cr1.Status != "open" || cr1.Subject != "First" || cr1.Space != s.id || cr1.Revision != rev ||
			cr1.RevisionInitial != rev || cr1.Outdated || cr1.RevisionMerged != nil {
			t.Fatalf("created change request = %+v (space revision %s)", cr1, rev)
		}
		if !strings.HasSuffix(cr1.URLs.App, "/s/"+s.id+"/~/changes/1/") {
			t.Fatalf("urls.app = %q", cr1.URLs.App)
		}
		// Through GraphQL: number 2; without a subject: number 3; another space counts from 1.
		var created struct {
			CreateChangeRequest struct {
				ID, Status, Subject string
				Number              int
			}
		}
		e.gql(s.admin.Token, `mutation($s: ID!) { createChangeRequest(spaceId: $s, input: {subject: "Second"}) { id number status subject } }`,
			map[string]any{"s": s.id}).ok(&created)
		cr2 := created.CreateChangeRequest
		if cr2.Number != 2 || cr2.Status != "OPEN" || cr2.Subject != "Second" {
			t.Fatalf("GraphQL change request = %+v", cr2)
		}
		var cr3 ctChangeRequest
		e.call(s.admin.Token, "POST", "/spaces/"+s.id+"/change-requests", nil).want(http.StatusCreated).decode(&cr3)
		if cr3.Number != 3 || cr3.Subject != "" {
			t.Fatalf("third change request = %+v", cr3)
		}
		if n := e.call(s.admin.Token, "POST", "/spaces/"+other+"/change-requests", map[string]any{"subject": "Elsewhere"}).want(http.StatusCreated).object()["number"]; n != 1.0 {
			t.Fatalf("another space's first number = %v", n)
		}
		s.wantCounters(3, 3, 0)
		msg := e.call(s.admin.Token, "POST", "/spaces/"+s.id+"/change-requests", map[string]any{"subject": strings.Repeat("s", 101)}).wantError(http.StatusBadRequest)
		if !strings.Contains(msg, "subject") {
			t.Fatalf("long subject message %q", msg)
		}
		s.wantCounters(3, 3, 0)

		// Get by id and by number, through both doors.
		if got := s.changeRequest("2"); got.ID != cr2.ID || got.Number != 2 {
			t.Fatalf("change request 2 = %+v, want %s", got, cr2.ID)
		}
		if got := s.changeRequest(cr1.ID); got.ID != cr1.ID || got.Subject != "First" {
			t.Fatalf("change request by id = %+v", got)
		}
		e.call(s.admin.Token, "GET", "/spaces/"+s.id+"/change-requests/9", nil).wantError(http.StatusNotFound)
		e.call(s.admin.Token, "GET", "/spaces/"+other+"/change-requests/"+cr1.ID, nil).wantError(http.StatusNotFound)
		var byNumber struct {
			Space struct {
				One, Missing *struct {
					ID     string
					Number int
				}
			}
		}
		e.gql(s.admin.Token, `query($s: ID!) { space(id: $s) { one: changeRequest(id: "1") { id number } missing: changeRequest(id: "9") { id number } } }`,
			map[string]any{"s": s.id}).ok(&byNumber)
		if byNumber.Space.One == nil || byNumber.Space.One.ID != cr1.ID || byNumber.Space.Missing != nil {
			t.Fatalf("GraphQL change requests by number = %+v", byNumber.Space)
		}

		// Lists: open by default, newest first; status filters.
		ctWantIDs(t, "open list", s.changeRequestIDs(""), cr3.ID, cr2.ID, cr1.ID)
		ctWantIDs(t, "GraphQL open list", s.graphChangeRequestIDs(""), cr3.ID, cr2.ID, cr1.ID)
		ctWantIDs(t, "draft list", s.changeRequestIDs("?status=draft"))

		// Status moves between draft, open and archived; counters follow.
		var patched ctChangeRequest
		e.call(s.admin.Token, "PATCH", "/spaces/"+s.id+"/change-requests/"+cr2.ID, map[string]any{"status": "draft"}).want(http.StatusOK).decode(&patched)
		if patched.Status != "draft" || patched.Subject != "Second" {
			t.Fatalf("patched to draft = %+v", patched)
		}
		ctWantIDs(t, "open list", s.changeRequestIDs(""), cr3.ID, cr1.ID)
		ctWantIDs(t, "draft list", s.changeRequestIDs("?status=draft"), cr2.ID)
		ctWantIDs(t, "GraphQL draft list", s.graphChangeRequestIDs("DRAFT"), cr2.ID)
		s.wantCounters(3, 2, 1)
		e.call(s.admin.Token, "PATCH", "/spaces/"+s.id+"/change-requests/3", map[string]any{"status": "archived", "subject": "Dropped"}).want(http.StatusOK).decode(&patched)
		if patched.ID != cr3.ID || patched.Status != "archived" || patched.Subject != "Dropped" {
			t.Fatalf("patched to archived = %+v", patched)
		}
		ctWantIDs(t, "archived list", s.changeRequestIDs("?status=archived"), cr3.ID)
		ctWantIDs(t, "GraphQL archived list", s.graphChangeRequestIDs("ARCHIVED"), cr3.ID)
		ctWantIDs(t, "open list", s.changeRequestIDs(""), cr1.ID)
		s.wantCounters(3, 1, 1)
		var gqlUpdated struct {
			UpdateChangeRequest struct{ ID, Status, Subject string }
		}
		e.gql(s.admin.Token, ctUpdateChangeRequest, map[string]any{"s": s.id, "cr": cr3.ID, "in": map[string]any{"status": "OPEN"}}).ok(&gqlUpdated)
		if gqlUpdated.UpdateChangeRequest.Status != "OPEN" || gqlUpdated.UpdateChangeRequest.Subject != "Dropped" {
			t.Fatalf("GraphQL reopened = %+v", gqlUpdated.UpdateChangeRequest)
		}
		s.wantCounters(3, 2, 1)

		// "merged" is not a status one sets; nothing changes.
		msg = e.call(s.admin.Token, "PATCH", "/spaces/"+s.id+"/change-requests/"+cr1.ID, map[string]any{"status": "merged"}).wantError(http.StatusBadRequest)
		if !strings.Contains(msg, "status") {
			t.Fatalf("merged status message %q", msg)
		}
		s.wantCode(s.admin.Token, ctUpdateChangeRequest, map[string]any{"s": s.id, "cr": cr1.ID, "in": map[string]any{"status": "MERGED"}}, "INVALID", "status")
		e.call(s.admin.Token, "PATCH", "/spaces/"+s.id+"/change-requests/"+cr1.ID, map[string]any{"subject": strings.Repeat("s", 101)}).wantError(http.StatusBadRequest)
		if got := s.changeRequest(cr1.ID); got.Status != "open" || got.Subject != "First" {
			t.Fatalf("after refused updates = %+v", got)
		}
		e.call(s.admin.Token, "PATCH", "/spaces/"+s.id+"/change-requests/"+cr1.ID, map[string]any{"subject": "Renamed"}).want(http.StatusOK)
		if got := s.changeRequest("1"); got.Status != "open" || got.Subject != "Renamed" {
			t.Fatalf("after renaming = %+v", got)
		}
		s.wantCounters(3, 2, 1)

		// An archived change request takes no edits and does not merge.
		e.call(s.admin.Token, "PATCH", "/spaces/"+s.id+"/change-requests/"+cr3.ID, map[string]any{"status": "archived"}).want(http.StatusOK)
		s.wantCode(s.admin.Token, ctCreatePage, map[string]any{"t": target(s.id, cr3.ID), "in": map[string]any{"title": "Late"}}, "CONFLICT", "")
		e.call(s.admin.Token, "POST", "/spaces/"+s.id+"/change-requests/"+cr3.ID+"/merge", nil).wantError(http.StatusConflict)
		s.wantCounters(3, 1, 1)
		if cur := s.current(); cur != rev {
			t.Fatalf("the space's revision moved from %s to %s", rev, cur)
		}

		// Merging counts as merged: the total stays, open goes down.
		s.merge(cr1.ID)
		s.wantCounters(3, 0, 1)
		ctWantIDs(t, "merged list", s.changeRequestIDs("?status=merged"), cr1.ID)
		ctWantIDs(t, "open list", s.changeRequestIDs(""))
	})
}

func TestChangeRequestEditsMergeIntoTheSpace(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		to := target(s.id, "")
		home := s.create(to, map[string]any{"title": "Home", "markdown": "v1"}).Page.ID
		guide := s.create(to, map[string]any{"title": "Guide", "markdown": "g1"}).Page.ID
		old := s.create(to, map[string]any{"title": "Old", "markdown": "old"}).Page.ID
		base := s.current()
		spaceTree := ctOutline(s.pages(s.base("")))

		cr := e.openChangeRequest(s.admin.Token, s.id, "Rework")
		inCR := target(s.id, cr)
		ed := s.update(inCR, home, map[string]any{"title": "Welcome", "markdown": "v2"})
		if !slices.Equal(ed.Revision.Parents, []string{base}) {
			t.Fatalf("first change request edit parents = %v, want [%s]", ed.Revision.Parents, base)
		}
		added := s.create(inCR, map[string]any{"title": "New Page", "parent": guide, "markdown": "new"})
		if !slices.Equal(added.Revision.Parents, []string{ed.Revision.ID}) || added.Page.Path != "guide/new-page" {
			t.Fatalf("second change request edit = %+v, want parents [%s]", added, ed.Revision.ID)
		}
		del := s.remove(inCR, old)
		head := del.Revision.ID

		// The space is untouched until the merge.
		if cur := s.current(); cur != base {
			t.Fatalf("the space's revision moved to %s before the merge", cur)
		}
		ctWantOutline(t, "space before the merge", ctOutline(s.pages(s.base(""))), spaceTree)
		if p := s.page(s.base(""), home, "markdown"); p.Title != "Home" || *p.Markdown != "v1" {
			t.Fatalf("space page before the merge = %+v", p)
		}
		e.call(s.admin.Token, "GET", s.base("")+"/page/"+added.Page.ID, nil).wantError(http.StatusNotFound)

		// The change request shows its edits, by id and by number.
		crWant := []string{"document home", "document guide", "  document guide/new-page"}
		crRev := s.revision(s.base(cr))
		if crRev.ID != head || !slices.Equal(crRev.Parents, []string{added.Revision.ID}) {
			t.Fatalf("change request content = %s %v, want %s [%s]", crRev.ID, crRev.Parents, head, added.Revision.ID)
		}
		ctWantOutline(t, "change request content", ctOutline(crRev.Pages), crWant)
		ctWantOutline(t, "change request pages", ctOutline(s.pages(s.base("1"))), crWant)
		if p := s.page(s.base(cr), home, "markdown"); p.Title != "Welcome" || *p.Markdown != "v2" {
			t.Fatalf("change request page = %+v", p)
		}
		if md := s.markdown(s.base("1"), added.Page.ID); md != "new" {
			t.Fatalf("change request new page markdown = %q", md)
		}
		ctWantBlock(t, s.page(s.base(cr), home, "").Document, "paragraph", "v2")
		e.call(s.admin.Token, "GET", s.base(cr)+"/page/"+old, nil).wantError(http.StatusNotFound)
		var gq struct {
			Space struct {
				ChangeRequest struct {
					Revision string
					Content  struct {
						ID   string
						Page struct{ Title, Markdown string }
					}
				}
			}
		}
		e.gql(s.admin.Token, `query($s: ID!, $cr: ID!, $p: ID!) { space(id: $s) { changeRequest(id: $cr) { revision content { id page(id: $p, format: MARKDOWN) { title markdown } } } } }`,
			map[string]any{"s": s.id, "cr": cr, "p": home}).ok(&gq)
		if c := gq.Space.ChangeRequest; c.Revision != head || c.Content.ID != head || c.Content.Page.Title != "Welcome" || c.Content.Page.Markdown != "v2" {
			t.Fatalf("GraphQL change request = %+v", c)
		}
		if got := s.changeRequest(cr); got.Revision != head || got.RevisionInitial != base || got.Outdated || got.Status != "open" {
			t.Fatalf("change request before the merge = %+v", got)
		}
		s.wantCounters(1, 1, 0)

		// Merge: a new space revision with both parents, holding the edits.
		m := s.merge(cr)
		if m.Result != "merge" || m.Revision == base || m.Revision == head {
			t.Fatalf("merge = %+v", m)
		}
		if cur := s.current(); cur != m.Revision {
			t.Fatalf("space revision = %s, want the merge's %s", cur, m.Revision)
		}
		merged := s.revision(s.base(""))
		if merged.ID != m.Revision || merged.Type != "merge" || !slices.Equal(merged.Parents, []string{base, head}) ||
			merged.MergedFrom == nil || merged.MergedFrom.ID != cr {
			t.Fatalf("merged content = %s %s %v mergedFrom %+v", merged.ID, merged.Type, merged.Parents, merged.MergedFrom)
		}
		ctWantOutline(t, "space after the merge", ctOutline(merged.Pages), crWant)
		ctWantOutline(t, "GraphQL space after the merge", s.graphOutline(), crWant)
		if p := s.page(s.base(""), home, "markdown"); p.Title != "Welcome" || *p.Markdown != "v2" {
			t.Fatalf("space page after the merge = %+v", p)
		}
		if md := s.markdown(s.base(""), added.Page.ID); md != "new" {
			t.Fatalf("merged new page markdown = %q", md)
		}
		got := s.changeRequest(cr)
		if got.Status != "merged" || got.RevisionMerged == nil || *got.RevisionMerged != m.Revision ||
			got.RevisionMergedAncestor == nil || *got.RevisionMergedAncestor != base || got.Outdated {
			t.Fatalf("change request after the merge = %+v", got)
		}
		s.wantCounters(1, 0, 0)

		// A merged change request is final.
		e.call(s.admin.Token, "POST", "/spaces/"+s.id+"/change-requests/"+cr+"/merge", nil).wantError(http.StatusConflict)
		e.call(s.admin.Token, "POST", "/spaces/"+s.id+"/change-requests/"+cr+"/update", nil).wantError(http.StatusConflict)
		e.call(s.admin.Token, "PATCH", "/spaces/"+s.id+"/change-requests/"+cr, map[string]any{"status": "open"}).wantError(http.StatusConflict)
		s.wantCode(s.admin.Token, ctUpdatePage, map[string]any{"t": inCR, "p": home, "in": map[string]any{"markdown": "v3"}}, "CONFLICT", "")
		s.wantCode(s.admin.Token, `mutation($s: ID!, $cr: ID!) { mergeChangeRequest(spaceId: $s, changeRequestId: $cr) { revision result } }`,
			map[string]any{"s": s.id, "cr": cr}, "CONFLICT", "")
		if cur := s.current(); cur != m.Revision {
			t.Fatalf("refused merges moved the space to %s", cur)
		}
		if got := s.changeRequest(cr); got.Status != "merged" {
			t.Fatalf("status after refused reopening = %q", got.Status)
		}

		// Merging through GraphQL.
		cr2 := e.openChangeRequest(s.admin.Token, s.id, "GraphQL merge")
		s.update(target(s.id, cr2), guide, map[string]any{"markdown": "g2"})
		var gm struct{ MergeChangeRequest ctMergeResult }
		e.gql(s.admin.Token, `mutation($s: ID!, $cr: ID!) { mergeChangeRequest(spaceId: $s, changeRequestId: $cr) { revision result } }`,
			map[string]any{"s": s.id, "cr": cr2}).ok(&gm)
		if !strings.EqualFold(gm.MergeChangeRequest.Result, "merge") || gm.MergeChangeRequest.Revision != s.current() {
			t.Fatalf("GraphQL merge = %+v (space at %s)", gm.MergeChangeRequest, s.current())
		}
		if md := s.markdown(s.base(""), guide); md != "g2" {
			t.Fatalf("markdown after the GraphQL merge = %q", md)
		}
		s.wantCounters(2, 0, 0)
	})
}

func TestChangeRequestOutdatedAndUpdate(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		to := target(s.id, "")
		home := s.create(to, map[string]any{"title": "Home", "markdown": "v1"}).Page.ID
		guide := s.create(to, map[string]any{"title": "Guide", "markdown": "g1"}).Page.ID
		cr := e.openChangeRequest(s.admin.Token, s.id, "Home only")
		s.update(target(s.id, cr), home, map[string]any{"markdown": "v2"})
		crHead := s.changeRequest(cr).Revision
		if s.changeRequest(cr).Outdated {
			t.Fatal("a fresh change request is outdated")
		}

		// Main moves on: the change request is outdated, and does not see main's new pages yet.
		changelog := s.create(to, map[string]any{"title": "Changelog", "markdown": "c1"}).Page.ID
		s.update(to, guide, map[string]any{"markdown": "g2"})
		spaceHead := s.current()
		if !s.changeRequest(cr).Outdated {
			t.Fatal("change request not outdated after the space moved on")
		}
		var gq struct {
			Space struct{ ChangeRequest struct{ Outdated bool } }
		}
		e.gql(s.admin.Token, `query($s: ID!, $cr: ID!) { space(id: $s) { changeRequest(id: $cr) { outdated } } }`, map[string]any{"s": s.id, "cr": cr}).ok(&gq)
		if !gq.Space.ChangeRequest.Outdated {
			t.Fatal("GraphQL: change request not outdated after the space moved on")
		}
		e.call(s.admin.Token, "GET", s.base(cr)+"/page/"+changelog, nil).wantError(http.StatusNotFound)
		if md := s.markdown(s.base(cr), guide); md != "g1" {
			t.Fatalf("change request guide before the update = %q", md)
		}

		// Update brings main's content in; the change request keeps its own edit.
		u := s.updateFromSpace(cr)
		if u.Result != "update" || u.Revision == crHead {
			t.Fatalf("update = %+v (head was %s)", u, crHead)
		}
		got := s.changeRequest(cr)
		if got.Revision != u.Revision || got.Outdated || got.Status != "open" {
			t.Fatalf("change request after the update = %+v", got)
		}
		rev := s.revision(s.base(cr))
		if rev.ID != u.Revision || rev.Type != "update" || !slices.Equal(rev.Parents, []string{crHead, spaceHead}) {
			t.Fatalf("update revision = %s %s %v, want %s update [%s %s]", rev.ID, rev.Type, rev.Parents, u.Revision, crHead, spaceHead)
		}
		ctWantOutline(t, "change request after the update", ctOutline(rev.Pages), []string{"document home", "document guide", "document changelog"})
		for page, want := range map[string]string{home: "v2", guide: "g2", changelog: "c1"} {
			if md := s.markdown(s.base(cr), page); md != want {
				t.Fatalf("change request page %s after the update = %q, want %q", page, md, want)
			}
		}
		if md := s.markdown(s.base(""), home); md != "v1" {
			t.Fatalf("the update changed the space: home = %q", md)
		}
		// Nothing new: the update changes nothing.
		if again := s.updateFromSpace(cr); again.Result != "update" || again.Revision != u.Revision {
			t.Fatalf("second update = %+v, want the same revision %s", again, u.Revision)
		}
		// Through GraphQL, after main moves again.
		s.create(to, map[string]any{"title": "FAQ"})
		var gu struct{ UpdateChangeRequestFromSpace ctMergeResult }
		e.gql(s.admin.Token, `mutation($s: ID!, $cr: ID!) { updateChangeRequestFromSpace(spaceId: $s, changeRequestId: $cr) { revision result } }`,
			map[string]any{"s": s.id, "cr": cr}).ok(&gu)
		if !strings.EqualFold(gu.UpdateChangeRequestFromSpace.Result, "update") || gu.UpdateChangeRequestFromSpace.Revision != s.changeRequest(cr).Revision {
			t.Fatalf("GraphQL update = %+v", gu.UpdateChangeRequestFromSpace)
		}
		ctWantOutline(t, "change request after the GraphQL update", ctOutline(s.pages(s.base(cr))), []string{"document home", "document guide", "document changelog", "document faq"})

		// Merge: the space gets the change request's edit and keeps its own pages.
		m := s.merge(cr)
		if m.Result != "merge" {
			t.Fatalf("merge = %+v", m)
		}
		ctWantOutline(t, "space after the merge", ctOutline(s.pages(s.base(""))), []string{"document home", "document guide", "document changelog", "document faq"})
		for page, want := range map[string]string{home: "v2", guide: "g2", changelog: "c1"} {
			if md := s.markdown(s.base(""), page); md != want {
				t.Fatalf("space page %s after the merge = %q, want %q", page, md, want)
			}
		}
	})
}

func TestChangeRequestConflicts(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		to := target(s.id, "")
		home := s.create(to, map[string]any{"title": "Home", "markdown": "v1"}).Page.ID
		guide := s.create(to, map[string]any{"title": "Guide", "markdown": "g1"}).Page.ID
		clash := e.openChangeRequest(s.admin.Token, s.id, "Clash")
		clean := e.openChangeRequest(s.admin.Token, s.id, "Clean")
		s.update(target(s.id, clash), home, map[string]any{"markdown": "from the change request"})
		s.update(target(s.id, clean), guide, map[string]any{"markdown": "g2"})
		clashHead := s.changeRequest(clash).Revision
		s.update(to, home, map[string]any{"markdown": "from the space"})
		spaceHead := s.current()

		// The same page changed on both sides: 409 naming it, nothing written.
		msg := e.call(s.admin.Token, "POST", "/spaces/"+s.id+"/change-requests/"+clash+"/merge", nil).wantError(http.StatusConflict)
		if !strings.Contains(msg, "Home") {
			t.Fatalf("conflict message %q does not name the page", msg)
		}
		s.wantCode(s.admin.Token, `mutation($s: ID!, $cr: ID!) { mergeChangeRequest(spaceId: $s, changeRequestId: $cr) { revision result } }`,
			map[string]any{"s": s.id, "cr": clash}, "CONFLICT", "")
		if cur := s.current(); cur != spaceHead {
			t.Fatalf("a conflicting merge moved the space to %s", cur)
		}
		if md := s.markdown(s.base(""), home); md != "from the space" {
			t.Fatalf("space home after a conflicting merge = %q", md)
		}
		if got := s.changeRequest(clash); got.Status != "open" || got.Revision != clashHead || !got.Outdated {
			t.Fatalf("change request after a conflicting merge = %+v", got)
		}
		// Update answers "conflicts" and writes nothing either.
		if u := s.updateFromSpace(clash); u.Result != "conflicts" || u.Revision != clashHead {
			t.Fatalf("conflicting update = %+v, want conflicts at %s", u, clashHead)
		}
		if got := s.changeRequest(clash); got.Revision != clashHead || !got.Outdated {
			t.Fatalf("change request after a conflicting update = %+v", got)
		}
		if md := s.markdown(s.base(clash), home); md != "from the change request" {
			t.Fatalf("change request home after a conflicting update = %q", md)
		}

		// Another page: merges cleanly although the space moved on.
		if m := s.merge(clean); m.Result != "merge" || m.Revision == spaceHead {
			t.Fatalf("clean merge = %+v", m)
		}
		for page, want := range map[string]string{home: "from the space", guide: "g2"} {
			if md := s.markdown(s.base(""), page); md != want {
				t.Fatalf("space page %s after the clean merge = %q, want %q", page, md, want)
			}
		}
	})
}

// ctFileList is a page of a content's files through REST.
type ctFileList struct {
	Items []ctFile `json:"items"`
	Count int      `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

func (s *ctSpace) files(prefix, query string) ctFileList {
	s.e.t.Helper()
	var l ctFileList
	s.e.call(s.admin.Token, "GET", prefix+"/files"+query, nil).want(http.StatusOK).decode(&l)
	return l
}

func ctFileNames(files []ctFile) []string {
	out := []string{}
	for _, f := range files {
		out = append(out, f.Name)
	}
	return out
}

const ctDeleteFile = `mutation($t: ContentTarget!, $f: ID!) { deleteFile(target: $t, fileId: $f) { revision { id } file { id } } }`

func TestRevisionsAreImmutable(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		to := target(s.id, "")
		initial := s.current()
		home := s.create(to, map[string]any{"title": "Home", "markdown": "# Home\n\nFirst words."}).Page.ID
		notes := e.uploadFile(s.admin.Token, to, "notes.txt", []byte("first notes"))
		r2 := s.current()
		s.update(to, home, map[string]any{"title": "Start", "markdown": "# Start\n\nSecond words."})
		r3 := s.current()
		later := s.create(to, map[string]any{"title": "Later", "markdown": "later"}).Page.ID
		more := e.uploadFile(s.admin.Token, to, "more.txt", []byte("more notes"))
		var deleted struct {
			DeleteFile struct{ File *struct{ ID string } }
		}
		e.gql(s.admin.Token, ctDeleteFile, map[string]any{"t": to, "f": notes}).ok(&deleted)
		if deleted.DeleteFile.File != nil {
			t.Fatalf("deleteFile answered file %+v", deleted.DeleteFile.File)
		}
		s.remove(to, home)
		group := s.create(to, map[string]any{"type": "GROUP", "title": "Group"}).Page.ID

		// The current content moved on.
		e.call(s.admin.Token, "GET", s.base("")+"/page/"+home, nil).wantError(http.StatusNotFound)
		if names := ctFileNames(s.files(s.base(""), "").Items); !slices.Equal(names, []string{"more.txt"}) {
			t.Fatalf("current files = %q", names)
		}

		// An old revision still shows what it held, through every read.
		old := s.revision(s.revisionBase(r2))
		if old.ID != r2 || len(old.Parents) != 1 {
			t.Fatalf("revision %s = %s %v", r2, old.ID, old.Parents)
		}
		ctWantOutline(t, "old revision", ctOutline(old.Pages), []string{"document home"})
		if p := ctFindPage(old.Pages, home); p.Title != "Home" || p.Markdown == nil || *p.Markdown != "# Home\n\nFirst words." {
			t.Fatalf("old revision page = %+v", p)
		}
		if names := ctFileNames(old.Files); !slices.Equal(names, []string{"notes.txt"}) {
			t.Fatalf("old revision files = %q", names)
		}
		ctWantOutline(t, "old revision pages", ctOutline(s.pages(s.revisionBase(r2))), []string{"document home"})
		if l := s.files(s.revisionBase(r2), ""); l.Count != 1 || l.Items[0].ID != notes {
			t.Fatalf("old revision file list = %+v", l)
		}
		var f ctFile
		e.call(s.admin.Token, "GET", s.revisionBase(r2)+"/files/"+notes, nil).want(http.StatusOK).decode(&f)
		if f.Name != "notes.txt" || f.Size != len("first notes") {
			t.Fatalf("old revision file = %+v", f)
		}
		if rec := e.ctDownload(s.admin.Token, f.DownloadURL); rec.Code != http.StatusOK || rec.Body.String() != "first notes" {
			t.Fatalf("download of a deleted file's old version = %d %q", rec.Code, rec.Body)
		}
		e.call(s.admin.Token, "GET", s.revisionBase(r2)+"/files/"+more, nil).wantError(http.StatusNotFound)
		if p := s.page(s.revisionBase(r2), home, "markdown"); p.Title != "Home" || *p.Markdown != "# Home\n\nFirst words." {
			t.Fatalf("old revision page = %+v", p)
		}
		ctWantBlock(t, s.page(s.revisionBase(r2), home, "").Document, "heading-1", "Home")
		e.call(s.admin.Token, "GET", s.revisionBase(r2)+"/page/"+later, nil).wantError(http.StatusNotFound)
		doc := e.call(s.admin.Token, "GET", s.revisionBase(r2)+"/page/"+home+"/document", nil).want(http.StatusOK).Body
		ctWantBlock(t, doc, "paragraph", "First words.")
		ctWantBlock(t, e.call(s.admin.Token, "GET", s.revisionBase(r3)+"/page/"+home+"/document", nil).want(http.StatusOK).Body, "paragraph", "Second words.")
		if p := s.page(s.revisionBase(r3), home, "markdown"); p.Title != "Start" || *p.Markdown != "# Start\n\nSecond words." {
			t.Fatalf("revision r3 page = %+v", p)
		}
		e.call(s.admin.Token, "GET", s.revisionBase(s.current())+"/page/"+group+"/document", nil).wantError(http.StatusNotFound)
		e.call(s.admin.Token, "GET", s.revisionBase(s.current())+"/page/"+home+"/document", nil).wantError(http.StatusNotFound)
		if first := s.revision(s.revisionBase(initial)); len(first.Pages) != 0 || len(first.Files) != 0 {
			t.Fatalf("first revision = %+v", first)
		}

		// Through GraphQL too.
		var gq struct {
			Space struct {
				RevisionByID *struct {
					ID    string
					Pages []struct{ ID, Title, Markdown string }
					Files struct {
						TotalCount int
						Nodes      []struct{ Name string }
					}
				}
				Revisions struct {
					TotalCount int
					Nodes      []struct{ ID string }
				}
			}
		}
		e.gql(s.admin.Token, `query($s: ID!, $r: ID!) { space(id: $s) {
			revisionById(id: $r) { id pages { id title markdown } files { totalCount nodes { name } } }
			revisions(first: 50) { totalCount nodes { id } } } }`, map[string]any{"s": s.id, "r": r2}).ok(&gq)
		if r := gq.Space.RevisionByID; r == nil || r.ID != r2 || len(r.Pages) != 1 || r.Pages[0].Markdown != "# Home\n\nFirst words." ||
			r.Files.TotalCount != 1 || r.Files.Nodes[0].Name != "notes.txt" {
			t.Fatalf("GraphQL old revision = %+v", gq.Space.RevisionByID)
		}
		revs := gq.Space.Revisions
		if revs.TotalCount != 9 || len(revs.Nodes) != 9 || revs.Nodes[0].ID != s.current() || revs.Nodes[8].ID != initial {
			t.Fatalf("GraphQL revisions = %+v, want 9, newest (%s) first, the first (%s) last", revs, s.current(), initial)
		}

		// A change request's revisions are readable as revisions; the space's content does not show them.
		cr := e.openChangeRequest(s.admin.Token, s.id, "Draft")
		crEdit := s.create(target(s.id, cr), map[string]any{"title": "Draft page", "markdown": "draft", "before": group})
		ctWantOutline(t, "change request revision", ctOutline(s.pages(s.revisionBase(crEdit.Revision.ID))), []string{"document later", "document draft-page", "group group"})
		if md := s.markdown(s.revisionBase(crEdit.Revision.ID), crEdit.Page.ID); md != "draft" {
			t.Fatalf("change request revision page = %q", md)
		}
		e.call(s.admin.Token, "GET", s.base("")+"/page/"+crEdit.Page.ID, nil).wantError(http.StatusNotFound)

		// A revision of another space is not found here, in any read.
		otherSpace := e.call(s.admin.Token, "POST", "/orgs/"+s.org+"/spaces", map[string]any{"title": "Other"}).want(http.StatusCreated).object()
		otherRev := otherSpace["revision"].(string)
		e.call(s.admin.Token, "GET", "/spaces/"+otherSpace["id"].(string)+"/revisions/"+otherRev, nil).want(http.StatusOK)
		for _, suffix := range []string{"", "/pages", "/files", "/files/" + notes, "/page/" + later, "/page/" + later + "/document"} {
			e.call(s.admin.Token, "GET", s.revisionBase(otherRev)+suffix, nil).wantError(http.StatusNotFound)
			e.call(s.admin.Token, "GET", s.revisionBase("aaaaaaaaaaaaaaaaaaaa")+suffix, nil).wantError(http.StatusNotFound)
		}
		var none struct {
			Space struct{ RevisionByID *struct{ ID string } }
		}
		e.gql(s.admin.Token, `query($s: ID!, $r: ID!) { space(id: $s) { revisionById(id: $r) { id } } }`, map[string]any{"s": s.id, "r": otherRev}).ok(&none)
		if none.Space.RevisionByID != nil {
			t.Fatalf("GraphQL revisionById of another space = %+v", none.Space.RevisionByID)
		}
		// An outsider reads no revision.
		_, outsider := e.org("Other", "admin@other.test")
		e.call(outsider.Token, "GET", s.revisionBase(r2), nil).wantError(http.StatusNotFound)
	})
}

func TestFileUploadAndDownload(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		to := target(s.id, "")
		img := ctPNG(t, 3, 2)
		var up struct {
			UploadFile struct {
				Revision struct{ ID string }
				File     ctFile
			}
		}
		e.upload(s.admin.Token, to, "diagram.png", img).ok(&up)
		png := up.UploadFile.File
		if png.Name != "diagram.png" || png.ContentType != "image/png" || png.Size != len(img) ||
			png.Dimensions == nil || png.Dimensions.Width != 3 || png.Dimensions.Height != 2 ||
			!strings.HasPrefix(png.DownloadURL, "https://bindery.test/files/") || !strings.HasSuffix(png.DownloadURL, "/diagram.png") {
			t.Fatalf("uploaded file = %+v", png)
		}
		if up.UploadFile.Revision.ID != s.current() {
			t.Fatalf("upload revision %s, space at %s", up.UploadFile.Revision.ID, s.current())
		}
		text := []byte("plain notes\n")
		var up2 struct{ UploadFile struct{ File ctFile } }
		e.upload(s.admin.Token, to, "notes.txt", text).ok(&up2)
		notes := up2.UploadFile.File
		if !strings.HasPrefix(notes.ContentType, "text/plain") || notes.Dimensions != nil || notes.Size != len(text) {
			t.Fatalf("text file = %+v", notes)
		}

		// Listed and read back through REST, in pages.
		all := s.files(s.base(""), "")
		if all.Count != 2 || all.Next != nil || !slices.Equal(ctFileNames(all.Items), []string{"diagram.png", "notes.txt"}) {
			t.Fatalf("files = %+v", all)
		}
		if diff := cmp.Diff(png, all.Items[0]); diff != "" {
			t.Fatalf("listed file differs from the upload's answer (-upload +list):\n%s", diff)
		}
		page1 := s.files(s.base(""), "?limit=1")
		if len(page1.Items) != 1 || page1.Items[0].ID != png.ID || page1.Next == nil || page1.Count != 2 {
			t.Fatalf("first page of files = %+v", page1)
		}
		page2 := s.files(s.base(""), "?limit=1&page="+page1.Next.Page)
		if len(page2.Items) != 1 || page2.Items[0].ID != notes.ID || page2.Next != nil {
			t.Fatalf("second page of files = %+v", page2)
		}
		var one ctFile
		e.call(s.admin.Token, "GET", s.base("")+"/files/"+png.ID, nil).want(http.StatusOK).decode(&one)
		if diff := cmp.Diff(png, one); diff != "" {
			t.Fatalf("GET file differs from the upload's answer (-upload +get):\n%s", diff)
		}
		e.call(s.admin.Token, "GET", s.base("")+"/files/aaaaaaaaaaaaaaaaaaaa", nil).wantError(http.StatusNotFound)
		// And through GraphQL.
		var gq struct {
			Space struct {
				Content struct {
					Files struct {
						TotalCount int
						Nodes      []ctFile
					}
					File *ctFile
				}
			}
		}
		e.gql(s.admin.Token, `query($s: ID!, $f: ID!) { space(id: $s) { content {
			files(first: 10) { totalCount nodes { id name contentType downloadURL size dimensions { width height } } }
			file(id: $f) { id name contentType downloadURL size dimensions { width height } } } } }`,
			map[string]any{"s": s.id, "f": png.ID}).ok(&gq)
		if c := gq.Space.Content; c.Files.TotalCount != 2 || c.File == nil || !cmp.Equal(*c.File, png) || !cmp.Equal(c.Files.Nodes[0], png) {
			t.Fatalf("GraphQL files = %+v", c)
		}

		// downloadURL serves the bytes to readers, 401 without a token, 404 to outsiders.
		rec := e.ctDownload(s.admin.Token, png.DownloadURL)
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), img) || rec.Header().Get("Content-Type") != "image/png" {
			t.Fatalf("download = %d %q, %d bytes", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Len())
		}
		reader := e.member(s.org, "reader@acme.test", "read")
		if rec := e.ctDownload(reader.Token, notes.DownloadURL); rec.Code != http.StatusOK || rec.Body.String() != string(text) {
			t.Fatalf("reader download = %d %q", rec.Code, rec.Body)
		}
		if rec := e.ctDownload("", png.DownloadURL); rec.Code != http.StatusUnauthorized {
			t.Fatalf("download without a token = %d, want 401", rec.Code)
		}
		_, outsider := e.org("Other", "admin@other.test")
		if rec := e.ctDownload(outsider.Token, png.DownloadURL); rec.Code != http.StatusNotFound || bytes.Contains(rec.Body.Bytes(), img) {
			t.Fatalf("outsider download = %d", rec.Code)
		}
		e.call(outsider.Token, "GET", s.base("")+"/files/"+png.ID, nil).wantError(http.StatusNotFound)
		if rec := e.ctDownload(s.admin.Token, "https://bindery.test/files/aaaaaaaaaaaaaaaaaaaa/diagram.png"); rec.Code != http.StatusNotFound {
			t.Fatalf("download of an unknown version = %d", rec.Code)
		}

		// Markdown refers to files by name: the document's image points at the file.
		page := s.create(to, map[string]any{"title": "Architecture", "markdown": "# Architecture\n\n![The diagram](diagram.png)\n\n![Elsewhere](https://example.com/x.png)\n"}).Page.ID
		// (Read through GraphQL here: REST's answer is checked against the contract in
		// TestContentImageDocumentsMatchTheContract.)
		var gd struct {
			Space struct {
				Content struct {
					Page struct{ Document json.RawMessage }
				}
			}
		}
		e.gql(s.admin.Token, `query($s: ID!, $p: ID!) { space(id: $s) { content { page(id: $p, format: DOCUMENT) { document } } } }`,
			map[string]any{"s": s.id, "p": page}).ok(&gd)
		ctWantImages(t, gd.Space.Content.Page.Document, png.ID)

		// A file uploaded into a change request is the change request's until merged.
		cr := e.openChangeRequest(s.admin.Token, s.id, "More files")
		var crUp struct{ UploadFile struct{ File ctFile } }
		e.upload(s.admin.Token, target(s.id, cr), "extra.png", ctPNG(t, 1, 1)).ok(&crUp)
		extra := crUp.UploadFile.File
		if names := ctFileNames(s.files(s.base(cr), "").Items); !slices.Equal(names, []string{"diagram.png", "notes.txt", "extra.png"}) {
			t.Fatalf("change request files = %q", names)
		}
		e.call(s.admin.Token, "GET", s.base("")+"/files/"+extra.ID, nil).wantError(http.StatusNotFound)
		if rec := e.ctDownload(s.admin.Token, extra.DownloadURL); rec.Code != http.StatusOK {
			t.Fatalf("download of a change request's file = %d", rec.Code)
		}
		s.merge(cr)
		if l := s.files(s.base(""), ""); l.Count != 3 {
			t.Fatalf("files after the merge = %+v", l)
		}
		var merged ctFile
		e.call(s.admin.Token, "GET", s.base("")+"/files/"+extra.ID, nil).want(http.StatusOK).decode(&merged)
		if merged.Name != "extra.png" || merged.Dimensions == nil || merged.Dimensions.Width != 1 {
			t.Fatalf("merged file = %+v", merged)
		}
		if rec := e.ctDownload(s.admin.Token, merged.DownloadURL); rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), ctPNG(t, 1, 1)) {
			t.Fatalf("download of the merged file = %d", rec.Code)
		}
	})
}

// ctWantImages fails unless the document holds two image blocks: the first pointing at the file
// fileID (alt "The diagram"), the second at https://example.com/x.png.
func ctWantImages(t *testing.T, doc json.RawMessage, fileID string) {
	t.Helper()
	var images []ctDocNode
	for _, n := range ctBlocks(t, doc) {
		if n.Type == "image" {
			images = append(images, n)
		}
	}
	if len(images) != 2 {
		t.Fatalf("image blocks = %+v in %s", images, doc)
	}
	if diff := cmp.Diff(map[string]any{"kind": "file", "file": fileID}, images[0].Data["ref"]); diff != "" {
		t.Fatalf("image ref (-want +got):\n%s", diff)
	}
	if images[0].Data["alt"] != "The diagram" {
		t.Fatalf("image alt = %v", images[0].Data["alt"])
	}
	if diff := cmp.Diff(map[string]any{"kind": "url", "url": "https://example.com/x.png"}, images[1].Data["ref"]); diff != "" {
		t.Fatalf("external image ref (-want +got):\n%s", diff)
	}
}

// The contract's "images" block requires "isVoid": false; every REST read of a page with an
// image must validate (e.call checks each answer against the contract).
func TestContentImageDocumentsMatchTheContract(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		to := target(s.id, "")
		file := e.uploadFile(s.admin.Token, to, "diagram.png", ctPNG(t, 3, 2))
		page := s.create(to, map[string]any{"title": "Architecture", "markdown": "# Architecture\n\n![The diagram](diagram.png)\n\n![Elsewhere](https://example.com/x.png)\n"}).Page.ID
		rev := s.current()
		ctWantImages(t, s.page(s.base(""), page, "").Document, file)
		ctWantImages(t, s.page(s.revisionBase(rev), page, "document").Document, file)
		ctWantImages(t, e.call(s.admin.Token, "GET", s.revisionBase(rev)+"/page/"+page+"/document", nil).want(http.StatusOK).Body, file)
		var raw struct {
			Document struct {
				Nodes []map[string]any `json:"nodes"`
			} `json:"document"`
		}
		e.call(s.admin.Token, "GET", s.base("")+"/page/"+page, nil).want(http.StatusOK).decode(&raw)
		for _, n := range raw.Document.Nodes {
			if n["type"] == "images" && n["isVoid"] != false {
				t.Errorf("images block without \"isVoid\": false: %v", n)
			}
		}
	})
}

// ctMaskDocumentIDs replaces documentId values (hashes of the organization and the markdown, so
// different on every run) before a golden comparison.
func ctMaskDocumentIDs(t *testing.T, body []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				if k == "documentId" {
					v[k] = "masked-document-id"
				} else {
					walk(c)
				}
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	walk(v)
	out, _ := json.Marshal(v)
	return out
}

func TestContentGoldenFiles(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		to := target(s.id, "")
		gs := s.create(to, map[string]any{"title": "Getting Started", "emoji": "1f680", "description": "First steps",
			"markdown": "# Welcome\n\nHello **world**.\n\n![Diagram](diagram.png)\n"}).Page.ID
		s.create(to, map[string]any{"title": "Install", "parent": gs, "markdown": "Run `bindery`."})
		reference := s.create(to, map[string]any{"type": "GROUP", "title": "Reference"}).Page.ID
		s.create(to, map[string]any{"type": "LINK", "title": "Source", "parent": reference, "target": map[string]any{"kind": "url", "url": "https://example.com/src"}})
		e.uploadFile(s.admin.Token, to, "diagram.png", ctPNG(t, 3, 2))

		golden(t, "content_revision", ctMaskDocumentIDs(t, e.call(s.admin.Token, "GET", s.base(""), nil).want(http.StatusOK).Body))
		golden(t, "content_page_markdown", ctMaskDocumentIDs(t, e.call(s.admin.Token, "GET", s.base("")+"/page/"+gs+"?format=markdown", nil).want(http.StatusOK).Body))

		cr := e.openChangeRequest(s.admin.Token, s.id, "Polish the welcome")
		s.update(target(s.id, cr), gs, map[string]any{"markdown": "# Welcome\n\nHello again."})
		s.update(to, gs, map[string]any{"title": "Start here"})
		golden(t, "content_change_request", e.call(s.admin.Token, "GET", "/spaces/"+s.id+"/change-requests/"+cr, nil).want(http.StatusOK).Body)
	})
}

// Pages placed one after another before the same sibling keep their order, however many: a
// position halfway between two neighbours runs out of float precision after about 50 halvings,
// and then new pages tie with their neighbour and sort by id instead.
func TestContentManyPagesBeforeOneSiblingKeepTheirOrder(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		to := target(s.id, "")
		s.create(to, map[string]any{"title": "First"})
		last := s.create(to, map[string]any{"title": "Last"}).Page.ID
		want := []string{"document first"}
		for i := 1; i <= 60; i++ {
			title := "Step " + strconv.Itoa(i)
			s.create(to, map[string]any{"title": title, "before": last})
			want = append(want, "document step-"+strconv.Itoa(i))
		}
		want = append(want, "document last")
		ctWantOutline(t, "pages added before the last one", ctOutline(s.pages(s.base(""))), want)
	})
}

func TestChangeRequestListFiltersAndPages(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		editor := e.member(s.org, "editor@acme.test", "edit")
		page := s.create(target(s.id, ""), map[string]any{"title": "Home"}).Page.ID
		byEditor := e.openChangeRequest(editor.Token, s.id, "By the editor")
		byAdmin := e.openChangeRequest(s.admin.Token, s.id, "By the admin")
		// The admin contributes to the editor's change request.
		s.update(target(s.id, byEditor), page, map[string]any{"markdown": "edited by the admin"})

		ctWantIDs(t, "creator editor", s.changeRequestIDs("?creator="+editor.ID), byEditor)
		ctWantIDs(t, "creator admin", s.changeRequestIDs("?creator="+s.admin.ID), byAdmin)
		ctWantIDs(t, "contributor admin", s.changeRequestIDs("?contributor="+s.admin.ID), byAdmin, byEditor)
		ctWantIDs(t, "contributor editor", s.changeRequestIDs("?contributor="+editor.ID), byEditor)
		var got ctChangeRequest
		e.call(editor.Token, "GET", "/spaces/"+s.id+"/change-requests/"+byEditor, nil).want(http.StatusOK).decode(&got)
		if got.Subject != "By the editor" || got.Number != 1 {
			t.Fatalf("editor's change request = %+v", got)
		}

		// Pages of one.
		var first, second struct {
			Items []ctChangeRequest `json:"items"`
			Count int               `json:"count"`
			Next  *struct {
				Page string `json:"page"`
			} `json:"next"`
		}
		e.call(s.admin.Token, "GET", "/spaces/"+s.id+"/change-requests?limit=1", nil).want(http.StatusOK).decode(&first)
		if len(first.Items) != 1 || first.Items[0].ID != byAdmin || first.Next == nil || first.Count != 2 {
			t.Fatalf("first page = %+v", first)
		}
		e.call(s.admin.Token, "GET", "/spaces/"+s.id+"/change-requests?limit=1&page="+first.Next.Page, nil).want(http.StatusOK).decode(&second)
		if len(second.Items) != 1 || second.Items[0].ID != byEditor || second.Next != nil {
			t.Fatalf("second page = %+v", second)
		}
		e.call(s.admin.Token, "GET", "/spaces/"+s.id+"/change-requests?limit=1&page=garbage", nil).wantError(http.StatusBadRequest)

		// A change request of another space is not a target here.
		other := e.call(s.admin.Token, "POST", "/orgs/"+s.org+"/spaces", map[string]any{"title": "Other"}).want(http.StatusCreated).object()["id"].(string)
		s.wantCode(s.admin.Token, ctCreatePage, map[string]any{"t": target(other, byAdmin), "in": map[string]any{"title": "Stray"}}, "NOT_FOUND", "")
		e.call(s.admin.Token, "GET", "/spaces/"+other+"/change-requests/"+byAdmin+"/content", nil).wantError(http.StatusNotFound)
		e.call(s.admin.Token, "POST", "/spaces/"+other+"/change-requests/"+byAdmin+"/merge", nil).wantError(http.StatusNotFound)
	})
}

func TestChangeRequestMovesAndDeletesMerge(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		to := target(s.id, "")
		a := s.create(to, map[string]any{"title": "A", "markdown": "a"}).Page.ID
		a1 := s.create(to, map[string]any{"title": "A1", "parent": a}).Page.ID
		a2 := s.create(to, map[string]any{"title": "A2", "parent": a, "markdown": "a2"}).Page.ID
		b := s.create(to, map[string]any{"title": "B"}).Page.ID
		spaceWant := []string{"document a", "  document a/a1", "  document a/a2", "document b"}

		cr := e.openChangeRequest(s.admin.Token, s.id, "Restructure")
		in := target(s.id, cr)
		if m := s.move(in, a2, map[string]any{"parent": b}); m.Page.Path != "b/a2" {
			t.Fatalf("moved in the change request: %+v", m.Page)
		}
		s.remove(in, a)
		s.create(in, map[string]any{"title": "C", "parent": b, "before": a2})
		crWant := []string{"document b", "  document b/c", "  document b/a2"}

		ctWantOutline(t, "change request", ctOutline(s.pages(s.base(cr))), crWant)
		ctWantOutline(t, "space", ctOutline(s.pages(s.base(""))), spaceWant)
		if p := s.page(s.base(cr), b, "markdown"); !slices.Equal(ctOutline(p.Pages), []string{"document b/c", "document b/a2"}) {
			t.Fatalf("B's children in the change request = %q", ctOutline(p.Pages))
		}
		if p := s.page(s.base(cr), a2, "markdown"); p.Path != "b/a2" || *p.Markdown != "a2" {
			t.Fatalf("moved page in the change request = %+v", p)
		}
		for _, id := range []string{a, a1} {
			e.call(s.admin.Token, "GET", s.base(cr)+"/page/"+id, nil).wantError(http.StatusNotFound)
			e.call(s.admin.Token, "GET", s.base("")+"/page/"+id, nil).want(http.StatusOK)
		}
		if p := s.page(s.base(""), a, "markdown"); !slices.Equal(ctOutline(p.Pages), []string{"document a/a1", "document a/a2"}) {
			t.Fatalf("A's children in the space = %q", ctOutline(p.Pages))
		}

		s.merge(cr)
		s.wantOutline("space after the merge", crWant)
		for _, id := range []string{a, a1} {
			e.call(s.admin.Token, "GET", s.base("")+"/page/"+id, nil).wantError(http.StatusNotFound)
		}
		if p := s.page(s.base(""), a2, "markdown"); p.Path != "b/a2" || *p.Markdown != "a2" {
			t.Fatalf("moved page after the merge = %+v", p)
		}
	})
}

// Bringing the space's new pages into a change request keeps sibling paths unique there, as a
// merge does in the space: two pages with one path make one of them unreachable by path.
func TestChangeRequestUpdateKeepsSiblingPathsUnique(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		to := target(s.id, "")
		s.create(to, map[string]any{"title": "Start"})
		cr := e.openChangeRequest(s.admin.Token, s.id, "Intro")
		mine := s.create(target(s.id, cr), map[string]any{"title": "Intro", "markdown": "from the change request"}).Page.ID
		theirs := s.create(to, map[string]any{"title": "Intro", "markdown": "from the space"}).Page.ID
		res := e.call(s.admin.Token, "POST", "/spaces/"+s.id+"/change-requests/"+cr+"/update", nil).want(http.StatusOK)
		t.Logf("update answered %s", res.Body)
		paths := map[string]string{}
		for _, p := range s.pages(s.base(cr)) {
			if other, dup := paths[p.Path]; dup {
				t.Errorf("pages %s and %s share path %q in the change request after the update", other, p.ID, p.Path)
			}
			paths[p.Path] = p.ID
		}
		if paths["intro"] == "" || (paths["intro"] != mine && paths["intro"] != theirs) {
			t.Errorf("paths after the update = %v", paths)
		}
	})
}
