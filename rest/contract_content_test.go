package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// orgChangeRequests reads a page of listChangeRequestsForOrganization as token: the ids in order,
// the count and the next page token ("" on the last page).
func orgChangeRequests(e *env, token, org, query string) (ids []string, count int, next string) {
	e.t.Helper()
	var list struct {
		Items []struct {
			ID    string `json:"id"`
			Space string `json:"space"`
		} `json:"items"`
		Count int `json:"count"`
		Next  *struct {
			Page string `json:"page"`
		} `json:"next"`
	}
	e.call(token, "GET", "/orgs/"+org+"/change-requests"+query, nil).want(http.StatusOK).decode(&list)
	for _, it := range list.Items {
		ids = append(ids, it.ID)
	}
	if list.Next != nil {
		next = list.Next.Page
	}
	return ids, list.Count, next
}

func TestOrganizationChangeRequests(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		secret := e.call(s.admin.Token, "POST", "/orgs/"+s.org+"/spaces", map[string]any{"title": "Secret"}).want(http.StatusCreated).object()["id"].(string)
		e.call(s.admin.Token, "PATCH", "/spaces/"+secret, `{"defaultLevel":null}`).want(http.StatusOK)
		editor := e.member(s.org, "editor@acme.test", "edit")
		reader := e.member(s.org, "reader@acme.test", "read")
		page := s.create(target(s.id, ""), map[string]any{"title": "Home"}).Page.ID

		byAdmin := e.openChangeRequest(s.admin.Token, s.id, "By the admin")
		hidden := e.openChangeRequest(s.admin.Token, secret, "In the secret space")
		byEditor := e.openChangeRequest(editor.Token, s.id, "By the editor")
		s.update(target(s.id, byEditor), page, map[string]any{"markdown": "edited by the admin"})
		merged := e.openChangeRequest(s.admin.Token, s.id, "Merged")
		e.call(s.admin.Token, "POST", "/spaces/"+s.id+"/change-requests/"+merged+"/merge", nil).want(http.StatusOK)

		// The admin reads every space; the reader not the secret one. Newest first, open by default.
		ids, count, _ := orgChangeRequests(e, s.admin.Token, s.org, "")
		ctWantIDs(t, "admin", ids, byEditor, hidden, byAdmin)
		if count != 3 {
			t.Errorf("admin count = %d, want 3", count)
		}
		ids, count, _ = orgChangeRequests(e, reader.Token, s.org, "")
		ctWantIDs(t, "reader", ids, byEditor, byAdmin)
		if count != 2 {
			t.Errorf("reader count = %d, want 2", count)
		}

		// A guest reads the change requests of the spaces granted to them only.
		guest := e.member(s.org, "guest@acme.test", "guest")
		ids, _, _ = orgChangeRequests(e, guest.Token, s.org, "")
		ctWantIDs(t, "guest without grants", ids)
		e.call(s.admin.Token, "POST", "/spaces/"+secret+"/permissions", map[string]any{"role": "read", "users": []string{guest.ID}}).want(http.StatusNoContent)
		ids, count, _ = orgChangeRequests(e, guest.Token, s.org, "")
		ctWantIDs(t, "guest granted the secret space", ids, hidden)
		if count != 1 {
			t.Errorf("guest count = %d, want 1", count)
		}

		// The filters of a space's list.
		ids, _, _ = orgChangeRequests(e, reader.Token, s.org, "?status=merged")
		ctWantIDs(t, "merged", ids, merged)
		ids, _, _ = orgChangeRequests(e, s.admin.Token, s.org, "?creator="+editor.ID)
		ctWantIDs(t, "creator editor", ids, byEditor)
		ids, _, _ = orgChangeRequests(e, s.admin.Token, s.org, "?contributor="+s.admin.ID)
		ctWantIDs(t, "contributor admin", ids, byEditor, hidden, byAdmin)
		ids, _, _ = orgChangeRequests(e, s.admin.Token, s.org, "?requestedReviewer="+reader.ID)
		ctWantIDs(t, "requested reviewer", ids)
		ids, _, _ = orgChangeRequests(e, s.admin.Token, s.org, "?conversationsIssuesCluster=x")
		ctWantIDs(t, "conversations cluster", ids)

		// Pages of one, through next.page.
		var walked []string
		query := "?limit=1"
		for range 5 {
			ids, count, next := orgChangeRequests(e, reader.Token, s.org, query)
			if count != 2 {
				t.Errorf("page %q count = %d, want 2", query, count)
			}
			walked = append(walked, ids...)
			if next == "" {
				break
			}
			query = "?limit=1&page=" + next
		}
		ctWantIDs(t, "pages of one", walked, byEditor, byAdmin)

		// Bad input: 400 in the contract's shape; another organization: 404.
		for q, name := range map[string]string{"?status=merging": "status", "?limit=-1": "limit", "?page=garbage": "page"} {
			if msg := e.call(s.admin.Token, "GET", "/orgs/"+s.org+"/change-requests"+q, nil).wantError(http.StatusBadRequest); !strings.Contains(msg, name) {
				t.Errorf("%s: message %q does not name %s", q, msg, name)
			}
		}
		_, outsider := e.org("Other", "admin@other.test")
		e.call(outsider.Token, "GET", "/orgs/"+s.org+"/change-requests", nil).wantError(http.StatusNotFound)

		// GraphQL answers the same.
		const q = `query($o: ID!, $st: ChangeRequestStatus) { organization(id: $o) { changeRequestList(status: $st) { totalCount nodes { id space createdBy { id } } } } }`
		var data struct {
			Organization struct {
				ChangeRequestList struct {
					TotalCount int
					Nodes      []struct {
						ID, Space string
						CreatedBy struct{ ID string }
					}
				}
			}
		}
		e.gql(reader.Token, q, map[string]any{"o": s.org}).ok(&data)
		var gqlIDs []string
		for _, n := range data.Organization.ChangeRequestList.Nodes {
			gqlIDs = append(gqlIDs, n.ID)
		}
		ctWantIDs(t, "GraphQL reader", gqlIDs, byEditor, byAdmin)
		if got := data.Organization.ChangeRequestList.Nodes; data.Organization.ChangeRequestList.TotalCount != 2 || got[0].CreatedBy.ID != editor.ID || got[0].Space != s.id {
			t.Errorf("GraphQL reader list = %+v", data.Organization.ChangeRequestList)
		}
		e.wantInvalid("bad status", s.admin, `query($o: ID!) { organization(id: $o) { changeRequestList(first: -1) { totalCount } } }`, map[string]any{"o": s.org}, "first")
		if code := e.gql(outsider.Token, q, map[string]any{"o": s.org}).code(); code != "NOT_FOUND" {
			t.Errorf("GraphQL outsider code = %q, want NOT_FOUND", code)
		}
	})
}

