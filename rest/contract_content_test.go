package rest_test

import (
	"net/http"
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

// The organization's change request list costs the same statements for 2 change requests in 2
// spaces and for 12 in 6.
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
			e.gqlCounted(reader.Token, `query($o: ID!) { organization(id: $o) { changeRequestList { nodes { id createdBy { id displayName } comments outdated } } } }`, map[string]any{"o": orgID}, &gql).ok(nil)
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
