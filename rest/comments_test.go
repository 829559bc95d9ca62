package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// discussionOrg is an organization with a space and a page, and a member of each useful role.
type discussionOrg struct {
	id, space, page                   string
	admin, commenter, reader, outside account
}

func (e *env) discussionOrg() discussionOrg {
	e.t.Helper()
	orgID, admin := e.org("Talk", "admin@talk.test")
	_, outside := e.org("Elsewhere", "admin@elsewhere.test")
	o := discussionOrg{id: orgID, admin: admin, outside: outside,
		commenter: e.member(orgID, "commenter@talk.test", "comment"), reader: e.member(orgID, "reader@talk.test", "read")}
	o.space = e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Talk"}`).want(http.StatusCreated).object()["id"].(string)
	o.page = e.createPage(admin.Token, target(o.space, ""), map[string]any{"title": "Guide", "markdown": "# Guide\n\nText"})
	return o
}

// commentBody is a comment's body as REST shows it.
type commentBody struct {
	Markdown *string        `json:"markdown"`
	Document map[string]any `json:"document"`
}

type restComment struct {
	ID       string
	Status   string
	PostedBy struct{ ID string }
	EditedAt *string
	Replies  int
	Repliers []struct {
		Count int
		User  struct{ ID string }
	}
	Reactions []struct {
		Emoji string
		Count int
		Users []struct{ User struct{ ID string } }
	}
	Body   commentBody
	Target struct {
		Space, Revision string
		ChangeRequest   *string
		Review          *string
		Page            *struct{ ID string }
		Node            *struct{ ID string }
		TableCell       *struct{ Record, Definition string }
	}
	Permissions struct{ View, Edit, Reply, Delete bool }
	ResolvedAt  *string
	ResolvedBy  *struct{ ID string }
}

func (e *env) comment(token, path string) restComment {
	e.t.Helper()
	var c restComment
	e.call(token, "GET", path, nil).want(http.StatusOK).decode(&c)
	return c
}

