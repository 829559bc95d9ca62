package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

type restReview struct {
	ID          string
	Revision    string
	Status      string
	Outdated    bool
	Reviewer    struct{ ID string }
	RequestedBy *struct{ ID string }
	Comment     *restComment
}

func TestRequestedReviewers(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := e.discussionOrg()
		reviewer := e.member(o.id, "reviewer@talk.test", "review")
		cr := e.openChangeRequest(o.admin.Token, o.space, "Edits")
		base := "/spaces/" + o.space + "/change-requests/" + cr + "/requested-reviewers"
		var asked struct {
			Users []struct {
				Object, Kind, Revision string
				User, RequestedBy      struct{ ID string }
			}
		}
		e.call(o.admin.Token, "POST", base, fmt.Sprintf(`{"users":[%q,%q],"subject":"Please review","description":{"object":"document","data":{},"nodes":[]}}`, reviewer.ID, reviewer.ID)).
			want(http.StatusOK).decode(&asked)
		got := e.call(o.reader.Token, "GET", "/spaces/"+o.space+"/change-requests/"+cr, nil).want(http.StatusOK).object()
		if len(asked.Users) != 1 || asked.Users[0].Kind != "user" || asked.Users[0].User.ID != reviewer.ID || asked.Users[0].RequestedBy.ID != o.admin.ID ||
			asked.Users[0].Revision != got["revision"] || got["subject"] != "Please review" || got["description"] == nil {
			t.Fatalf("asked %+v; change request %v", asked, got)
		}
		var list struct{ Count int }
		e.call(o.reader.Token, "GET", base, nil).want(http.StatusOK).decode(&list)
		if list.Count != 1 {
			t.Errorf("requested reviewers = %d, want 1", list.Count)
		}
		e.call(o.reader.Token, "GET", "/spaces/"+o.space+"/change-requests?requestedReviewer="+reviewer.ID, nil).want(http.StatusOK).decode(&list)
		if list.Count != 1 {
			t.Errorf("change requests awaiting the reviewer = %d, want 1", list.Count)
		}

		// Only users who can review the space may be asked.
		for _, body := range []string{
			fmt.Sprintf(`{"users":[%q]}`, o.commenter.ID), fmt.Sprintf(`{"users":[%q]}`, o.outside.ID), `{"users":["nobody"]}`,
		} {
			if msg := e.call(o.admin.Token, "POST", base, body).wantError(http.StatusBadRequest); !strings.HasPrefix(msg, "users[0]:") {
				t.Errorf("%s: message %q", body, msg)
			}
		}
		e.call(o.admin.Token, "POST", base, `{"subject":"x"}`).wantError(http.StatusBadRequest)
		e.call(o.admin.Token, "POST", base, `{"users":[],"subject":"`+strings.Repeat("s", 101)+`"}`).wantError(http.StatusBadRequest)
		e.call(o.commenter.Token, "POST", base, fmt.Sprintf(`{"users":[%q]}`, reviewer.ID)).wantError(http.StatusForbidden)
		e.call(o.outside.Token, "GET", base, nil).wantError(http.StatusNotFound)

		// Withdrawing: editors, the author, or the reviewer themself.
		e.call(o.commenter.Token, "DELETE", base+"/"+reviewer.ID, nil).wantError(http.StatusForbidden)
		e.call(reviewer.Token, "DELETE", base+"/"+reviewer.ID, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", base+"/"+reviewer.ID, nil).want(http.StatusNoContent)
		e.call(o.reader.Token, "GET", base, nil).want(http.StatusOK).decode(&list)
		if list.Count != 0 {
			t.Errorf("after removal = %d, want 0", list.Count)
		}

		// GraphQL asks and lists the same.
		var data struct {
			RequestReviewers struct {
				Users []struct{ User struct{ ID string } }
			}
		}
		e.gql(o.admin.Token, `mutation($s: ID!, $cr: ID!, $u: ID!) { requestReviewers(spaceId: $s, changeRequestId: $cr, input: {users: [$u]}) { users { user { id } } } }`,
			map[string]any{"s": o.space, "cr": cr, "u": reviewer.ID}).ok(&data)
		e.call(o.reader.Token, "GET", base, nil).want(http.StatusOK).decode(&list)
		if len(data.RequestReviewers.Users) != 1 || list.Count != 1 {
			t.Errorf("GraphQL request %+v; REST count %d", data, list.Count)
		}
	})
}

