package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/translator"
	"github.com/bindery/bindery/domain/translator/translatortest"
	"github.com/bindery/bindery/storage"
)

// richPage holds every kind of structure a translation must keep byte for byte.
const richPage = "Use the **Widget** with `make install` and read [the guide](https://example.com/guide).\n\n" +
	"{% hint style=\"info\" %}\nA Widget hint.\n{% endhint %}\n\n" +
	"```go\nfmt.Println(\"Widget\")\n```\n\n" +
	"| Name | Value |\n|------|------:|\n| Widget | *3* |\n\n" +
	"- one <code class=\"expression\">space.vars.x</code>\n- two\n"

// withProvider points the stack at a fake chat-completions server.
func (e *env) withProvider() *translatortest.Server {
	e.t.Helper()
	srv := translatortest.New(e.t)
	e.res.Translator = translator.New(fakeProvider(e.t, srv.URL), translator.Config{Backoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, Timeout: 5 * time.Second})
	return srv
}

// runTranslation asks for a run through REST (204) and lets the job queue work it to its end,
// returning the run as GraphQL shows it.
func (e *env) runTranslation(token, orgID, translationID string) translationRun {
	e.t.Helper()
	if res := e.call(token, "POST", "/orgs/"+orgID+"/translations/"+translationID+"/run", nil).want(http.StatusNoContent); len(res.Body) != 0 {
		e.t.Fatalf("run answered a body: %s", res.Body)
	}
	e.runJobs()
	return e.translationRuns(token, orgID, translationID)[0]
}

type translationRun struct {
	ID, Status                      string
	Progress, PagesTotal, PagesSent int
	PagesReused, Words              int
	Failure                         *string
	Issues                          []struct {
		Page, Kind, Message string
		Terms               []string
	}
	ResultRevision *string
}

func (e *env) translationRuns(token, orgID, translationID string) []translationRun {
	e.t.Helper()
	var data struct {
		Organization struct {
			Translation struct {
				Runs struct{ Nodes []translationRun }
			}
		}
	}
	e.gql(token, `query($o: ID!, $t: ID!) { organization(id: $o) { translation(id: $t) { runs { nodes { id status progress pagesTotal pagesSent pagesReused words failure issues { page kind message terms } resultRevision } } } } }`,
		map[string]any{"o": orgID, "t": translationID}).ok(&data)
	return data.Organization.Translation.Runs.Nodes
}