func TestCommentLifecycle(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := e.discussionOrg()
		base := "/spaces/" + o.space + "/comments"
		var c restComment
		e.call(o.commenter.Token, "POST", base, fmt.Sprintf(`{"body":{"markdown":"Hello **world**"},"page":%q,"node":"n1","tableCell":{"record":"r","definition":"d"}}`, o.page)).
			want(http.StatusOK).decode(&c)
		space := e.call(o.admin.Token, "GET", "/spaces/"+o.space, nil).want(http.StatusOK).object()
		if c.Status != "open" || c.PostedBy.ID != o.commenter.ID || c.Target.Space != o.space || c.Target.Revision != space["revision"] ||
			c.Target.Page == nil || c.Target.Page.ID != o.page || c.Target.Node.ID != "n1" || c.Target.TableCell.Record != "r" || c.Target.ChangeRequest != nil {
			t.Fatalf("posted comment = %+v", c)
		}
		if *c.Body.Markdown != "Hello **world**" || !c.Permissions.Edit || !c.Permissions.Delete || !c.Permissions.Reply {
			t.Errorf("body %+v, permissions %+v", c.Body, c.Permissions)
		}
		if p := e.comment(o.admin.Token, base+"/"+c.ID).Permissions; p.Edit || !p.Delete || !p.Reply {
			t.Errorf("admin's permissions on another's comment = %+v, want delete and reply only", p)
		}
		if p := e.comment(o.reader.Token, base+"/"+c.ID).Permissions; !p.View || p.Edit || p.Reply || p.Delete {
			t.Errorf("reader's permissions = %+v, want view only", p)
		}

		// Formats: markdown converted to a document, a document shown as text.
		if d := e.comment(o.reader.Token, base+"/"+c.ID+"?format=document").Body; d.Document["object"] != "document" || d.Markdown != nil {
			t.Errorf("format=document body = %+v", d)
		}
		doc := `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Plain","marks":[]}]}]}]}`
		docID := e.call(o.commenter.Token, "POST", base, `{"body":{"document":`+doc+`}}`).want(http.StatusOK).object()["id"].(string)
		if b := e.comment(o.reader.Token, base+"/"+docID+"?format=markdown").Body; b.Markdown == nil || *b.Markdown != "Plain" {
			t.Errorf("document as markdown = %+v", b)
		}
		if b := e.comment(o.reader.Token, base+"/"+docID).Body; b.Document == nil {
			t.Errorf("document without format = %+v, want it as posted", b)
		}
		emptyID := e.call(o.commenter.Token, "POST", base, `{"body":{}}`).want(http.StatusOK).object()["id"].(string)
		if b := e.comment(o.reader.Token, base+"/"+emptyID).Body; b.Markdown != nil || b.Document != nil {
			t.Errorf("empty body = %+v", b)
		}

		// Editing: only the author changes the text.
		e.call(o.admin.Token, "PUT", base+"/"+c.ID, `{"body":{"markdown":"Hijacked"}}`).wantError(http.StatusForbidden)
		var edited restComment
		e.call(o.commenter.Token, "PUT", base+"/"+c.ID, `{"body":{"markdown":"Edited"}}`).want(http.StatusOK).decode(&edited)
		if *edited.Body.Markdown != "Edited" || edited.EditedAt == nil {
			t.Errorf("edited = %+v", edited)
		}

		// Resolving needs the comment role; unresolving clears who and when.
		e.call(o.reader.Token, "PUT", base+"/"+c.ID, `{"resolved":true}`).wantError(http.StatusForbidden)
		var resolved restComment
		e.call(o.admin.Token, "PUT", base+"/"+c.ID, `{"resolved":true}`).want(http.StatusOK).decode(&resolved)
		if resolved.Status != "resolved" || resolved.ResolvedAt == nil || resolved.ResolvedBy == nil || resolved.ResolvedBy.ID != o.admin.ID {
			t.Errorf("resolved = %+v", resolved)
		}
		var list struct {
			Items []restComment
			Count int
		}
		e.call(o.reader.Token, "GET", base+"?status=resolved", nil).want(http.StatusOK).decode(&list)
		if list.Count != 1 || list.Items[0].ID != c.ID {
			t.Errorf("resolved list = %+v", list)
		}
		e.call(o.reader.Token, "GET", base+"?status=open", nil).want(http.StatusOK).decode(&list)
		if list.Count != 2 {
			t.Errorf("open list count = %d, want 2", list.Count)
		}
		var reopened restComment
		e.call(o.commenter.Token, "PUT", base+"/"+c.ID, `{"resolved":false}`).want(http.StatusOK).decode(&reopened)
		if reopened.Status != "open" || reopened.ResolvedAt != nil || reopened.ResolvedBy != nil {
			t.Errorf("reopened = %+v", reopened)
		}

		// Reactions are per user and idempotent.
		e.call(o.commenter.Token, "PUT", base+"/"+c.ID, `{"addedReactions":["👍","👍"]}`).want(http.StatusOK)
		e.call(o.commenter.Token, "PUT", base+"/"+c.ID, `{"addedReactions":["👍"],"removedReactions":["🎉"]}`).want(http.StatusOK)
		var reacted restComment
		e.call(o.admin.Token, "PUT", base+"/"+c.ID, `{"addedReactions":["👍","🎉"]}`).want(http.StatusOK).decode(&reacted)
		if len(reacted.Reactions) != 2 || reacted.Reactions[0].Emoji != "👍" || reacted.Reactions[0].Count != 2 || reacted.Reactions[1].Count != 1 {
			t.Fatalf("reactions = %+v", reacted.Reactions)
		}
		e.call(o.admin.Token, "PUT", base+"/"+c.ID, `{"removedReactions":["👍"]}`).want(http.StatusOK).decode(&reacted)
		if reacted.Reactions[0].Count != 1 || reacted.Reactions[0].Users[0].User.ID != o.commenter.ID {
			t.Errorf("after removing = %+v", reacted.Reactions)
		}

		// Replies keep the comment's counts true.
		replies := base + "/" + c.ID + "/replies"
		first := e.call(o.commenter.Token, "POST", replies, `{"body":{"markdown":"One"}}`).want(http.StatusOK).object()
		if first["object"] != "comment-reply" {
			t.Errorf("reply = %v", first)
		}
		e.call(o.commenter.Token, "POST", replies, `{"body":{"markdown":"Two"}}`).want(http.StatusOK)
		adminReply := e.call(o.admin.Token, "POST", replies, `{"body":{"markdown":"Three"}}`).want(http.StatusOK).object()["id"].(string)
		e.call(o.reader.Token, "POST", replies, `{"body":{"markdown":"No"}}`).wantError(http.StatusForbidden)
		got := e.comment(o.reader.Token, base+"/"+c.ID)
		if got.Replies != 3 || len(got.Repliers) != 2 || got.Repliers[0].User.ID != o.admin.ID || got.Repliers[1].Count != 2 {
			t.Errorf("replies %d, repliers %+v", got.Replies, got.Repliers)
		}
		var replyList struct {
			Items []struct {
				ID   string
				Body commentBody
			}
			Count int
		}
		e.call(o.reader.Token, "GET", replies, nil).want(http.StatusOK).decode(&replyList)
		if replyList.Count != 3 || *replyList.Items[0].Body.Markdown != "One" {
			t.Errorf("replies = %+v", replyList)
		}
		e.call(o.reader.Token, "GET", replies+"/"+adminReply, nil).want(http.StatusOK)
		e.call(o.commenter.Token, "PUT", replies+"/"+adminReply, `{"body":{"markdown":"Mine now"}}`).wantError(http.StatusForbidden)
		e.call(o.admin.Token, "PUT", replies+"/"+adminReply, `{"body":{"markdown":"Fixed"}}`).want(http.StatusOK)
		e.call(o.commenter.Token, "DELETE", replies+"/"+adminReply, nil).wantError(http.StatusForbidden)
		e.call(o.admin.Token, "DELETE", replies+"/"+first["id"].(string), nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", replies+"/"+first["id"].(string), nil).want(http.StatusNoContent)
		if got := e.comment(o.reader.Token, base+"/"+c.ID); got.Replies != 2 {
			t.Errorf("replies after delete = %d, want 2", got.Replies)
		}

		// Filters, order, counters and commenters.
		e.call(o.reader.Token, "GET", base+"?authors="+o.commenter.ID, nil).want(http.StatusOK).decode(&list)
		if list.Count != 3 {
			t.Errorf("by commenter = %d, want 3", list.Count)
		}
		e.call(o.reader.Token, "GET", base+"?targetPage="+o.page+"&order=asc", nil).want(http.StatusOK).decode(&list)
		if list.Count != 1 || list.Items[0].ID != c.ID {
			t.Errorf("on the page = %+v", list)
		}
		e.call(o.reader.Token, "GET", base+"?order=asc", nil).want(http.StatusOK).decode(&list)
		if list.Items[0].ID != c.ID || list.Items[2].ID != emptyID {
			t.Errorf("ascending order = %v", list.Items)
		}
		if n := e.call(o.reader.Token, "GET", "/spaces/"+o.space, nil).want(http.StatusOK).object()["comments"]; n != float64(3) {
			t.Errorf("space comments = %v, want 3", n)
		}
		var commenters struct {
			Items []struct{ ID string }
			Count int
		}
		e.call(o.reader.Token, "GET", "/spaces/"+o.space+"/commenters", nil).want(http.StatusOK).decode(&commenters)
		if commenters.Count != 2 {
			t.Errorf("commenters = %+v, want the commenter and the admin", commenters)
		}

		// Deleting: the author or an admin; missing answers 204 too.
		e.call(o.reader.Token, "DELETE", base+"/"+c.ID, nil).wantError(http.StatusForbidden)
		e.call(o.commenter.Token, "DELETE", base+"/"+c.ID, nil).want(http.StatusNoContent)
		e.call(o.commenter.Token, "DELETE", base+"/"+c.ID, nil).want(http.StatusNoContent)
		e.call(o.reader.Token, "GET", base+"/"+c.ID, nil).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "DELETE", base+"/"+docID, nil).want(http.StatusNoContent)
	})
}

