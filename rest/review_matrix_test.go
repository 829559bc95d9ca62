package rest_test

import "strings"

// The permission matrix rows of comments, replies, reviewers and reviews.

func init() { matrix = append(matrix, reviewMatrix()...) }

// matrixDiscussion posts, as the admin, a comment with a reply on the space and, when there is a
// change request, on it too, and approves the change request.
func (e *env) matrixDiscussion(admin account, spaceID, changeRequestID string) (comment, reply, crComment, crReply, review string) {
	e.t.Helper()
	post := func(prefix string) (string, string) {
		c := e.call(admin.Token, "POST", prefix+"/comments", `{"body":{"markdown":"Fixture"}}`).want(200).object()["id"].(string)
		r := e.call(admin.Token, "POST", prefix+"/comments/"+c+"/replies", `{"body":{"markdown":"Reply"}}`).want(200).object()["id"].(string)
		return c, r
	}
	comment, reply = post("/spaces/" + spaceID)
	if changeRequestID != "" {
		prefix := "/spaces/" + spaceID + "/change-requests/" + changeRequestID
		crComment, crReply = post(prefix)
		review = e.call(admin.Token, "POST", prefix+"/reviews", `{"status":"approved"}`).want(201).object()["id"].(string)
	}
	return comment, reply, crComment, crReply, review
}