// shape is a page document's JSON with every leaf's text and table column title blanked.
func shape(t *testing.T, body []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if x["object"] == "leaf" {
				x["text"] = ""
			}
			if x["object"] == "block" && x["type"] == "table" {
				if d, ok := x["data"].(map[string]any)["definition"].(map[string]any); ok {
					for _, c := range d {
						c.(map[string]any)["title"] = ""
					}
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
	return v.(map[string]any)["document"]
}

func TestTranslations(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Translations", "admin@translations.test")
		reader := e.member(orgID, "reader@translations.test", "read")
		base := "/orgs/" + orgID + "/translations"
		source := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Handbook"}`).want(http.StatusCreated).object()["id"].(string)
		intro := e.createPage(admin.Token, target(source, ""), map[string]any{"title": "Widget intro", "description": "All about the Widget", "markdown": richPage})
		child := e.createPage(admin.Token, target(source, ""), map[string]any{"title": "Setup", "parent": intro, "markdown": "Plain setup text.\n"})
		guides := e.createPage(admin.Token, target(source, ""), map[string]any{"title": "Guides", "type": "GROUP"})

		// Creation: validated before anything is written.
		for _, bad := range []string{
			`{}`, `{"language":"fr"}`, `{"language":"xx","source":{"space":"` + source + `","language":"en"}}`,
			`{"language":"fr","source":{"space":"` + source + `","language":"fr"}}`,
			`{"language":"fr","source":{"space":"nope","language":"en"}}`,
			`{"language":"fr","source":{"space":"` + source + `"}}`,
			`{"language":"fr","source":{"space":"` + source + `","language":"en"},"instructions":{"object":"nope"}}`,
		} {
			e.call(admin.Token, "POST", base, bad).wantError(http.StatusBadRequest)
		}
		e.call(reader.Token, "POST", base, `{"language":"fr","source":{"space":"`+source+`","language":"en"}}`).wantError(http.StatusForbidden)
		e.call(admin.Token, "GET", base, nil).want(http.StatusOK).decode(&struct{}{})

		res := e.call(admin.Token, "POST", base, `{"language":"fr","source":{"space":"`+source+`","language":"en"},"instructions":{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Use a friendly tone.","marks":[]}]}]}]}}`).want(http.StatusCreated)
		if loc := res.Header.Get("Location"); loc != "" {
			t.Errorf("createTranslation has a Location header: %s", loc)
		}
		var tr struct {
			Object, ID, Status, Language string
			Source                       struct{ Space, Language string }
			Result                       struct{ Space, Revision string }
			Stats                        map[string]int
			Permissions                  struct{ View, Edit bool }
			URLs                         struct{ Location string }
			Instructions                 json.RawMessage
		}
		res.decode(&tr)
		if tr.Object != "translation" || tr.Status != "pending" || tr.Language != "fr" || tr.Source.Space != source || tr.Source.Language != "en" ||
			tr.Result.Space == "" || !tr.Permissions.Edit || tr.URLs.Location != "https://bindery.test/v1"+base+"/"+tr.ID || len(tr.Stats) != 7 || tr.Stats["runs"] != 0 {
			t.Fatalf("created translation = %s", res.Body)
		}
		result := tr.Result.Space
		var space struct{ Title, Language string }
		e.call(admin.Token, "GET", "/spaces/"+result, nil).want(http.StatusOK).decode(&space)
		if space.Title != "Handbook (fr)" || space.Language != "fr" {
			t.Errorf("result space = %+v", space)
		}

		// Reading: members who read both spaces; the list is paged.
		var list struct {
			Items []struct{ ID string }
			Count int
			Next  *struct{ Page string }
		}
		e.call(reader.Token, "GET", base+"?limit=1", nil).want(http.StatusOK).decode(&list)
		if list.Count != 1 || len(list.Items) != 1 || list.Items[0].ID != tr.ID || list.Next != nil {
			t.Errorf("list = %+v", list)
		}
		var got struct{ Permissions struct{ View, Edit bool } }
		e.call(reader.Token, "GET", base+"/"+tr.ID, nil).want(http.StatusOK).decode(&got)
		if !got.Permissions.View || got.Permissions.Edit {
			t.Errorf("reader's permissions = %+v", got.Permissions)
		}
		e.call(admin.Token, "GET", base+"/nope", nil).wantError(http.StatusNotFound)
		e.call(admin.Token, "GET", base+"?limit=5000", nil).wantError(http.StatusBadRequest)

		// Instructions.
		e.call(reader.Token, "PUT", base+"/"+tr.ID, `{"instructions":{"object":"document","data":{},"nodes":[]}}`).wantError(http.StatusForbidden)
		e.call(admin.Token, "PUT", base+"/"+tr.ID, `{}`).wantError(http.StatusBadRequest)
		e.call(admin.Token, "PUT", base+"/"+tr.ID, `{"instructions":{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Be formal.","marks":[]}]}]}]}}`).want(http.StatusOK)

		// Without a provider, the run fails and the translation goes back to pending.
		e.call(reader.Token, "POST", base+"/"+tr.ID+"/run", nil).wantError(http.StatusForbidden)
		e.call(admin.Token, "POST", base+"/nope/run", nil).wantError(http.StatusNotFound)
		run := e.runTranslation(admin.Token, orgID, tr.ID)
		if run.Status != "FAILED" || run.Failure == nil || *run.Failure != "no translation provider configured" {
			t.Fatalf("run without provider = %+v", run)
		}
		e.call(admin.Token, "GET", base+"/"+tr.ID, nil).want(http.StatusOK).decode(&tr)
		if tr.Status != "pending" || tr.Stats["runs"] != 0 {
			t.Errorf("after a failed run: status %s, stats %v", tr.Status, tr.Stats)
		}

		// With one, every page is sent once and the result follows the source's tree.
		srv := e.withProvider()
		run = e.runTranslation(admin.Token, orgID, tr.ID)
		if run.Status != "COMPLETED" || run.Progress != 100 || run.PagesTotal != 3 || run.PagesSent != 3 || run.Words == 0 || run.ResultRevision == nil {
			t.Fatalf("first run = %+v", run)
		}
		if n := len(srv.Requests()); n != 3 {
			t.Errorf("%d requests, want one per page", n)
		}
		for _, r := range srv.Requests() {
			if r.Target != "fr" || r.Source != "en" || !strings.Contains(r.System, "Be formal.") || r.Authorization != "Bearer sk-test-secret" {
				t.Errorf("request = %+v", r)
			}
			for _, text := range r.Texts {
				for _, never := range []string{"make install", "https://", "fmt.Println", "space.vars.x", "style="} {
					if strings.Contains(text, never) {
						t.Errorf("sent %q, which holds %q", text, never)
					}
				}
			}
		}
		e.call(admin.Token, "GET", base+"/"+tr.ID, nil).want(http.StatusOK).decode(&tr)
		if tr.Status != "completed" || tr.Stats["runs"] != 1 || tr.Stats["totalPages"] != 3 || tr.Stats["latestPages"] != 3 ||
			tr.Stats["totalWords"] != run.Words || tr.Stats["latestWords"] != run.Words || tr.Stats["totalDuration"] <= 0 || tr.Stats["latestRunDuration"] != tr.Stats["totalDuration"] ||
			tr.Result.Revision != *run.ResultRevision {
			t.Errorf("after the first run: %+v", tr)
		}
		var pages struct {
			Pages []struct {
				ID, Title, Path, Markdown string
				Description               *string
				Pages                     []struct{ ID, Title, Markdown string }
			}
		}
		e.call(reader.Token, "GET", "/spaces/"+result+"/content/pages", nil).want(http.StatusOK).decode(&pages)
		if len(pages.Pages) != 2 || pages.Pages[0].ID != intro || pages.Pages[0].Title != "[fr] Widget intro" || pages.Pages[0].Path != "widget-intro" ||
			pages.Pages[0].Description == nil || *pages.Pages[0].Description != "[fr] All about the Widget" ||
			len(pages.Pages[0].Pages) != 1 || pages.Pages[0].Pages[0].ID != child || pages.Pages[0].Pages[0].Markdown != `\[fr\] Plain setup text.`+"\n" || pages.Pages[1].Title != "[fr] Guides" {
			t.Fatalf("result pages = %+v", pages)
		}
		md := pages.Pages[0].Markdown
		for _, kept := range []string{"`make install`", "(https://example.com/guide)", "```go\nfmt.Println(\"Widget\")\n```", `{% hint style="info" %}`, `<code class="expression">space.vars.x</code>`, `\[fr\] Use the `} {
			if !strings.Contains(md, kept) {
				t.Errorf("translated markdown lost %q:\n%s", kept, md)
			}
		}
		srcDoc := e.call(admin.Token, "GET", "/spaces/"+source+"/content/page/"+intro, nil).want(http.StatusOK).Body
		resDoc := e.call(admin.Token, "GET", "/spaces/"+result+"/content/page/"+intro, nil).want(http.StatusOK).Body
		if !reflect.DeepEqual(shape(t, srcDoc), shape(t, resDoc)) {
			t.Errorf("the translated document's shape differs:\n%s\n%s", srcDoc, resDoc)
		}

		// Nothing changed: nothing is sent, and the result keeps its content.
		before := len(srv.Requests())
		run = e.runTranslation(admin.Token, orgID, tr.ID)
		if run.Status != "COMPLETED" || run.PagesSent != 0 || run.PagesReused != 3 || len(srv.Requests()) != before {
			t.Errorf("unchanged run = %+v, %d requests", run, len(srv.Requests())-before)
		}

		// Glossary: an insert re-translates only the pages where the term occurs.
		glossary := "/orgs/" + orgID + "/translations-glossary"
		for _, bad := range []string{`{}`, `{"operations":[{"type":"upsert","translations":{"en":"x"}}]}`, `{"operations":[{"type":"insert","translations":{"en":"a\nb"}}]}`,
			`{"operations":[{"type":"insert","translations":{"xx":"a"}}]}`, `{"operations":[{"type":"insert","translations":{}}]}`,
			`{"operations":[{"type":"update","id":"nope","translations":{"en":"a"}}]}`, `{"operations":[{"type":"delete","id":"nope"}]}`,
			`{"operations":[{"type":"insert","translations":{"en":1}}]}`} {
			e.call(admin.Token, "PUT", glossary, bad).wantError(http.StatusBadRequest)
		}
		e.call(reader.Token, "PUT", glossary, `{"operations":[{"type":"insert","translations":{"en":"Widget","fr":"Bidule"}}]}`).wantError(http.StatusForbidden)
		e.call(admin.Token, "PUT", glossary, `{"operations":[{"type":"insert","translations":{"en":"Widget","fr":"Bidule"}},{"type":"insert","translations":{"en":"Gadget","de":"Dings"}}]}`).want(http.StatusNoContent)
		var entries struct {
			Items []struct {
				Object, ID   string
				Translations map[string]string
				URLs         struct{ Location string }
			}
			Count int
		}
		e.call(reader.Token, "GET", glossary, nil).want(http.StatusOK).decode(&entries)
		if entries.Count != 2 || entries.Items[0].Translations["fr"] != "Bidule" || entries.Items[0].Object != "glossary-entry" {
			t.Fatalf("glossary = %+v", entries)
		}
		widget := entries.Items[0].ID
		e.call(reader.Token, "GET", glossary+"/"+widget, nil).want(http.StatusOK)
		e.call(reader.Token, "GET", glossary+"/nope", nil).wantError(http.StatusNotFound)

		before = len(srv.Requests())
		run = e.runTranslation(admin.Token, orgID, tr.ID)
		sent := srv.Requests()[before:]
		if run.PagesSent != 1 || len(sent) != 1 || sent[0].Texts[0] != "Widget intro" || len(sent[0].Glossary) != 1 || sent[0].Glossary[0].Target != "Bidule" {
			t.Fatalf("glossary run = %+v, sent %+v", run, sent)
		}
		if len(run.Issues) != 0 {
			t.Errorf("issues = %+v", run.Issues)
		}
		e.call(admin.Token, "GET", "/spaces/"+result+"/content/pages", nil).want(http.StatusOK).decode(&pages)
		if pages.Pages[0].Title != "[fr] Bidule intro" || !strings.Contains(pages.Pages[0].Markdown, `**\[fr\] Bidule**`) {
			t.Errorf("glossary term not used: %+v", pages.Pages[0])
		}

		// A term the provider does not use is reported with its page.
		srv.Skip = map[string]bool{"Truc": true}
		e.call(admin.Token, "PUT", glossary, `{"operations":[{"type":"update","id":"`+widget+`","translations":{"en":"Widget","fr":"Truc"}}]}`).want(http.StatusNoContent)
		run = e.runTranslation(admin.Token, orgID, tr.ID)
		if run.PagesSent != 1 || len(run.Issues) != 1 || run.Issues[0].Page != intro || run.Issues[0].Kind != "glossary" || !slices.Equal(run.Issues[0].Terms, []string{"Truc"}) {
			t.Errorf("missing term run = %+v", run)
		}

		// Moves, additions and removals follow the source.
		e.gql(admin.Token, `mutation($t: ContentTarget!, $p: ID!) { deletePage(target: $t, pageId: $p) { revision { id } } }`, map[string]any{"t": target(source, ""), "p": child}).ok(nil)
		added := e.createPage(admin.Token, target(source, ""), map[string]any{"title": "New page", "markdown": "Fresh.", "before": guides})
		run = e.runTranslation(admin.Token, orgID, tr.ID)
		e.call(admin.Token, "GET", "/spaces/"+result+"/content/pages", nil).want(http.StatusOK).decode(&pages)
		if run.PagesSent != 1 || len(pages.Pages) != 3 || len(pages.Pages[0].Pages) != 0 || pages.Pages[1].ID != added || pages.Pages[1].Markdown != `\[fr\] Fresh.` {
			t.Errorf("after remove and add: run %+v, pages %+v", run, pages)
		}

		// GraphQL: the same translations and glossary.
		var g struct {
			Organization struct {
				Translations struct {
					TotalCount int
					Nodes      []struct {
						ID, Status string
						Stats      struct{ Runs int }
						Runs       struct{ TotalCount int }
					}
				}
				Glossary struct {
					Nodes []struct{ Translations map[string]string }
				}
			}
		}
		e.gql(reader.Token, `query($o: ID!) { organization(id: $o) { translations { totalCount nodes { id status stats { runs } runs(first: 2) { totalCount } } } glossary { nodes { translations } } } }`,
			map[string]any{"o": orgID}).ok(&g)
		if g.Organization.Translations.TotalCount != 1 || g.Organization.Translations.Nodes[0].Status != "COMPLETED" || g.Organization.Translations.Nodes[0].Stats.Runs != 5 ||
			g.Organization.Translations.Nodes[0].Runs.TotalCount != 6 || g.Organization.Glossary.Nodes[0].Translations["fr"] != "Truc" {
			t.Errorf("GraphQL = %+v", g)
		}
		var created struct {
			CreateTranslation struct {
				ID     string
				Status string
				Result struct{ Space string }
			}
		}
		e.gql(admin.Token, `mutation($o: ID!, $s: ID!) { createTranslation(organizationId: $o, input: {language: DE, source: {space: $s, language: EN}}) { id status result { space } } }`,
			map[string]any{"o": orgID, "s": source}).ok(&created)
		if created.CreateTranslation.Status != "PENDING" || created.CreateTranslation.Result.Space == "" {
			t.Errorf("GraphQL create = %+v", created)
		}
		if code := e.gql(reader.Token, `mutation($o: ID!, $t: ID!) { runTranslation(organizationId: $o, translationId: $t) { id } }`, map[string]any{"o": orgID, "t": created.CreateTranslation.ID}).code(); code != "FORBIDDEN" {
			t.Errorf("reader running: %s", code)
		}
		e.stopJobs() // the run must still wait when it is asked for again
		var ran struct{ RunTranslation struct{ ID, Status string } }
		e.gql(admin.Token, `mutation($o: ID!, $t: ID!) { runTranslation(organizationId: $o, translationId: $t) { id status } }`, map[string]any{"o": orgID, "t": created.CreateTranslation.ID}).ok(&ran)
		if ran.RunTranslation.Status != "QUEUED" {
			t.Errorf("GraphQL run = %+v", ran)
		}
		var again struct{ RunTranslation struct{ ID string } }
		e.gql(admin.Token, `mutation($o: ID!, $t: ID!) { runTranslation(organizationId: $o, translationId: $t) { id } }`, map[string]any{"o": orgID, "t": created.CreateTranslation.ID}).ok(&again)
		if again.RunTranslation.ID != ran.RunTranslation.ID {
			t.Errorf("a second run was queued while one waits: %s, %s", ran.RunTranslation.ID, again.RunTranslation.ID)
		}
		if code := e.gql(admin.Token, `mutation($o: ID!) { updateGlossary(organizationId: $o, input: {operations: [{type: DELETE, id: "nope"}]}) }`, map[string]any{"o": orgID}).code(); code != "INVALID" {
			t.Errorf("GraphQL glossary delete of a missing id: %s", code)
		}
		e.gql(admin.Token, `mutation($o: ID!, $id: ID!) { updateGlossary(organizationId: $o, input: {operations: [{type: DELETE, id: $id}]}) }`, map[string]any{"o": orgID, "id": widget}).ok(nil)

		// Deleting keeps the result space; deleting again still answers 204.
		e.call(reader.Token, "DELETE", base+"/"+tr.ID, nil).wantError(http.StatusForbidden)
		e.call(admin.Token, "DELETE", base+"/"+tr.ID, nil).want(http.StatusNoContent)
		e.call(admin.Token, "DELETE", base+"/"+tr.ID, nil).want(http.StatusNoContent)
		e.call(admin.Token, "GET", base+"/"+tr.ID, nil).wantError(http.StatusNotFound)
		e.call(admin.Token, "GET", "/spaces/"+result, nil).want(http.StatusOK)

		// Another organization learns nothing.
		_, other := e.org("Elsewhere", "admin@elsewhere.test")
		e.call(other.Token, "GET", base+"/"+created.CreateTranslation.ID, nil).wantError(http.StatusNotFound)
		e.call(other.Token, "GET", glossary, nil).wantError(http.StatusNotFound)
	})
}

