package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bindery/bindery/storage"
)

// addReusableContent writes a reusable content into a space's own content, as a Git import does
// (the file at path, text with its front matter), and returns its id.
func (e *env) addReusableContent(spaceID, path, text string) string {
	e.t.Helper()
	id := storage.NewID()
	git, _ := json.Marshal(map[string]string{"oid": "0123456789abcdef0123456789abcdef01234567", "path": path})
	gitText := string(git)
	title := strings.TrimSuffix(path[strings.LastIndexByte(path, '/')+1:], ".md")
	if _, front, ok := strings.Cut(text, "title: "); ok {
		title, _, _ = strings.Cut(front, "\n")
	}
	_, err := e.store.EditContent(context.Background(), storage.EditTarget{SpaceID: spaceID}, "", func() time.Time { return t0 },
		func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
			contentID := storage.ContentID(c.OrganizationID, text)
			return &storage.Edit{
				ReusableContents: []*storage.ReusableContentVersion{{ReusableContentID: id, Title: title, Git: &gitText, ContentID: &contentID, CreatedAt: c.Now}},
				Contents:         []*storage.PageContent{{Markdown: text}},
			}, nil
		})
	if err != nil {
		e.t.Fatalf("add reusable content: %v", err)
	}
	return id
}

// updateReusableContent changes a reusable content through GraphQL.
func (e *env) updateReusableContent(token string, to map[string]any, id string, input map[string]any) gqlResult {
	e.t.Helper()
	return e.gql(token, `mutation($t: ContentTarget!, $rc: ID!, $in: UpdateReusableContentInput!) {
		updateReusableContent(target: $t, reusableContentId: $rc, input: $in) { revision { id } reusableContent { id title markdown } } }`,
		map[string]any{"t": to, "rc": id, "in": input})
}