func TestReviews(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := e.discussionOrg()
		reviewer := e.member(o.id, "reviewer@talk.test", "review")
		cr := e.openChangeRequest(o.admin.Token, o.space, "Edits")
		e.updatePage(o.admin.Token, target(o.space, cr), o.page, map[string]any{"markdown": "# Guide\n\nBetter"}).ok(nil)
		base := "/spaces/" + o.space + "/change-requests/" + cr
		e.call(o.admin.Token, "POST", base+"/requested-reviewers", fmt.Sprintf(`{"users":[%q]}`, reviewer.ID)).want(http.StatusOK)

		res := e.call(reviewer.Token, "POST", base+"/reviews", `{"status":"changes-requested","comment":{"markdown":"Typo in the title"}}`).want(http.StatusCreated)
		var rv restReview
		res.decode(&rv)
		if res.Header.Get("Location") == "" || !strings.HasSuffix(res.Header.Get("Location"), "/reviews/"+rv.ID) {
			t.Errorf("Location = %q", res.Header.Get("Location"))
		}
		if rv.Status != "changes-requested" || rv.Outdated || rv.Reviewer.ID != reviewer.ID || rv.RequestedBy == nil || rv.RequestedBy.ID != o.admin.ID ||
			rv.Comment == nil || rv.Comment.Target.Review == nil || *rv.Comment.Target.Review != rv.ID {
			t.Fatalf("review = %+v", rv)
		}
		// The review's comment is part of the change request's discussion.
		if n := e.call(o.reader.Token, "GET", base, nil).want(http.StatusOK).object()["comments"]; n != float64(1) {
			t.Errorf("change request comments = %v, want 1", n)
		}
		e.call(reviewer.Token, "POST", base+"/reviews", `{"status":"maybe"}`).wantError(http.StatusBadRequest)
		e.call(reviewer.Token, "POST", base+"/reviews", `{}`).wantError(http.StatusBadRequest)
		e.call(o.commenter.Token, "POST", base+"/reviews", `{"status":"approved"}`).wantError(http.StatusForbidden)
		e.call(o.outside.Token, "POST", base+"/reviews", `{"status":"approved"}`).wantError(http.StatusNotFound)
		e.call(o.outside.Token, "GET", base+"/reviews/"+rv.ID, nil).wantError(http.StatusNotFound)
		e.call(o.reader.Token, "GET", base+"/reviews/missing", nil).wantError(http.StatusNotFound)

		// A new revision outdates the review.
		e.updatePage(o.admin.Token, target(o.space, cr), o.page, map[string]any{"markdown": "# Guide\n\nFixed"}).ok(nil)
		e.call(o.reader.Token, "GET", base+"/reviews/"+rv.ID+"?format=document", nil).want(http.StatusOK).decode(&rv)
		if !rv.Outdated || rv.Comment.Body.Document == nil {
			t.Errorf("after an edit, review = %+v, want outdated (and its comment as a document)", rv)
		}
		var approved struct {
			SubmitReview struct {
				ID       string
				Status   string
				Outdated bool
			}
		}
		e.gql(reviewer.Token, `mutation($s: ID!, $cr: ID!) { submitReview(spaceId: $s, changeRequestId: $cr, input: {status: APPROVED}) { id status outdated } }`,
			map[string]any{"s": o.space, "cr": cr}).ok(&approved)
		if approved.SubmitReview.Status != "APPROVED" || approved.SubmitReview.Outdated {
			t.Errorf("GraphQL review = %+v", approved)
		}
		var list struct {
			Items []restReview
			Count int
		}
		e.call(o.reader.Token, "GET", base+"/reviews", nil).want(http.StatusOK).decode(&list)
		if list.Count != 2 || list.Items[0].ID != approved.SubmitReview.ID {
			t.Errorf("reviews = %+v, want the approval first", list)
		}
		e.call(o.reader.Token, "GET", base+"/reviews?outdated=true", nil).want(http.StatusOK).decode(&list)
		if list.Count != 1 || list.Items[0].Status != "changes-requested" {
			t.Errorf("outdated reviews = %+v", list)
		}
		e.call(o.reader.Token, "GET", base+"/reviews?outdated=maybe", nil).wantError(http.StatusBadRequest)
	})
}