// bulkSpace writes n pages into a space in one edit, straight through storage (fast), and
// returns their ids in order.
func (e *env) bulkSpace(spaceID string, n int) []string {
	e.t.Helper()
	ids := make([]string, n)
	_, err := e.store.EditContent(context.Background(), storage.EditTarget{SpaceID: spaceID}, "", e.res.Now, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		edit := &storage.Edit{}
		for i := range n {
			md := fmt.Sprintf("Page %d says hello.\n\n- item %d\n", i, i)
			cid := storage.ContentID(c.OrganizationID, md)
			ids[i] = storage.NewID()
			edit.Pages = append(edit.Pages, &storage.PageVersion{PageID: ids[i], Type: "document", Title: fmt.Sprintf("Page %d", i), Slug: fmt.Sprintf("page-%d", i),
				Position: float64(i), ContentID: &cid, CreatedAt: c.Now, UpdatedAt: c.Now})
			edit.Contents = append(edit.Contents, &storage.PageContent{Markdown: md})
		}
		return edit, nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return ids
}

func TestTranslationSendsOnlyChangedPages(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Bulk", "admin@bulk.test")
		source := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Big"}`).want(http.StatusCreated).object()["id"].(string)
		ids := e.bulkSpace(source, 200)
		tr := e.call(admin.Token, "POST", "/orgs/"+orgID+"/translations", `{"language":"ja","source":{"space":"`+source+`","language":"en"}}`).want(http.StatusCreated).object()["id"].(string)
		srv := e.withProvider()
		if run := e.runTranslation(admin.Token, orgID, tr); run.Status != "COMPLETED" || run.PagesSent != 200 || len(srv.Requests()) != 200 {
			t.Fatalf("first run = %+v, %d requests", run, len(srv.Requests()))
		}
		changed := map[string]bool{}
		for _, i := range []int{7, 99, 180} {
			e.updatePage(admin.Token, target(source, ""), ids[i], map[string]any{"markdown": fmt.Sprintf("Page %d changed.", i)}).ok(nil)
			changed[fmt.Sprintf("Page %d", i)] = true
		}
		before := len(srv.Requests())
		run := e.runTranslation(admin.Token, orgID, tr)
		sent := srv.Requests()[before:]
		if run.Status != "COMPLETED" || run.PagesSent != 3 || run.PagesReused != 197 || len(sent) != 3 {
			t.Fatalf("second run = %+v, %d requests", run, len(sent))
		}
		for _, r := range sent {
			if !changed[r.Texts[0]] {
				t.Errorf("sent an unchanged page: %q", r.Texts)
			}
		}
		var page struct{ Markdown string }
		e.call(admin.Token, "GET", "/spaces/"+e.resultSpace(admin.Token, orgID, tr)+"/content/page/"+ids[99]+"?format=markdown", nil).want(http.StatusOK).decode(&page)
		if page.Markdown != `\[ja\] Page 99 changed.` {
			t.Errorf("changed page = %q", page.Markdown)
		}
	})
}