func TestCommentsRefuseBadInputAndOutsiders(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := e.discussionOrg()
		base := "/spaces/" + o.space + "/comments"
		id := e.call(o.commenter.Token, "POST", base, `{"body":{"markdown":"Hi"}}`).want(http.StatusOK).object()["id"].(string)
		bad := []struct{ method, path, body, field string }{
			{"POST", base, `{}`, "body"},
			{"POST", base, `{"body":{"markdown":1}}`, "body.markdown"},
			{"POST", base, `{"body":{"markdown":"a","document":{"object":"document","data":{},"nodes":[]}}}`, "body"},
			{"POST", base, `{"body":{"document":{"object":"nope"}}}`, "body.document"},
			{"POST", base, `{"body":{"html":"<b>"}}`, "body.html"},
			{"POST", base, `{"body":{},"page":"missing"}`, "page"},
			{"POST", base, `{"body":{},"node":"n"}`, "node"},
			{"POST", base, `{"body":{},"page":"PAGE","tableCell":{"record":"r","definition":"d"}}`, "tableCell"},
			{"PUT", base + "/" + id, `{"addedReactions":[""]}`, "addedReactions[0]"},
			{"PUT", base + "/" + id, `{"resolved":"yes"}`, "resolved"},
			{"GET", base + "?status=closed", "", "status"},
			{"GET", base + "?order=up", "", "order"},
			{"GET", base + "?format=html", "", "format"},
			{"GET", base + "?limit=5000", "", "limit"},
			{"GET", base + "?page=bogus", "", "page"},
		}
		for _, b := range bad {
			var body any
			if b.body != "" {
				body = strings.ReplaceAll(b.body, "PAGE", o.page)
			}
			msg := e.call(o.commenter.Token, b.method, b.path, body).wantError(http.StatusBadRequest)
			if !strings.HasPrefix(msg, b.field+":") {
				t.Errorf("%s %s %s: message %q does not name %s", b.method, b.path, b.body, msg, b.field)
			}
		}
		for _, path := range []string{base, base + "/" + id, base + "/" + id + "/replies", "/spaces/" + o.space + "/commenters"} {
			e.call(o.outside.Token, "GET", path, nil).wantError(http.StatusNotFound)
		}
		e.call(o.outside.Token, "POST", base, `{"body":{}}`).wantError(http.StatusNotFound)
		e.call(o.outside.Token, "DELETE", base+"/"+id, nil).want(http.StatusNoContent)
		e.call(o.reader.Token, "GET", base+"/"+id, nil).want(http.StatusOK)

		// GraphQL says the same.
		g := e.gql(o.outside.Token, `mutation($s: ID!) { postComment(target: {spaceId: $s}, input: {body: {markdown: "x"}}) { id } }`, map[string]any{"s": o.space})
		if g.code() != "NOT_FOUND" {
			t.Errorf("GraphQL outsider code = %s", g.code())
		}
		g = e.gql(o.commenter.Token, `mutation($s: ID!) { postComment(target: {spaceId: $s}, input: {body: {markdown: "x"}, node: "n"}) { id } }`, map[string]any{"s": o.space})
		if g.code() != "INVALID" {
			t.Errorf("GraphQL bad anchor code = %s", g.code())
		}
	})
}