// The contract's reads of reusable content: listed by the revision, read by id in the space's
// content, a change request's and a revision, and as a document; readers may read, other
// organizations and unknown ids get 404, bad flags 400.
func TestReusableContentReads(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Reuse", "admin@reuse.test")
		reader := e.member(orgID, "reader@reuse.test", "read")
		_, other := e.org("Other", "admin@other.test")
		sp := e.newSpace(admin.Token, orgID, "Harbour")
		rc := e.addReusableContent(sp, ".gitbook/includes/tide.md", "---\ntitle: Tides\n---\n\nHigh tide at **noon**, see [boats](../../boats.md).\n")
		boats := e.createPage(admin.Token, target(sp, ""), map[string]any{"title": "Boats", "markdown": "# Boats\n"})
		e.createPage(admin.Token, target(sp, ""), map[string]any{"title": "Rules", "markdown": "Rules.\n\n{% include \".gitbook/includes/tide.md\" %}\n"})

		content := e.call(reader.Token, "GET", "/spaces/"+sp+"/content", nil).want(http.StatusOK).object()
		listed, _ := content["reusableContents"].([]any)
		if len(listed) != 1 {
			t.Fatalf("reusableContents = %v, want the one", content["reusableContents"])
		}
		item := listed[0].(map[string]any)
		git, _ := item["git"].(map[string]any)
		if item["id"] != rc || item["title"] != "Tides" || git["path"] != ".gitbook/includes/tide.md" || item["document"] == nil {
			t.Errorf("listed reusable content = %v", item)
		}
		revision := content["id"].(string)
		cr := e.openChangeRequest(admin.Token, sp, "Read")
		for _, path := range []string{"/content", "/change-requests/" + cr + "/content", "/revisions/" + revision} {
			got := e.call(reader.Token, "GET", "/spaces/"+sp+path+"/reusable-contents/"+rc+"?metadata=false", nil).want(http.StatusOK).object()
			if got["id"] != rc || got["title"] != "Tides" || got["document"] != item["document"] {
				t.Errorf("%s: %v, want %v", path, got, item)
			}
			e.call(reader.Token, "GET", "/spaces/"+sp+path+"/reusable-contents/unknown", nil).wantError(http.StatusNotFound)
			e.call(other.Token, "GET", "/spaces/"+sp+path+"/reusable-contents/"+rc, nil).wantError(http.StatusNotFound)
			e.call(reader.Token, "GET", "/spaces/"+sp+path+"/reusable-contents/"+rc+"?computed=maybe", nil).wantError(http.StatusBadRequest)
		}

		docPath := "/spaces/" + sp + "/revisions/" + revision + "/reusable-contents/" + rc + "/document"
		doc := e.call(reader.Token, "GET", docPath, nil).want(http.StatusOK)
		if !strings.Contains(string(doc.Body), `"noon"`) || !strings.Contains(string(doc.Body), `"object":"document"`) {
			t.Errorf("document = %s", doc.Body)
		}
		// The link inside starts from the include's file: it names the Boats page.
		if !strings.Contains(string(doc.Body), boats) && !strings.Contains(string(doc.Body), "/boats.md") {
			t.Errorf("document's link does not lead to the Boats page: %s", doc.Body)
		}
		e.call(reader.Token, "GET", docPath+"?evaluated=true", nil).want(http.StatusOK)
		e.call(reader.Token, "GET", docPath+"?evaluated=sometimes", nil).wantError(http.StatusBadRequest)
		e.call(other.Token, "GET", docPath, nil).wantError(http.StatusNotFound)
		e.call(reader.Token, "GET", "/spaces/"+sp+"/revisions/"+revision+"/reusable-contents/unknown/document", nil).wantError(http.StatusNotFound)

		// GraphQL reads the same, the markdown without its front matter.
		var data struct {
			Space struct {
				Content struct {
					ReusableContents []struct {
						ID, Title, Markdown string
						Git                 struct{ Path string }
					}
					ReusableContent struct{ Document json.RawMessage }
					Missing         *struct{ ID string }
				}
			}
		}
		e.gql(reader.Token, `query($s: ID!, $rc: ID!) { space(id: $s) { content {
			reusableContents { id title markdown git { path } }
			reusableContent(id: $rc) { document(evaluated: ALL) }
			missing: reusableContent(id: "unknown") { id } } } }`, map[string]any{"s": sp, "rc": rc}).ok(&data)
		got := data.Space.Content
		if len(got.ReusableContents) != 1 || got.ReusableContents[0].Markdown != "High tide at **noon**, see [boats](../../boats.md).\n" ||
			got.ReusableContents[0].Git.Path != ".gitbook/includes/tide.md" || !strings.Contains(string(got.ReusableContent.Document), "noon") || got.Missing != nil {
			t.Errorf("GraphQL = %+v", got)
		}
		if code := e.gql(other.Token, `query($s: ID!) { space(id: $s) { content { reusableContents { id } } } }`, map[string]any{"s": sp}).code(); code != "NOT_FOUND" {
			t.Errorf("another organization's GraphQL code = %q", code)
		}
	})
}