func (e *env) resultSpace(token, orgID, translationID string) string {
	e.t.Helper()
	var tr struct{ Result struct{ Space string } }
	e.call(token, "GET", "/orgs/"+orgID+"/translations/"+translationID, nil).want(http.StatusOK).decode(&tr)
	return tr.Result.Space
}

func TestTranslationRunResumesAfterARestart(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Resume", "admin@resume.test")
		source := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
		e.bulkSpace(source, 40)
		tr := e.call(admin.Token, "POST", "/orgs/"+orgID+"/translations", `{"language":"de","source":{"space":"`+source+`","language":"en"}}`).want(http.StatusCreated).object()["id"].(string)
		srv := e.withProvider()
		// One request in flight at a time, so that what was sent before the stop is exactly what
		// was answered and stored, plus the request the stop interrupts.
		one := translator.New(fakeProvider(t, srv.URL), translator.Config{Backoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, Timeout: 5 * time.Second, Concurrency: 1})
		e.res.Translator = one

		// The server stops (its context ends) while the tenth page is being translated.
		ctx, stop := context.WithCancel(context.Background())
		srv.Respond = func(n int, _ translatortest.Received) translatortest.Reply {
			if n == 10 {
				stop()
				return translatortest.Reply{Delay: time.Minute}
			}
			return translatortest.Reply{}
		}
		e.call(admin.Token, "POST", "/orgs/"+orgID+"/translations/"+tr+"/run", nil).want(http.StatusNoContent)
		runID := e.translationRuns(admin.Token, orgID, tr)[0].ID
		if err := e.res.ExecuteTranslationRun(ctx, runID); err == nil {
			t.Fatal("a stopped run reported success")
		}
		first := e.translationRuns(admin.Token, orgID, tr)[0]
		stored, err := e.store.TranslationRunsOf(context.Background(), []string{tr})
		if err != nil || first.Status != "RUNNING" || stored[tr][0].FinishedAt != nil {
			t.Fatalf("after the stop: %+v, %v", first, err)
		}
		storedBefore, err := e.store.CountTranslatedPages(context.Background(), tr)
		if err != nil || storedBefore == 0 || storedBefore >= 40 {
			t.Fatalf("%d pages stored before the stop", storedBefore)
		}

		// The job runs again: only the pages not yet stored are sent, and none is lost.
		srv.Respond = nil
		before := len(srv.Requests())
		if err := e.res.ExecuteTranslationRun(context.Background(), runID); err != nil {
			t.Fatal(err)
		}
		again := srv.Requests()[before:]
		seen := map[string]bool{}
		for _, r := range again {
			if seen[r.Texts[0]] {
				t.Errorf("%q sent twice", r.Texts[0])
			}
			seen[r.Texts[0]] = true
		}
		if len(again) != 40-storedBefore {
			t.Errorf("%d pages sent after the restart, want the %d not stored before", len(again), 40-storedBefore)
		}
		run := e.translationRuns(admin.Token, orgID, tr)[0]
		if run.Status != "COMPLETED" || run.PagesTotal != 40 || run.PagesSent != 40 || run.Progress != 100 {
			t.Errorf("resumed run = %+v", run)
		}
		var pages struct{ Pages []struct{ Title string } }
		e.call(admin.Token, "GET", "/spaces/"+e.resultSpace(admin.Token, orgID, tr)+"/content/pages", nil).want(http.StatusOK).decode(&pages)
		if len(pages.Pages) != 40 {
			t.Fatalf("%d result pages", len(pages.Pages))
		}
		for _, p := range pages.Pages {
			if !strings.HasPrefix(p.Title, "[de] Page ") {
				t.Errorf("untranslated page %q", p.Title)
			}
		}
	})
}