func reviewMatrix() []matrixCase {
	var rows []matrixCase
	discussions := []struct {
		prefix           string
		url              func(fixture) string
		comment, reply   func(fixture) string
		target, open     string // the GraphQL ContentTarget, and the query opening the discussion
		commentV, replyV string // the GraphQL variables holding the comment and reply ids
	}{
		{"/spaces/{spaceId}", space(""), func(f fixture) string { return f.comment }, func(f fixture) string { return f.reply },
			"{spaceId: $s}", "space(id: $s)", "$cm", "$rp"},
		{"/spaces/{spaceId}/change-requests/{changeRequestId}", func(f fixture) string { return "/spaces/" + f.space + "/change-requests/" + f.changeRequest },
			func(f fixture) string { return f.crComment }, func(f fixture) string { return f.crReply },
			"{spaceId: $s, changeRequestId: $cr}", "space(id: $s) { changeRequest(id: $cr)", "$ccm", "$crp"},
	}
	for _, d := range discussions {
		// closing braces for the opening query, and the variables it uses
		closing := " }"
		vars := "$s: ID!"
		if strings.Contains(d.open, "$cr") {
			closing, vars = " } }", "$s: ID!, $cr: ID!"
		}
		cm := vars + ", " + d.commentV + ": ID!"
		rp := cm + ", " + d.replyV + ": ID!"
		query := func(vs, field string) string { return "query(" + vs + ") { " + d.open + " { " + field + closing + " }" }
		mutation := func(vs, call string) string { return "mutation(" + vs + ") { " + call + " }" }
		at := func(suffix func(fixture) string) func(fixture) string {
			return func(f fixture) string { return d.url(f) + suffix(f) }
		}
		commentURL := func(extra string) func(fixture) string {
			return at(func(f fixture) string { return "/comments/" + d.comment(f) + extra })
		}
		replyURL := at(func(f fixture) string { return "/comments/" + d.comment(f) + "/replies/" + d.reply(f) })
		rows = append(rows,
			matrixCase{"GET", d.prefix + "/comments", contentReader, 200, at(fixed("/comments")), "", query(vars, "commentList { totalCount }")},
			matrixCase{"POST", d.prefix + "/comments", contentCommenter, 200, at(fixed("/comments")), `{"body":{"markdown":"Hi"}}`,
				mutation(vars, "postComment(target: "+d.target+`, input: {body: {markdown: "Hi"}}) { id }`)},
			matrixCase{"GET", d.prefix + "/comments/{commentId}", contentReader, 200, commentURL(""), "", query(cm, "comment(id: "+d.commentV+") { id }")},
			matrixCase{"PUT", d.prefix + "/comments/{commentId}", contentCommenter, 200, commentURL(""), `{"resolved":true}`,
				mutation(cm, "updateComment(target: "+d.target+", commentId: "+d.commentV+", input: {resolved: true}) { id }")},
			matrixCase{"DELETE", d.prefix + "/comments/{commentId}", contentDelete, 204, commentURL(""), "",
				mutation(cm, "deleteComment(target: "+d.target+", commentId: "+d.commentV+")")},
			matrixCase{"GET", d.prefix + "/comments/{commentId}/replies", contentReader, 200, commentURL("/replies"), "",
				query(cm, "comment(id: "+d.commentV+") { replyList { totalCount } }")},
			matrixCase{"POST", d.prefix + "/comments/{commentId}/replies", contentCommenter, 200, commentURL("/replies"), `{"body":{}}`,
				mutation(cm, "postCommentReply(target: "+d.target+", commentId: "+d.commentV+", input: {body: {}}) { id }")},
			matrixCase{"GET", d.prefix + "/comments/{commentId}/replies/{commentReplyId}", contentReader, 200, replyURL, "",
				query(rp, "comment(id: "+d.commentV+") { reply(id: "+d.replyV+") { id } }")},
			matrixCase{"PUT", d.prefix + "/comments/{commentId}/replies/{commentReplyId}", contentCommenter, 200, replyURL, `{"addedReactions":["👍"]}`,
				mutation(rp, "updateCommentReply(target: "+d.target+", commentId: "+d.commentV+", replyId: "+d.replyV+`, input: {addedReactions: ["👍"]}) { id }`)},
			matrixCase{"DELETE", d.prefix + "/comments/{commentId}/replies/{commentReplyId}", contentDelete, 204, replyURL, "",
				mutation(rp, "deleteCommentReply(target: "+d.target+", commentId: "+d.commentV+", replyId: "+d.replyV+")")},
			matrixCase{"GET", d.prefix + "/commenters", contentReader, 200, at(fixed("/commenters")), "", query(vars, "commenters { totalCount }")},
		)
	}
	cr := func(suffix string) func(fixture) string {
		return func(f fixture) string { return "/spaces/" + f.space + "/change-requests/" + f.changeRequest + suffix }
	}
	const prefix = "/spaces/{spaceId}/change-requests/{changeRequestId}"
	return append(rows,
		matrixCase{"GET", prefix + "/requested-reviewers", contentReader, 200, cr("/requested-reviewers"), "",
			`query($s: ID!, $cr: ID!) { space(id: $s) { changeRequest(id: $cr) { requestedReviewers { totalCount } } } }`},
		matrixCase{"POST", prefix + "/requested-reviewers", contentEditor, 200, cr("/requested-reviewers"), `{"users":["REVIEWER"]}`,
			`mutation($s: ID!, $cr: ID!, $a: ID!) { requestReviewers(spaceId: $s, changeRequestId: $cr, input: {users: [$a]}) { users { kind } } }`},
		matrixCase{"DELETE", prefix + "/requested-reviewers/{userId}", contentEditorDelete, 204,
			func(f fixture) string { return cr("/requested-reviewers/" + f.admin)(f) }, "",
			`mutation($s: ID!, $cr: ID!, $a: ID!) { removeRequestedReviewer(spaceId: $s, changeRequestId: $cr, userId: $a) }`},
		matrixCase{"GET", prefix + "/reviews", contentReader, 200, cr("/reviews"), "",
			`query($s: ID!, $cr: ID!) { space(id: $s) { changeRequest(id: $cr) { reviews { totalCount } } } }`},
		matrixCase{"POST", prefix + "/reviews", contentReviewer, 201, cr("/reviews"), `{"status":"changes-requested"}`,
			`mutation($s: ID!, $cr: ID!) { submitReview(spaceId: $s, changeRequestId: $cr, input: {status: CHANGES_REQUESTED}) { id } }`},
		matrixCase{"GET", prefix + "/reviews/{reviewId}", contentReader, 200, func(f fixture) string { return cr("/reviews/" + f.review)(f) }, "",
			`query($s: ID!, $cr: ID!, $rv: ID!) { space(id: $s) { changeRequest(id: $cr) { review(id: $rv) { id } } } }`},
	)
}