func TestChangeRequestCommentsThroughBothDoors(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := e.discussionOrg()
		cr := e.openChangeRequest(o.admin.Token, o.space, "Edits")
		base := "/spaces/" + o.space + "/change-requests/" + cr
		var c restComment
		e.call(o.commenter.Token, "POST", base+"/comments?format=document", fmt.Sprintf(`{"body":{"markdown":"On the change"},"page":%q}`, o.page)).want(http.StatusOK).decode(&c)
		if c.Target.ChangeRequest == nil || *c.Target.ChangeRequest != cr || c.Body.Document == nil {
			t.Fatalf("change request comment = %+v", c)
		}
		// The two discussions are apart.
		e.call(o.reader.Token, "GET", "/spaces/"+o.space+"/comments/"+c.ID, nil).wantError(http.StatusNotFound)
		if n := e.call(o.reader.Token, "GET", "/spaces/"+o.space, nil).want(http.StatusOK).object()["comments"]; n != float64(0) {
			t.Errorf("space comments = %v, want 0", n)
		}
		if n := e.call(o.reader.Token, "GET", base, nil).want(http.StatusOK).object()["comments"]; n != float64(1) {
			t.Errorf("change request comments = %v, want 1", n)
		}

		// GraphQL posts a reply and reads the same discussion.
		var posted struct{ PostCommentReply struct{ ID string } }
		e.gql(o.admin.Token, `mutation($s: ID!, $cr: ID!, $c: ID!) { postCommentReply(target: {spaceId: $s, changeRequestId: $cr}, commentId: $c, input: {body: {markdown: "Agreed"}}) { id } }`,
			map[string]any{"s": o.space, "cr": cr, "c": c.ID}).ok(&posted)
		var data struct {
			Space struct {
				ChangeRequest struct {
					Comments    int
					CommentList struct {
						TotalCount int
						Nodes      []struct {
							ID       string
							Replies  int
							Repliers []struct{ User struct{ ID string } }
							Body     struct{ Markdown string }
							Target   struct{ ChangeRequest string }
						}
					}
					Commenters struct{ TotalCount int }
				}
			}
		}
		e.gql(o.reader.Token, `query($s: ID!, $cr: ID!) { space(id: $s) { changeRequest(id: $cr) { comments commentList(format: MARKDOWN) { totalCount nodes { id replies repliers { user { id } } body { markdown } target { changeRequest } } } commenters { totalCount } } } }`,
			map[string]any{"s": o.space, "cr": cr}).ok(&data)
		got := data.Space.ChangeRequest
		if got.Comments != 1 || got.CommentList.TotalCount != 1 || got.CommentList.Nodes[0].ID != c.ID || got.CommentList.Nodes[0].Replies != 1 ||
			got.CommentList.Nodes[0].Repliers[0].User.ID != o.admin.ID || got.CommentList.Nodes[0].Body.Markdown != "On the change" || got.Commenters.TotalCount != 2 {
			t.Errorf("GraphQL change request discussion = %+v", got)
		}
		var reply restComment
		e.call(o.reader.Token, "GET", base+"/comments/"+c.ID+"/replies/"+posted.PostCommentReply.ID, nil).want(http.StatusOK).decode(&reply)
		if *reply.Body.Markdown != "Agreed" {
			t.Errorf("reply read through REST = %+v", reply)
		}
		var resolved struct {
			UpdateComment struct {
				Status     string
				ResolvedBy struct{ ID string }
			}
		}
		e.gql(o.admin.Token, `mutation($s: ID!, $cr: ID!, $c: ID!) { updateComment(target: {spaceId: $s, changeRequestId: $cr}, commentId: $c, input: {resolved: true, addedReactions: ["🚀"]}) { status resolvedBy { id } } }`,
			map[string]any{"s": o.space, "cr": cr, "c": c.ID}).ok(&resolved)
		if resolved.UpdateComment.Status != "RESOLVED" || resolved.UpdateComment.ResolvedBy.ID != o.admin.ID || e.comment(o.reader.Token, base+"/comments/"+c.ID).Status != "resolved" {
			t.Error("resolved through GraphQL, but REST shows it open")
		}
		var deleted struct{ DeleteComment bool }
		e.gql(o.commenter.Token, `mutation($s: ID!, $cr: ID!, $c: ID!) { deleteComment(target: {spaceId: $s, changeRequestId: $cr}, commentId: $c) }`,
			map[string]any{"s": o.space, "cr": cr, "c": c.ID}).ok(&deleted)
		if !deleted.DeleteComment {
			t.Error("deleteComment = false, want true")
		}
		e.call(o.reader.Token, "GET", base+"/comments/"+c.ID, nil).wantError(http.StatusNotFound)
	})
}

