package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

// createReusableContent creates a reusable content through GraphQL.
func (e *env) createReusableContent(token string, to map[string]any, input map[string]any) gqlResult {
	e.t.Helper()
	return e.gql(token, `mutation($t: ContentTarget!, $in: CreateReusableContentInput!) {
		createReusableContent(target: $t, input: $in) { revision { id } reusableContent { id title markdown git { oid path } } } }`,
		map[string]any{"t": to, "in": input})
}

// deleteReusableContent deletes a reusable content through GraphQL.
func (e *env) deleteReusableContent(token string, to map[string]any, id string) gqlResult {
	e.t.Helper()
	return e.gql(token, `mutation($t: ContentTarget!, $rc: ID!) { deleteReusableContent(target: $t, reusableContentId: $rc) { id } }`,
		map[string]any{"t": to, "rc": id})
}

type createdReusable struct {
	CreateReusableContent struct {
		Revision        struct{ ID string }
		ReusableContent struct {
			ID, Title, Markdown string
			Git                 struct{ Oid, Path string }
		}
	}
}

// Reusable content created and deleted through GraphQL (GitBook's API has no such operation):
// a created one is read through the contract's routes and included by pages; one still included
// cannot be deleted (409 in GraphQL's terms, naming the pages); in a change request both wait
// for the merge; Git Sync exports what was created where pages include it.
func TestReusableContentCreateAndDelete(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		gitEnv(t, e)
		orgID, admin := e.org("Reuse", "admin@reuse.test")
		reader := e.member(orgID, "reader@reuse.test", "read")
		_, other := e.org("Other", "admin@other.test")
		sp := e.newSpace(admin.Token, orgID, "Harbour")
		live := target(sp, "")

		var made createdReusable
		e.createReusableContent(admin.Token, live, map[string]any{"title": "Tide times", "markdown": "High tide at **noon**.\n"}).ok(&made)
		rc := made.CreateReusableContent.ReusableContent
		if rc.ID == "" || rc.Title != "Tide times" || rc.Markdown != "High tide at **noon**.\n" || rc.Git.Path != ".gitbook/includes/tide-times.md" {
			t.Fatalf("created = %+v", rc)
		}
		var second createdReusable
		e.createReusableContent(admin.Token, live, map[string]any{"title": "Tide  times"}).ok(&second)
		if got := second.CreateReusableContent.ReusableContent; got.Git.Path != ".gitbook/includes/tide-times-2.md" || got.Markdown != "" {
			t.Errorf("second = %+v, want its own file and no markdown", got)
		}
		for _, bad := range []map[string]any{{"title": ""}, {"title": "   "}, {"title": strings.Repeat("x", 256)}} {
			if code := e.createReusableContent(admin.Token, live, bad).code(); code != "INVALID" {
				t.Errorf("create %v: code %q", bad, code)
			}
		}
		if code := e.createReusableContent(reader.Token, live, map[string]any{"title": "No"}).code(); code != "FORBIDDEN" {
			t.Errorf("a reader's create: code %q", code)
		}
		if code := e.createReusableContent(other.Token, live, map[string]any{"title": "No"}).code(); code != "NOT_FOUND" {
			t.Errorf("another organization's create: code %q", code)
		}

		// The contract's reads serve it.
		got := e.call(reader.Token, "GET", "/spaces/"+sp+"/content/reusable-contents/"+rc.ID, nil).want(http.StatusOK).object()
		if got["title"] != "Tide times" {
			t.Errorf("REST read = %v", got)
		}
		if listed := e.call(reader.Token, "GET", "/spaces/"+sp+"/content", nil).want(http.StatusOK).object()["reusableContents"].([]any); len(listed) != 2 {
			t.Errorf("listed = %v", listed)
		}

		// A page includes it; then it cannot be deleted, through GraphQL or inside a change request.
		page := e.createPage(admin.Token, live, map[string]any{"title": "Rules", "markdown": "Rules.\n\n{% include \".gitbook/includes/tide-times.md\" %}\n"})
		doc := e.call(reader.Token, "GET", "/spaces/"+sp+"/content/page/"+page+"?format=document", nil).want(http.StatusOK)
		if !strings.Contains(string(doc.Body), `"reusable-content"`) || !strings.Contains(string(doc.Body), rc.ID) {
			t.Errorf("the page's document does not include it: %s", doc.Body)
		}
		refused := e.deleteReusableContent(admin.Token, live, rc.ID)
		if code := refused.code(); code != "CONFLICT" || !strings.Contains(refused.Errors[0].Message, `page "Rules"`) {
			t.Errorf("delete of an included content: %q %v", code, refused.Errors)
		}
		cr := e.openChangeRequest(admin.Token, sp, "Tidy")
		if code := e.deleteReusableContent(admin.Token, target(sp, cr), rc.ID).code(); code != "CONFLICT" {
			t.Errorf("delete in a change request of an included content: code %q", code)
		}
		if code := e.deleteReusableContent(reader.Token, live, second.CreateReusableContent.ReusableContent.ID).code(); code != "FORBIDDEN" {
			t.Errorf("a reader's delete: code %q", code)
		}
		if code := e.deleteReusableContent(other.Token, live, rc.ID).code(); code != "NOT_FOUND" {
			t.Errorf("another organization's delete: code %q", code)
		}
		if code := e.deleteReusableContent(admin.Token, live, "unknown").code(); code != "NOT_FOUND" {
			t.Errorf("delete of an unknown id: code %q", code)
		}

		// Git Sync exports it where pages include it; the unused one too, at its own path.
		dstURL, dstDir := bareRepo(t)
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/export", map[string]any{"url": dstURL, "ref": "refs/heads/main", "commitMessage": "Export"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, sp); state != "succeeded" {
			t.Fatalf("export: %s %s", state, msg)
		}
		files, _ := branchFiles(t, dstDir, "main")
		if files[".gitbook/includes/tide-times.md"] != "High tide at **noon**.\n" || files[".gitbook/includes/tide-times-2.md"] != "---\ntitle: Tide  times\n---\n\n" {
			t.Errorf("exported includes: %q, %q", files[".gitbook/includes/tide-times.md"], files[".gitbook/includes/tide-times-2.md"])
		}

		// In a change request: created and deleted there, the space sees neither until the merge.
		var inCR createdReusable
		e.createReusableContent(admin.Token, target(sp, cr), map[string]any{"title": "Moorings", "markdown": "Tie up **twice**.\n"}).ok(&inCR)
		moorings := inCR.CreateReusableContent.ReusableContent.ID
		unused := second.CreateReusableContent.ReusableContent.ID
		var deleted struct{ DeleteReusableContent struct{ ID string } }
		e.deleteReusableContent(admin.Token, target(sp, cr), unused).ok(&deleted)
		if deleted.DeleteReusableContent.ID == "" {
			t.Errorf("delete answered no revision")
		}
		e.call(reader.Token, "GET", "/spaces/"+sp+"/change-requests/"+cr+"/content/reusable-contents/"+moorings, nil).want(http.StatusOK)
		e.call(reader.Token, "GET", "/spaces/"+sp+"/change-requests/"+cr+"/content/reusable-contents/"+unused, nil).wantError(http.StatusNotFound)
		e.call(reader.Token, "GET", "/spaces/"+sp+"/content/reusable-contents/"+moorings, nil).wantError(http.StatusNotFound)
		e.call(reader.Token, "GET", "/spaces/"+sp+"/content/reusable-contents/"+unused, nil).want(http.StatusOK)
		e.call(admin.Token, "POST", "/spaces/"+sp+"/change-requests/"+cr+"/merge", nil).want(http.StatusOK)
		e.call(reader.Token, "GET", "/spaces/"+sp+"/content/reusable-contents/"+moorings, nil).want(http.StatusOK)
		e.call(reader.Token, "GET", "/spaces/"+sp+"/content/reusable-contents/"+unused, nil).wantError(http.StatusNotFound)

		// Once no page includes it, it can be deleted; the page then shows it missing.
		e.updatePage(admin.Token, live, page, map[string]any{"markdown": "Rules.\n"}).ok(nil)
		e.deleteReusableContent(admin.Token, live, rc.ID).ok(nil)
		e.call(reader.Token, "GET", "/spaces/"+sp+"/content/reusable-contents/"+rc.ID, nil).wantError(http.StatusNotFound)
		// A reusable content that includes another holds it too.
		var outer createdReusable
		e.createReusableContent(admin.Token, live, map[string]any{"title": "Harbour notes", "markdown": "{% include \"moorings.md\" %}\n"}).ok(&outer)
		if r := e.deleteReusableContent(admin.Token, live, moorings); r.code() != "CONFLICT" || !strings.Contains(r.Errors[0].Message, `reusable content "Harbour notes"`) {
			t.Errorf("delete of a content another includes: %v", r.Errors)
		}
	})
}