func TestTranslationProviderFailureRestoresStatus(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Failing", "admin@failing.test")
		source := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
		e.createPage(admin.Token, target(source, ""), map[string]any{"title": "One", "markdown": "Hello."})
		tr := e.call(admin.Token, "POST", "/orgs/"+orgID+"/translations", `{"language":"es","source":{"space":"`+source+`","language":"en"}}`).want(http.StatusCreated).object()["id"].(string)
		srv := e.withProvider()
		if run := e.runTranslation(admin.Token, orgID, tr); run.Status != "COMPLETED" {
			t.Fatalf("run = %+v", run)
		}
		e.updatePage(admin.Token, target(source, ""), e.firstPage(admin.Token, source), map[string]any{"markdown": "Changed."}).ok(nil)
		srv.Respond = func(int, translatortest.Received) translatortest.Reply {
			return translatortest.Reply{Status: 401, Body: `{"error":{"message":"invalid key sk-test-secret"}}`}
		}
		run := e.runTranslation(admin.Token, orgID, tr)
		if run.Status != "FAILED" || run.Failure == nil || !strings.Contains(*run.Failure, "answered 401") || strings.Contains(*run.Failure, "sk-test-secret") {
			t.Errorf("failed run = %+v", run)
		}
		var got struct {
			Status string
			Stats  map[string]int
		}
		e.call(admin.Token, "GET", "/orgs/"+orgID+"/translations/"+tr, nil).want(http.StatusOK).decode(&got)
		if got.Status != "completed" || got.Stats["runs"] != 1 {
			t.Errorf("after the failure: %+v", got)
		}
	})
}