// TestCommentListStatements lists comments with authors, reactions and repliers: the same number
// of statements for 20 comments as for 200.
func TestCommentListStatements(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		o := e.discussionOrg()
		base := "/spaces/" + o.space + "/comments"
		people := []account{o.admin, o.commenter}
		for i := range 5 {
			people = append(people, e.member(o.id, fmt.Sprintf("talker%d@talk.test", i), "comment"))
		}
		count := func(want int) int64 {
			var n atomic.Int64
			var list struct{ Items []restComment }
			e.callCounted(o.reader.Token, "GET", base+"?limit=1000", nil, &n).want(http.StatusOK).decode(&list)
			if len(list.Items) != want {
				t.Fatalf("listed %d comments, want %d", len(list.Items), want)
			}
			for _, c := range list.Items {
				if c.Replies != 1 || len(c.Repliers) != 1 || len(c.Reactions) != 1 || c.PostedBy.ID == "" {
					t.Fatalf("comment %+v lacks its reply, replier or reaction", c)
				}
			}
			return n.Load()
		}
		post := func(n int) {
			for i := range n {
				author, other := people[i%len(people)], people[(i+1)%len(people)]
				id := e.call(author.Token, "POST", base, fmt.Sprintf(`{"body":{"markdown":"Comment %d"}}`, i)).want(http.StatusOK).object()["id"].(string)
				e.call(other.Token, "POST", base+"/"+id+"/replies", `{"body":{"markdown":"Reply"}}`).want(http.StatusOK)
				e.call(other.Token, "PUT", base+"/"+id, `{"addedReactions":["👍"]}`).want(http.StatusOK)
			}
		}
		post(20)
		few := count(20)
		post(180)
		many := count(200)
		if few != many {
			t.Errorf("statements grew: %d (20 comments) → %d (200)", few, many)
		}
	})
}