// A change request edits a reusable content for itself: the pages it includes show the edit in
// the change request only, merging applies it, and the same content changed differently on
// both sides is a conflict.
func TestReusableContentInChangeRequest(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Reuse", "admin@reuse.test")
		reader := e.member(orgID, "reader@reuse.test", "read")
		sp := e.newSpace(admin.Token, orgID, "Harbour")
		rc := e.addReusableContent(sp, ".gitbook/includes/tide.md", "---\ntitle: Tides\n---\n\nHigh tide at **noon**.\n")
		page := e.createPage(admin.Token, target(sp, ""), map[string]any{"title": "Rules", "markdown": "Rules.\n\n{% include \".gitbook/includes/tide.md\" %}\n"})
		shown := func(cr string) string { // the text the page shows, included content and all
			t.Helper()
			q := `query($s: ID!, $p: ID!) { space(id: $s) { content { page(id: $p) { document } } } }`
			if cr != "" {
				q = `query($s: ID!, $cr: ID!, $p: ID!) { space(id: $s) { changeRequest(id: $cr) { content { page(id: $p) { document } } } } }`
			}
			g := e.gql(reader.Token, q, map[string]any{"s": sp, "cr": cr, "p": page})
			g.ok(nil)
			return string(g.Data)
		}
		read := func(path string) map[string]any {
			t.Helper()
			return e.call(reader.Token, "GET", "/spaces/"+sp+path+"/reusable-contents/"+rc, nil).want(http.StatusOK).object()
		}
		before := read("/content")

		cr := e.openChangeRequest(admin.Token, sp, "Dusk")
		other := e.openChangeRequest(admin.Token, sp, "Midnight")
		if code := e.updateReusableContent(reader.Token, target(sp, cr), rc, map[string]any{"markdown": "x"}).code(); code != "FORBIDDEN" {
			t.Errorf("a reader's edit: code %q, want FORBIDDEN", code)
		}
		if code := e.updateReusableContent(admin.Token, target(sp, cr), rc, map[string]any{}).code(); code != "BAD_USER_INPUT" && code != "INVALID" {
			t.Errorf("an empty edit: code %q", code)
		}
		if code := e.updateReusableContent(admin.Token, target(sp, cr), "unknown", map[string]any{"markdown": "x"}).code(); code != "NOT_FOUND" {
			t.Errorf("an unknown reusable content: code %q", code)
		}
		var edited struct {
			UpdateReusableContent struct {
				ReusableContent struct{ ID, Title, Markdown string }
			}
		}
		e.updateReusableContent(admin.Token, target(sp, cr), rc, map[string]any{"title": "Tide times", "markdown": "Low tide at **dusk**.\n"}).ok(&edited)
		if got := edited.UpdateReusableContent.ReusableContent; got.Title != "Tide times" || got.Markdown != "Low tide at **dusk**.\n" {
			t.Errorf("edited = %+v", got)
		}
		if s := shown(cr); !strings.Contains(s, "dusk") || strings.Contains(s, "noon") {
			t.Errorf("the change request's page shows %s", s)
		}
		if s := shown(""); !strings.Contains(s, "noon") || strings.Contains(s, "dusk") {
			t.Errorf("the space's page shows %s", s)
		}
		if got := read("/change-requests/" + cr + "/content"); got["title"] != "Tide times" || got["document"] == before["document"] {
			t.Errorf("the change request reads %v", got)
		}
		if got := read("/content"); got["title"] != "Tides" || got["document"] != before["document"] {
			t.Errorf("the space reads %v before the merge", got)
		}
		e.updateReusableContent(admin.Token, target(sp, other), rc, map[string]any{"markdown": "Low tide at **midnight**.\n"}).ok(nil)

		if found := e.searchSpace(reader.Token, sp, "dusk", ""); len(found.Items) != 0 {
			t.Errorf("search finds the change request's text before the merge: %+v", found.Items)
		}
		e.call(admin.Token, "POST", "/spaces/"+sp+"/change-requests/"+cr+"/merge", nil).want(http.StatusOK)
		// Search reads the merged text in the page that includes it.
		if found := e.searchSpace(reader.Token, sp, "dusk", ""); len(found.Items) != 1 || found.Items[0].ID != page {
			t.Errorf("search after the merge = %+v", found.Items)
		}
		if s := shown(""); !strings.Contains(s, "dusk") {
			t.Errorf("after the merge the space's page shows %s", s)
		}
		merged := read("/content")
		if merged["title"] != "Tide times" {
			t.Errorf("after the merge the space reads %v", merged)
		}
		var md struct {
			Space struct {
				Content struct{ ReusableContent struct{ Markdown string } }
			}
		}
		e.gql(reader.Token, `query($s: ID!, $rc: ID!) { space(id: $s) { content { reusableContent(id: $rc) { markdown } } } }`, map[string]any{"s": sp, "rc": rc}).ok(&md)
		if md.Space.Content.ReusableContent.Markdown != "Low tide at **dusk**.\n" {
			t.Errorf("merged markdown = %q", md.Space.Content.ReusableContent.Markdown)
		}

		// The other change request changed it too, differently: 409, and nothing changes.
		msg := e.call(admin.Token, "POST", "/spaces/"+sp+"/change-requests/"+other+"/merge", nil).wantError(http.StatusConflict)
		if !strings.Contains(msg, "reusable content") {
			t.Errorf("conflict message %q does not name the reusable content", msg)
		}
		if got := read("/content"); got["document"] != merged["document"] {
			t.Errorf("a refused merge changed the reusable content: %v", got)
		}
	})
}