func TestMergeRules(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := e.discussionOrg()
		reviewer := e.member(o.id, "reviewer@talk.test", "review")
		bypasser := e.member(o.id, "lead@talk.test", "edit")
		open := func(subject string) string {
			cr := e.openChangeRequest(o.admin.Token, o.space, subject)
			e.updatePage(o.admin.Token, target(o.space, cr), o.page, map[string]any{"markdown": "# Guide\n\n" + subject}).ok(nil)
			return cr
		}
		merge := func(token, cr string) response {
			return e.call(token, "POST", "/spaces/"+o.space+"/change-requests/"+cr+"/merge", nil)
		}
		approve := func(token, cr string) {
			e.call(token, "POST", "/spaces/"+o.space+"/change-requests/"+cr+"/reviews", `{"status":"approved"}`).want(http.StatusCreated)
		}

		// The space's own rules.
		e.call(o.admin.Token, "PATCH", "/spaces/"+o.space, fmt.Sprintf(`{"mergeRules":{"type":"rules","rules":[{"rule":"require_specific_reviewers","users":[%q]},{"rule":"allow_bypass","users":[%q]}]}}`, reviewer.ID, bypasser.ID)).want(http.StatusOK)
		cr := open("First")
		if msg := merge(o.admin.Token, cr).wantError(http.StatusConflict); !strings.Contains(msg, "require_specific_reviewers") || !strings.Contains(msg, reviewer.ID) {
			t.Errorf("merge message = %q, want the rule and the reviewer", msg)
		}
		approve(o.admin.Token, cr) // the author's own approval does not count
		merge(o.admin.Token, cr).wantError(http.StatusConflict)
		approve(reviewer.Token, cr)
		if got := merge(o.admin.Token, cr).want(http.StatusOK).object(); got["result"] != "merge" {
			t.Errorf("merge = %v", got)
		}
		bypassed := open("Bypass")
		merge(bypasser.Token, bypassed).want(http.StatusOK)

		// An approval made before the last edit is outdated and does not count.
		stale := open("Stale")
		approve(reviewer.Token, stale)
		e.updatePage(o.admin.Token, target(o.space, stale), o.page, map[string]any{"markdown": "# Guide\n\nStale again"}).ok(nil)
		merge(o.admin.Token, stale).wantError(http.StatusConflict)

		// Inherited from the organization, through GraphQL too.
		e.call(o.admin.Token, "PATCH", "/spaces/"+o.space, `{"mergeRules":{"type":"inherit"}}`).want(http.StatusOK)
		e.call(o.admin.Token, "PATCH", "/orgs/"+o.id, `{"mergeRules":{"type":"rules","rules":[{"rule":"require_at_least_one_review"},{"rule":"require_change_request_description"}]}}`).want(http.StatusOK)
		g := e.gql(o.admin.Token, `mutation($s: ID!, $cr: ID!) { mergeChangeRequest(spaceId: $s, changeRequestId: $cr) { result } }`, map[string]any{"s": o.space, "cr": stale})
		if g.code() != "CONFLICT" || !strings.Contains(g.Errors[0].Message, "require_at_least_one_review") {
			t.Errorf("GraphQL merge = %+v", g.Errors)
		}
		approve(reviewer.Token, stale)
		if msg := merge(o.admin.Token, stale).wantError(http.StatusConflict); !strings.Contains(msg, "require_change_request_description") {
			t.Errorf("merge message = %q, want the description rule", msg)
		}
		e.call(o.admin.Token, "PATCH", "/spaces/"+o.space+"/change-requests/"+stale,
			`{"description":{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Why","marks":[]}]}]}]}}`).want(http.StatusOK)
		merge(o.admin.Token, stale).want(http.StatusOK)

		// A space with no rules merges whatever the organization says.
		e.call(o.admin.Token, "PATCH", "/spaces/"+o.space, `{"mergeRules":{"type":"none"}}`).want(http.StatusOK)
		merge(o.admin.Token, open("Free")).want(http.StatusOK)
	})
}