func (e *env) firstPage(token, spaceID string) string {
	e.t.Helper()
	var pages struct{ Pages []struct{ ID string } }
	e.call(token, "GET", "/spaces/"+spaceID+"/content/pages", nil).want(http.StatusOK).decode(&pages)
	return pages.Pages[0].ID
}

func TestTranslationListStatements(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Counted", "admin@counted.test")
		source := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
		e.call(admin.Token, "PUT", "/orgs/"+orgID+"/translations-glossary", `{"operations":[{"type":"insert","translations":{"en":"A","fr":"B"}}]}`).want(http.StatusNoContent)
		counts := func() (rest, gql, glossary int64) {
			var r, g, gl atomic.Int64
			e.callCounted(admin.Token, "GET", "/orgs/"+orgID+"/translations", nil, &r).want(http.StatusOK)
			e.gqlCounted(admin.Token, `query($o: ID!) { organization(id: $o) { translations { nodes { id runs { nodes { id issues { page } } } } } } }`, map[string]any{"o": orgID}, &g).ok(nil)
			e.callCounted(admin.Token, "GET", "/orgs/"+orgID+"/translations-glossary", nil, &gl).want(http.StatusOK)
			return r.Load(), g.Load(), gl.Load()
		}
		add := func(lang string) {
			id := e.call(admin.Token, "POST", "/orgs/"+orgID+"/translations", `{"language":"`+lang+`","source":{"space":"`+source+`","language":"en"}}`).want(http.StatusCreated).object()["id"].(string)
			e.call(admin.Token, "POST", "/orgs/"+orgID+"/translations/"+id+"/run", nil).want(http.StatusNoContent)
			e.call(admin.Token, "PUT", "/orgs/"+orgID+"/translations-glossary", `{"operations":[{"type":"insert","translations":{"en":"x`+lang+`","fr":"y"}}]}`).want(http.StatusNoContent)
		}
		add("fr")
		r1, g1, gl1 := counts()
		for _, lang := range []string{"de", "es", "it", "ja"} {
			add(lang)
		}
		r5, g5, gl5 := counts()
		if r1 != r5 || g1 != g5 || gl1 != gl5 {
			t.Errorf("statements grow with the items: REST %d → %d, GraphQL %d → %d, glossary %d → %d", r1, r5, g1, g5, gl1, gl5)
		}
	})
}