// A translation run translates the source's reusable contents, markup and front matter kept,
// and the translated pages show them translated.
func TestTranslationTranslatesReusableContent(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Reuse", "admin@reuse.test")
		source := e.newSpace(admin.Token, orgID, "Harbour")
		rc := e.addReusableContent(source, ".gitbook/includes/tide.md", "---\ntitle: Tides\ndescription: kept\n---\n\nHigh tide at **noon**.\n")
		page := e.createPage(admin.Token, target(source, ""), map[string]any{"title": "Rules", "markdown": "Rules.\n\n{% include \".gitbook/includes/tide.md\" %}\n"})
		tr := e.call(admin.Token, "POST", "/orgs/"+orgID+"/translations", `{"language":"ja","source":{"space":"`+source+`","language":"en"}}`).want(http.StatusCreated).object()["id"].(string)
		srv := e.withProvider()
		if run := e.runTranslation(admin.Token, orgID, tr); run.Status != "COMPLETED" || run.PagesTotal != 2 || run.PagesSent != 2 {
			t.Fatalf("run = %+v", run)
		}
		result := e.resultSpace(admin.Token, orgID, tr)
		var data struct {
			Space struct {
				Content struct {
					ReusableContent struct {
						Title, Markdown string
						Git             struct{ Path string }
					}
					Page struct{ Document json.RawMessage }
				}
			}
		}
		e.gql(admin.Token, `query($s: ID!, $rc: ID!, $p: ID!) { space(id: $s) { content {
			reusableContent(id: $rc) { title markdown git { path } } page(id: $p) { document } } } }`,
			map[string]any{"s": result, "rc": rc, "p": page}).ok(&data)
		got := data.Space.Content
		if !strings.HasPrefix(got.ReusableContent.Title, "[ja]") || !strings.Contains(got.ReusableContent.Markdown, "**") ||
			!strings.Contains(got.ReusableContent.Markdown, "ja") || strings.Contains(got.ReusableContent.Markdown, "title:") ||
			got.ReusableContent.Git.Path != ".gitbook/includes/tide.md" {
			t.Errorf("translated reusable content = %+v", got.ReusableContent)
		}
		if !strings.Contains(string(got.Page.Document), "ja") || !strings.Contains(string(got.Page.Document), `"reusable-content"`) {
			t.Errorf("translated page = %s", got.Page.Document)
		}
		// A second run sends nothing: the memory holds the reusable content too.
		before := len(srv.Requests())
		if run := e.runTranslation(admin.Token, orgID, tr); run.PagesSent != 0 || run.PagesReused != 2 || len(srv.Requests()) != before {
			t.Errorf("second run = %+v", run)
		}
	})
}

// Reading every reusable content of a revision with its markdown and document costs the same
// number of statements whatever their number.
func TestReusableContentListStatements(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Reuse", "admin@reuse.test")
		count := func(sp string) int64 {
			var n atomic.Int64
			e.gqlCounted(admin.Token, `query($s: ID!) { space(id: $s) { content { reusableContents { id markdown document } } } }`, map[string]any{"s": sp}, &n).ok(nil)
			return n.Load()
		}
		few, many := e.newSpace(admin.Token, orgID, "Few"), e.newSpace(admin.Token, orgID, "Many")
		e.addReusableContent(few, ".gitbook/includes/a.md", "A ![logo](../assets/logo.png).\n")
		for _, name := range []string{"a", "b", "c", "d", "e", "f"} {
			e.addReusableContent(many, ".gitbook/includes/"+name+".md", "Text "+name+" ![logo](../assets/logo.png) {% include \"a.md\" %}\n")
		}
		if a, b := count(few), count(many); a != b {
			t.Errorf("statements: %d for one reusable content, %d for six", a, b)
		}
	})
}
