package rest

import (
	"net/http"
	"strings"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// commentRoutes are the operations on one kind of discussion (a space's own, or a change
// request's), all under prefix. The two share every handler: only where the discussion is
// differs.
func (a *api) commentRoutes(prefix string) []Route {
	return []Route{
		{"GET", prefix + "/comments", a.listComments},
		{"POST", prefix + "/comments", a.postComment},
		{"GET", prefix + "/comments/{commentId}", a.getComment},
		{"PUT", prefix + "/comments/{commentId}", a.updateComment},
		{"DELETE", prefix + "/comments/{commentId}", a.deleteComment},
		{"GET", prefix + "/comments/{commentId}/replies", a.listCommentReplies},
		{"POST", prefix + "/comments/{commentId}/replies", a.postCommentReply},
		{"GET", prefix + "/comments/{commentId}/replies/{commentReplyId}", a.getCommentReply},
		{"PUT", prefix + "/comments/{commentId}/replies/{commentReplyId}", a.updateCommentReply},
		{"DELETE", prefix + "/comments/{commentId}/replies/{commentReplyId}", a.deleteCommentReply},
		{"GET", prefix + "/commenters", a.listCommenters},
	}
}

// discussion reads which discussion a path names: the space's, and the change request's when
// the path has one.
func discussion(r *http.Request) (spaceID, changeRequestID string) {
	return chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId")
}

// formatArg reads `format` as given; resolvers check it and, without one, show bodies as posted.
func formatArg(r *http.Request) *model.PageFormat {
	return optionalQuery[model.PageFormat](r, "format")
}

// authorsQuery reads `authors`, a list of user ids: repeated (authors=a&authors=b) or
// comma-separated.
func authorsQuery(r *http.Request) []string {
	var out []string
	for _, v := range r.URL.Query()["authors"] {
		for _, id := range strings.Split(v, ",") {
			if id = strings.TrimSpace(id); id != "" {
				out = append(out, id)
			}
		}
	}
	return out
}

func (a *api) listComments(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, order, err := readList(r, true)
	if err != nil {
		return 0, nil, err
	}
	spaceID, crID := discussion(r)
	args := domain.CommentListArgs{
		Order: order, Status: optionalQuery[model.CommentStatusFilter](r, "status"),
		Format: formatArg(r), TargetPage: optionalQuery[string](r, "targetPage"), Authors: authorsQuery(r),
	}
	list, err := a.res.Comments(r.Context(), spaceID, crID, args, first, after)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(list), nil)
}

func (a *api) postComment(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.PostCommentInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	spaceID, crID := discussion(r)
	return ok(a.res.PostComment(r.Context(), spaceID, crID, in, formatArg(r)))
}

func (a *api) getComment(w http.ResponseWriter, r *http.Request) (int, any, error) {
	spaceID, crID := discussion(r)
	return ok(a.res.CommentByID(r.Context(), spaceID, crID, chi.URLParam(r, "commentId"), formatArg(r)))
}

func (a *api) updateComment(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateCommentInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	spaceID, crID := discussion(r)
	return ok(a.res.UpdateComment(r.Context(), spaceID, crID, chi.URLParam(r, "commentId"), in, formatArg(r)))
}

func (a *api) deleteComment(w http.ResponseWriter, r *http.Request) (int, any, error) {
	spaceID, crID := discussion(r)
	return noContent(a.res.DeleteComment(r.Context(), spaceID, crID, chi.URLParam(r, "commentId")))
}

func (a *api) listCommentReplies(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	spaceID, crID := discussion(r)
	list, err := a.res.CommentReplies(r.Context(), spaceID, crID, chi.URLParam(r, "commentId"), formatArg(r), first, after)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(list), nil)
}

func (a *api) postCommentReply(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.PostCommentReplyInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	spaceID, crID := discussion(r)
	return ok(a.res.PostCommentReply(r.Context(), spaceID, crID, chi.URLParam(r, "commentId"), in, formatArg(r)))
}

func (a *api) getCommentReply(w http.ResponseWriter, r *http.Request) (int, any, error) {
	spaceID, crID := discussion(r)
	return ok(a.res.CommentReplyByID(r.Context(), spaceID, crID, chi.URLParam(r, "commentId"), chi.URLParam(r, "commentReplyId"), formatArg(r)))
}

func (a *api) updateCommentReply(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateCommentReplyInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	spaceID, crID := discussion(r)
	return ok(a.res.UpdateCommentReply(r.Context(), spaceID, crID, chi.URLParam(r, "commentId"), chi.URLParam(r, "commentReplyId"), in, formatArg(r)))
}

func (a *api) deleteCommentReply(w http.ResponseWriter, r *http.Request) (int, any, error) {
	spaceID, crID := discussion(r)
	return noContent(a.res.DeleteCommentReply(r.Context(), spaceID, crID, chi.URLParam(r, "commentId"), chi.URLParam(r, "commentReplyId")))
}

func (a *api) listCommenters(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	spaceID, crID := discussion(r)
	list, err := a.res.Commenters(r.Context(), spaceID, crID, first, after)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(list), nil)
}

func (a *api) listRequestedReviewers(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	spaceID, crID := discussion(r)
	list, err := a.res.RequestedReviewers(r.Context(), spaceID, crID, first, after)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(list), nil)
}

func (a *api) requestReviewers(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.RequestReviewersInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	spaceID, crID := discussion(r)
	return ok(a.res.RequestReviewers(r.Context(), spaceID, crID, in))
}

func (a *api) removeRequestedReviewer(w http.ResponseWriter, r *http.Request) (int, any, error) {
	spaceID, crID := discussion(r)
	return noContent(a.res.RemoveRequestedReviewer(r.Context(), spaceID, crID, chi.URLParam(r, "userId")))
}

func (a *api) listReviews(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	outdated, err := boolQuery(r, "outdated")
	if err != nil {
		return 0, nil, err
	}
	spaceID, crID := discussion(r)
	list, err := a.res.Reviews(r.Context(), spaceID, crID, outdated, formatArg(r), first, after)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(list), nil)
}

func (a *api) submitReview(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.SubmitReviewInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	spaceID, crID := discussion(r)
	rv, err := a.res.SubmitReview(r.Context(), spaceID, crID, in)
	if err != nil {
		return 0, nil, err
	}
	return created(w, rv.URLs.Location, rv, nil)
}

func (a *api) getReview(w http.ResponseWriter, r *http.Request) (int, any, error) {
	spaceID, crID := discussion(r)
	return ok(a.res.ReviewByID(r.Context(), spaceID, crID, chi.URLParam(r, "reviewId"), formatArg(r)))
}