// The organization's change request list, with each one's contributors, costs the same
// statements for 2 change requests in 2 spaces and for 10 in 6.
func TestOrganizationChangeRequestsStatementsDoNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Counts", "admin@counts.test")
		reader := e.member(orgID, "reader@counts.test", "read")
		addSpace := func(title string, crs int) {
			id := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"`+title+`"}`).want(http.StatusCreated).object()["id"].(string)
			for range crs {
				e.openChangeRequest(admin.Token, id, "Counted")
			}
		}
		count := func() (int64, int64) {
			var rest, gql atomic.Int64
			e.callCounted(reader.Token, "GET", "/orgs/"+orgID+"/change-requests", nil, &rest).want(http.StatusOK)
			e.gqlCounted(reader.Token, `query($o: ID!) { organization(id: $o) { changeRequestList { nodes { id createdBy { id displayName } comments outdated contributors { user { id } count } } } } }`, map[string]any{"o": orgID}, &gql).ok(nil)
			return rest.Load(), gql.Load()
		}
		addSpace("One", 1)
		addSpace("Two", 1)
		fewREST, fewGQL := count()
		for i := range 4 {
			addSpace("More "+string(rune('A'+i)), 2)
		}
		manyREST, manyGQL := count()
		if manyREST != fewREST || manyGQL != fewGQL {
			t.Errorf("statements grew: REST %d → %d, GraphQL %d → %d", fewREST, manyREST, fewGQL, manyGQL)
		}
		if fewREST == 0 {
			t.Error("counted no statements")
		}
		t.Logf("statements: REST %d, GraphQL %d", manyREST, manyGQL)
	})
}

func TestChangeRequestContributors(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		editor := e.member(s.org, "editor@acme.test", "edit")
		commenter := e.member(s.org, "commenter@acme.test", "comment")
		page := s.create(target(s.id, ""), map[string]any{"title": "Home"}).Page.ID
		cr := e.openChangeRequest(s.admin.Token, s.id, "Shared")
		path := "/spaces/" + s.id + "/change-requests/" + cr + "/contributors"

		type contributor struct {
			User       struct{ ID string }
			Count      int
			UpdatedAt  string
			ActionType string
		}
		read := func(token string) []contributor {
			var list struct {
				Items []contributor
				Count int
			}
			e.call(token, "GET", path, nil).want(http.StatusOK).decode(&list)
			if list.Count != len(list.Items) {
				t.Fatalf("count %d for %d items", list.Count, len(list.Items))
			}
			return list.Items
		}
		summary := func(cs []contributor) string {
			var parts []string
			for _, c := range cs {
				name := map[string]string{s.admin.ID: "admin", editor.ID: "editor", commenter.ID: "commenter"}[c.User.ID]
				parts = append(parts, fmt.Sprintf("%s:%s:%d", name, c.ActionType, c.Count))
			}
			return strings.Join(parts, ",")
		}

		// Opened, not yet edited: its author alone.
		if got := summary(read(editor.Token)); got != "admin:edit:1" {
			t.Errorf("fresh change request contributors = %s", got)
		}
		// Two edits by the editor, one by the admin, a comment by the commenter and by the editor.
		e.updatePage(editor.Token, target(s.id, cr), page, map[string]any{"markdown": "one"}).ok(nil)
		e.updatePage(editor.Token, target(s.id, cr), page, map[string]any{"markdown": "two"}).ok(nil)
		e.updatePage(s.admin.Token, target(s.id, cr), page, map[string]any{"markdown": "three"}).ok(nil)
		comments := "/spaces/" + s.id + "/change-requests/" + cr + "/comments"
		e.call(commenter.Token, "POST", comments, `{"body":{"markdown":"Looks good"}}`).want(http.StatusOK)
		e.call(editor.Token, "POST", comments, `{"body":{"markdown":"Thanks"}}`).want(http.StatusOK)
		got := read(commenter.Token)
		if sum := summary(got); sum != "admin:edit:2,editor:edit:2,commenter:comment:1" {
			t.Errorf("contributors = %s", sum)
		}
		for _, c := range got {
			if c.UpdatedAt == "" {
				t.Errorf("contributor %s has no updatedAt", c.User.ID)
			}
		}

		// GraphQL answers the same, also from a list of change requests.
		var data struct {
			Space struct {
				ChangeRequest struct {
					Contributors []struct {
						User       struct{ ID string }
						Count      int
						ActionType string
					}
				}
			}
		}
		e.gql(editor.Token, `query($s: ID!, $cr: ID!) { space(id: $s) { changeRequest(id: $cr) { contributors { user { id } count actionType updatedAt } } } }`,
			map[string]any{"s": s.id, "cr": cr}).ok(&data)
		var gqlSum []string
		for _, c := range data.Space.ChangeRequest.Contributors {
			gqlSum = append(gqlSum, fmt.Sprintf("%s:%s:%d", c.User.ID, c.ActionType, c.Count))
		}
		want := fmt.Sprintf("%s:edit:2,%s:edit:2,%s:comment:1", s.admin.ID, editor.ID, commenter.ID)
		if strings.Join(gqlSum, ",") != want {
			t.Errorf("GraphQL contributors = %v, want %s", gqlSum, want)
		}

		// Unknown, another space's, another organization's: 404; paging: 400.
		e.call(s.admin.Token, "GET", "/spaces/"+s.id+"/change-requests/aaaaaaaaaaaaaaaaaaaa/contributors", nil).wantError(http.StatusNotFound)
		other := e.call(s.admin.Token, "POST", "/orgs/"+s.org+"/spaces", map[string]any{"title": "Other"}).want(http.StatusCreated).object()["id"].(string)
		e.call(s.admin.Token, "GET", "/spaces/"+other+"/change-requests/"+cr+"/contributors", nil).wantError(http.StatusNotFound)
		_, outsider := e.org("Other", "admin@other.test")
		e.call(outsider.Token, "GET", path, nil).wantError(http.StatusNotFound)
		if msg := e.call(s.admin.Token, "GET", path+"?page=abc", nil).wantError(http.StatusBadRequest); !strings.Contains(msg, "page") {
			t.Errorf("page message %q does not name page", msg)
		}
	})
}

// semanticChanges is a RevisionSemanticChanges answer, as the tests read it.
type semanticChanges struct {
	MergedFrom *struct{ ID string }
	Changes    []struct {
		Type string
		Page struct {
			ID, Type, Title string
		}
		Parent *struct {
			Before, After *struct{ ID string }
		}
		Attributes map[string]struct{ Before, After *string }
	}
	More int
}

// reset empties the answer before a new one is decoded into it.
func (c *semanticChanges) reset() *semanticChanges {
	*c = semanticChanges{}
	return c
}

// summary names each change as type:title, with a move's parents and an edit's attributes.
func (c semanticChanges) summary() string {
	var parts []string
	for _, ch := range c.Changes {
		s := ch.Type + ":" + ch.Page.Title
		if ch.Parent != nil {
			s += fmt.Sprintf("(from %v to %v)", ch.Parent.Before != nil, ch.Parent.After != nil)
		}
		var names []string
		for name, a := range ch.Attributes {
			names = append(names, fmt.Sprintf("%s=%s>%s", name, derefOr(a.Before), derefOr(a.After)))
		}
		slices.Sort(names)
		if len(names) > 0 {
			s += "[" + strings.Join(names, ";") + "]"
		}
		parts = append(parts, s)
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

func derefOr(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

func TestSemanticChanges(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		space := target(s.id, "")
		home := s.create(space, map[string]any{"title": "Home", "markdown": "Hello"}).Page.ID
		guide := s.create(space, map[string]any{"title": "Guide", "parent": home}).Page.ID
		old := s.create(space, map[string]any{"title": "Old"}).Page.ID
		reader := e.member(s.org, "reader@acme.test", "read")

		cr := e.openChangeRequest(s.admin.Token, s.id, "Rework")
		crPath := "/spaces/" + s.id + "/change-requests/" + cr + "/changes"
		var got semanticChanges
		e.call(reader.Token, "GET", crPath, nil).want(http.StatusOK).decode(got.reset())
		if len(got.Changes) != 0 || got.More != 0 {
			t.Fatalf("unedited change request changes = %+v", got)
		}

		in := target(s.id, cr)
		s.create(in, map[string]any{"title": "New"})
		s.remove(in, old)
		s.move(in, guide, map[string]any{})
		s.update(in, home, map[string]any{"title": "Start", "markdown": "Hello again"})
		const want = "page_created:New, page_deleted:Old, page_edited:Start[document=Hello\n>Hello again\n;title=Home>Start], page_moved:Guide(from true to false)"
		e.call(reader.Token, "GET", crPath, nil).want(http.StatusOK).decode(got.reset())
		if sum := strings.ReplaceAll(got.summary(), "\n\n", "\n"); sum != want && got.summary() != strings.ReplaceAll(want, "\n", "") {
			t.Errorf("change request changes = %q, want %q", got.summary(), want)
		}
		crSummary := got.summary()

		// A limit keeps the first changes and counts the others.
		e.call(reader.Token, "GET", crPath+"?limit=1", nil).want(http.StatusOK).decode(got.reset())
		if len(got.Changes) != 1 || got.More != 3 {
			t.Errorf("limit=1: %d changes, more %d", len(got.Changes), got.More)
		}

		// Merged, the merge revision changed the same, and names the change request.
		var merged ctMergeResult
		e.call(s.admin.Token, "POST", "/spaces/"+s.id+"/change-requests/"+cr+"/merge", nil).want(http.StatusOK).decode(&merged)
		revPath := "/spaces/" + s.id + "/revisions/" + merged.Revision + "/changes"
		e.call(reader.Token, "GET", revPath, nil).want(http.StatusOK).decode(got.reset())
		if got.summary() != crSummary || got.MergedFrom == nil || got.MergedFrom.ID != cr {
			t.Errorf("merge revision changes = %q (merged from %+v), want %q", got.summary(), got.MergedFrom, crSummary)
		}
		// A plain edit of the space: one page edited.
		edit := s.update(space, guide, map[string]any{"title": "Tutorial"})
		e.call(reader.Token, "GET", "/spaces/"+s.id+"/revisions/"+edit.Revision.ID+"/changes", nil).want(http.StatusOK).decode(got.reset())
		if sum := got.summary(); sum != "page_edited:Tutorial[slug=guide>tutorial;title=Guide>Tutorial]" && sum != "page_edited:Tutorial[title=Guide>Tutorial]" {
			t.Errorf("space edit changes = %q", sum)
		}

		// GraphQL answers the same.
		var data struct {
			Space struct {
				RevisionByID struct {
					SemanticChanges struct {
						Changes []struct{ Type string }
						More    int
					}
				}
			}
		}
		e.gql(reader.Token, `query($s: ID!, $r: ID!) { space(id: $s) { revisionById(id: $r) { semanticChanges(limit: 2) { mergedFrom { id } more changes { type page { id title type } parent { before { id } after { id } } attributes { name before after } } } } } }`,
			map[string]any{"s": s.id, "r": merged.Revision}).ok(&data)
		if c := data.Space.RevisionByID.SemanticChanges; len(c.Changes) != 2 || c.More != 2 {
			t.Errorf("GraphQL semantic changes = %+v", c)
		}
		var crData struct {
			Space struct {
				ChangeRequest struct {
					Changes struct{ Changes []struct{ Type string } }
				}
			}
		}
		e.gql(reader.Token, `query($s: ID!, $cr: ID!) { space(id: $s) { changeRequest(id: $cr) { changes { changes { type } } } } }`,
			map[string]any{"s": s.id, "cr": cr}).ok(&crData)
		if n := len(crData.Space.ChangeRequest.Changes.Changes); n != 4 {
			t.Errorf("GraphQL change request changes: %d, want 4", n)
		}

		// Bad input: 400; unknown or another organization's: 404.
		for _, q := range []string{"?limit=-1", "?limit=abc", "?limit=101"} {
			if msg := e.call(reader.Token, "GET", crPath+q, nil).wantError(http.StatusBadRequest); !strings.Contains(msg, "limit") {
				t.Errorf("%s: message %q does not name limit", q, msg)
			}
		}
		e.call(reader.Token, "GET", "/spaces/"+s.id+"/revisions/aaaaaaaaaaaaaaaaaaaa/changes", nil).wantError(http.StatusNotFound)
		_, outsider := e.org("Other", "admin@other.test")
		e.call(outsider.Token, "GET", crPath, nil).wantError(http.StatusNotFound)
		e.call(outsider.Token, "GET", revPath, nil).wantError(http.StatusNotFound)
	})
}

func TestDocumentByID(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		reader := e.member(s.org, "reader@acme.test", "read")
		page := s.create(target(s.id, ""), map[string]any{"title": "Home", "markdown": "Hello **world**"}).Page.ID
		docID, _ := e.call(reader.Token, "GET", s.base("")+"/page/"+page, nil).want(http.StatusOK).object()["documentId"].(string)
		if docID == "" {
			t.Fatal("the page has no documentId")
		}
		path := "/spaces/" + s.id + "/documents/" + docID

		// The same document as the page's, in the contract's schema.
		got := e.call(reader.Token, "GET", path, nil).want(http.StatusOK)
		rev := e.call(reader.Token, "GET", "/spaces/"+s.id, nil).want(http.StatusOK).object()["revision"].(string)
		byPage := e.call(reader.Token, "GET", "/spaces/"+s.id+"/revisions/"+rev+"/page/"+page+"/document", nil).want(http.StatusOK)
		if string(got.Body) != string(byPage.Body) || !strings.Contains(string(got.Body), "world") {
			t.Errorf("document by id = %s, want the page's %s", got.Body, byPage.Body)
		}

		// GraphQL: the same tree; null for an unknown id.
		var data struct {
			Space struct{ DocumentByID json.RawMessage }
		}
		e.gql(reader.Token, `query($s: ID!, $d: ID!) { space(id: $s) { documentById: documentById(id: $d) } }`, map[string]any{"s": s.id, "d": docID}).ok(&data)
		if !strings.Contains(string(data.Space.DocumentByID), "world") {
			t.Errorf("GraphQL document = %s", data.Space.DocumentByID)
		}
		e.gql(reader.Token, `query($s: ID!, $d: ID!) { space(id: $s) { documentById: documentById(id: $d) } }`, map[string]any{"s": s.id, "d": "aaaaaaaaaaaaaaaaaaaa"}).ok(&data)
		if string(data.Space.DocumentByID) != "null" {
			t.Errorf("GraphQL unknown document = %s, want null", data.Space.DocumentByID)
		}

		// Unknown, another space's (even one the caller reads), another organization's: 404.
		e.call(reader.Token, "GET", "/spaces/"+s.id+"/documents/aaaaaaaaaaaaaaaaaaaa", nil).wantError(http.StatusNotFound)
		other := e.call(s.admin.Token, "POST", "/orgs/"+s.org+"/spaces", map[string]any{"title": "Other"}).want(http.StatusCreated).object()["id"].(string)
		e.call(reader.Token, "GET", "/spaces/"+other+"/documents/"+docID, nil).wantError(http.StatusNotFound)
		_, outsider := e.org("Other", "admin@other.test")
		e.call(outsider.Token, "GET", path, nil).wantError(http.StatusNotFound)

		// A document the space no longer holds is gone.
		s.remove(target(s.id, ""), page)
		e.call(reader.Token, "GET", path, nil).wantError(http.StatusNotFound)
	})
}

func TestComputedDocument(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		reader := e.member(s.org, "reader@acme.test", "read")
		e.call(s.admin.Token, "POST", "/orgs/"+s.org+"/openapi", specBody("petstore", refSpecV1)).want(http.StatusCreated)
		path := "/spaces/" + s.id + "/content/computed/document"
		source := func(props string) string {
			return `{"source":{"type":"builtin:openapi","dependencies":{"spec":{"ref":{"kind":"openapi","spec":"petstore"}}},"props":` + props + `},"seed":"x"}`
		}

		// The tag's operations, as an API-reference page shows them.
		got := e.call(reader.Token, "POST", path, source(`{"doc":"operations","page":"pets"}`)).want(http.StatusOK)
		if !strings.Contains(string(got.Body), `"object":"document"`) || !strings.Contains(string(got.Body), "List pets") {
			t.Errorf("computed operations document = %s", got.Body)
		}
		var data struct {
			Space struct{ ComputedDocument json.RawMessage }
		}
		e.gql(reader.Token, `query($s: ID!) { space(id: $s) { computedDocument(source: {type: "builtin:openapi", dependencies: {spec: {ref: {kind: "openapi", spec: "petstore"}}}, props: {doc: "operations", page: "pets"}}, seed: "x") } }`,
			map[string]any{"s": s.id}).ok(&data)
		if !strings.Contains(string(data.Space.ComputedDocument), "List pets") {
			t.Errorf("GraphQL computed document = %s", data.Space.ComputedDocument)
		}

		// Bad input: 400 naming the field; an unknown tag or specification, another organization: 404.
		for body, field := range map[string]string{
			`{"seed":"x"}`: "source",
			`{"source":{"type":"translation","dependencies":{"spec":{"ref":{"kind":"openapi","spec":"petstore"}}},"props":{"doc":"models"}},"seed":"x"}`: "source.type",
			source(`{"doc":"everything"}`):                                    "source.props.doc",
			source(`{"doc":"operations"}`):                                    "source.props.page",
			strings.Replace(source(`{"doc":"models"}`), `,"seed":"x"`, "", 1): "seed",
		} {
			if msg := e.call(reader.Token, "POST", path, body).wantError(http.StatusBadRequest); !strings.Contains(msg, field) {
				t.Errorf("%s: message %q does not name %s", body, msg, field)
			}
		}
		e.call(reader.Token, "POST", path, source(`{"doc":"operations","page":"nope"}`)).wantError(http.StatusNotFound)
		e.call(reader.Token, "POST", path, strings.Replace(source(`{"doc":"models"}`), "petstore", "missing", 1)).wantError(http.StatusNotFound)
		_, outsider := e.org("Other", "admin@other.test")
		e.call(outsider.Token, "POST", path, source(`{"doc":"models"}`)).wantError(http.StatusNotFound)
	})
}

// What a change request and a revision changed costs the same statements in a space of 5 pages
// and of 50: it follows the pages changed.
func TestSemanticChangesStatementsDoNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Counts", "admin@counts.test")
		measure := func(pages int) (cr, rev int64) {
			space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
			var first string
			for i := range pages {
				p := e.createPage(admin.Token, target(space, ""), map[string]any{"title": fmt.Sprintf("Page %d", i), "markdown": "Text"})
				if i == 0 {
					first = p
				}
			}
			change := e.openChangeRequest(admin.Token, space, "One edit")
			e.updatePage(admin.Token, target(space, change), first, map[string]any{"title": "Renamed", "markdown": "Changed"}).ok(nil)
			var n, m atomic.Int64
			e.callCounted(admin.Token, "GET", "/spaces/"+space+"/change-requests/"+change+"/changes", nil, &n).want(http.StatusOK)
			merged := e.call(admin.Token, "POST", "/spaces/"+space+"/change-requests/"+change+"/merge", nil).want(http.StatusOK).object()["revision"].(string)
			e.callCounted(admin.Token, "GET", "/spaces/"+space+"/revisions/"+merged+"/changes", nil, &m).want(http.StatusOK)
			return n.Load(), m.Load()
		}
		fewCR, fewRev := measure(5)
		manyCR, manyRev := measure(50)
		if fewCR != manyCR || fewRev != manyRev || fewCR == 0 {
			t.Errorf("statements: change request %d → %d, revision %d → %d (5 → 50 pages)", fewCR, manyCR, fewRev, manyRev)
		}
		t.Logf("statements: change request %d, revision %d", manyCR, manyRev)
	})
}

// getComputedRevision: a specification's pages, one computed page per tag then the models', with
// ids the seed makes (the same seed, the same ids); the same through GraphQL; bad input is a 400
// naming the field, and another organization's caller gets 404.
func TestComputedRevision(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newCtSpace(e)
		reader := e.member(s.org, "reader@acme.test", "read")
		e.call(s.admin.Token, "POST", "/orgs/"+s.org+"/openapi", specBody("petstore", refSpecV1)).want(http.StatusCreated)
		path := "/spaces/" + s.id + "/content/computed/revision"
		body := func(models, seed string) string {
			return `{"source":{"type":"builtin:openapi","dependencies":{"spec":{"ref":{"kind":"openapi","spec":"petstore"}}},"props":{"models":` + models + `}},"seed":"` + seed + `"}`
		}
		type computed struct {
			Pages                   []struct{ ID, Title, Type, Path, Markdown string }
			Files, ReusableContents []any
		}
		var with, again, other, without computed
		e.call(reader.Token, "POST", path, body("true", "s1")).want(http.StatusOK).decode(&with)
		if n := len(with.Pages); n < 2 || with.Pages[n-1].Title != "Models" || with.Pages[0].Title != "pets" || !strings.Contains(with.Pages[0].Markdown, "List pets") ||
			with.Pages[0].Type != "document" || with.Files == nil || with.ReusableContents == nil {
			t.Fatalf("computed revision = %+v", with)
		}
		e.call(reader.Token, "POST", path, body("true", "s1")).want(http.StatusOK).decode(&again)
		e.call(reader.Token, "POST", path, body("true", "s2")).want(http.StatusOK).decode(&other)
		if again.Pages[0].ID != with.Pages[0].ID || other.Pages[0].ID == with.Pages[0].ID {
			t.Errorf("ids: %s, again %s, another seed %s: want stable per seed", with.Pages[0].ID, again.Pages[0].ID, other.Pages[0].ID)
		}
		e.call(reader.Token, "POST", path, body("false", "s1")).want(http.StatusOK).decode(&without)
		if len(without.Pages) != len(with.Pages)-1 {
			t.Errorf("without models: %d pages, with: %d", len(without.Pages), len(with.Pages))
		}

		var data struct {
			Space struct{ ComputedRevision computed }
		}
		e.gql(reader.Token, `query($s: ID!) { space(id: $s) { computedRevision(source: {type: "builtin:openapi", dependencies: {spec: {ref: {kind: "openapi", spec: "petstore"}}}, props: {models: true}}, seed: "s1") } }`,
			map[string]any{"s": s.id}).ok(&data)
		if got := data.Space.ComputedRevision; len(got.Pages) != len(with.Pages) || got.Pages[0].ID != with.Pages[0].ID {
			t.Errorf("GraphQL computed revision = %+v", got)
		}

		for b, field := range map[string]string{
			`{"seed":"x"}`: "source",
			`{"source":{"type":"builtin:translation","dependencies":{},"props":{}},"seed":"x"}`:                                                "source.type",
			`{"source":{"type":"builtin:openapi","dependencies":{"spec":{"ref":{"kind":"openapi","spec":"petstore"}}},"props":{}},"seed":"x"}`: "source.props.models",
			strings.Replace(body("true", "x"), `,"seed":"x"`, "", 1):                                                                           "seed",
		} {
			if msg := e.call(reader.Token, "POST", path, b).wantError(http.StatusBadRequest); !strings.Contains(msg, field) {
				t.Errorf("%s: message %q does not name %s", b, msg, field)
			}
		}
		e.call(reader.Token, "POST", path, strings.Replace(body("true", "x"), "petstore", "missing", 1)).wantError(http.StatusNotFound)
		_, outsider := e.org("Other", "admin@other.test")
		e.call(outsider.Token, "POST", path, body("true", "x")).wantError(http.StatusNotFound)
	})
}
