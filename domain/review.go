package domain

import (
	"context"
	"fmt"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Review of change requests: who is asked to review, and what reviewers said. A review is made
// at the change request's revision of the moment; a later revision makes it outdated.

// changeRequestThread opens a change request's discussion. Errors: NotFound.
func (r *App) changeRequestThread(ctx context.Context, spaceID, changeRequestID string) (*thread, error) {
	if changeRequestID == "" {
		return nil, apperr.NotFoundf("change request not found")
	}
	return r.openThread(ctx, spaceID, changeRequestID)
}

// RequestedReviewers pages through the users asked to review a change request, in the order
// asked. Errors: Invalid, NotFound.
func (r *App) RequestedReviewers(ctx context.Context, spaceID, changeRequestID string, first *int, after *string) (*model.RequestedReviewerConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	t, err := r.changeRequestThread(ctx, spaceID, changeRequestID)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.ReviewerPage(ctx, t.cr.ID, page)
	if err != nil {
		return nil, err
	}
	items, err := r.toRequestedReviewers(ctx, list.Items)
	if err != nil {
		return nil, err
	}
	return model.NewConnection(items, list.Cursors, list.Total, list.HasMore), nil
}

func (r *App) toRequestedReviewers(ctx context.Context, rows []*storage.Reviewer) ([]*model.RequestedReviewer, error) {
	var ids []string
	for _, rr := range rows {
		ids = append(ids, rr.UserID, rr.RequestedBy)
	}
	users, err := r.people(ctx, unique(ids))
	if err != nil {
		return nil, err
	}
	out := make([]*model.RequestedReviewer, len(rows))
	for i, rr := range rows {
		out[i] = &model.RequestedReviewer{
			Object: "change-request-requested-reviewer", Revision: rr.RevisionID, RequestedBy: users[rr.RequestedBy],
			CreatedAt: rr.CreatedAt, Kind: "user", User: users[rr.UserID],
		}
	}
	return out, nil
}

// mayManage checks that the caller may change a change request: its author, or an editor of the
// space. Errors: Forbidden.
func mayManage(ctx context.Context, t *thread) error {
	actor := authz.ActorFrom(ctx)
	if t.cr.CreatedBy == actor.UserID && actor.Limit.Unlimited() { // authorship grants to full tokens only
		return nil
	}
	return require(t.space.ViewerRole, model.MemberRoleEdit, "space")
}

// RequestReviewers asks users to review a change request at its current revision, and changes
// its subject and description when given. Every user must be able to review the space. Errors:
// Invalid, NotFound, Forbidden, Conflict (merged or archived).
func (r *App) RequestReviewers(ctx context.Context, spaceID, changeRequestID string, in model.RequestReviewersInput) (*model.RequestReviewersResult, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	t, err := r.changeRequestThread(ctx, spaceID, changeRequestID)
	if err != nil {
		return nil, err
	}
	if err := mayManage(ctx, t); err != nil {
		return nil, err
	}
	if !t.cr.Open() {
		return nil, apperr.Conflictf("the change request is merged or archived")
	}
	users := unique(in.Users)
	if err := r.checkReviewers(ctx, t, users); err != nil {
		return nil, err
	}
	now, by := r.Now(), authz.ActorFrom(ctx).UserID
	rows := make([]*storage.Reviewer, len(users))
	for i, u := range users {
		rows[i] = &storage.Reviewer{OrganizationID: t.row.OrganizationID, ChangeRequestID: t.cr.ID, UserID: u, RequestedBy: by, RevisionID: t.cr.RevisionID, CreatedAt: now}
	}
	var set storage.ChangeRequestField
	if in.Subject != nil {
		t.cr.Subject, set = *in.Subject, set|storage.ChangeRequestSubject
	}
	if len(in.Description) > 0 {
		d := string(in.Description)
		t.cr.Description, set = &d, set|storage.ChangeRequestDescription
	}
	t.cr.UpdatedAt = now
	ctx = r.emit(ctx, crEvent(EventChangeRequestReviewersAsk, t.row, t.cr), map[string]any{"users": users})
	if err := r.Store.RequestReviewers(ctx, rows, t.cr, set); err != nil {
		return nil, err
	}
	items, err := r.toRequestedReviewers(ctx, rows)
	return &model.RequestReviewersResult{Users: items}, err
}

// checkReviewers requires each user to hold the review role on the space, decided by the same
// engine as every access check. Errors: Invalid naming the user.
func (r *App) checkReviewers(ctx context.Context, t *thread, users []string) error {
	for i, u := range users {
		m, err := r.Store.FindMembership(ctx, t.row.OrganizationID, u)
		if err != nil && apperr.KindOf(err) != apperr.NotFound {
			return err
		}
		field := fmt.Sprintf("users[%d]", i)
		if m == nil || err != nil {
			return apperr.Invalidf(field, "user %q is not a member of this organization", u)
		}
		acc, err := r.accessOf(ctx, t.row.OrganizationID, u, m)
		if err != nil {
			return err
		}
		if !authz.AtLeast(acc.SpaceRole(spaceNode(t.row)), model.MemberRoleReview) {
			return apperr.Invalidf(field, "user %q cannot review this space (the review role is needed)", u)
		}
	}
	return nil
}

// RemoveRequestedReviewer withdraws a review request: the change request's author, an editor of
// the space, or the reviewer themself may. A request (or change request) the caller cannot see
// reports success, like a missing one. Errors: Forbidden.
func (r *App) RemoveRequestedReviewer(ctx context.Context, spaceID, changeRequestID, userID string) (bool, error) {
	t, err := r.changeRequestThread(ctx, spaceID, changeRequestID)
	if apperr.KindOf(err) == apperr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if userID != authz.ActorFrom(ctx).UserID || !authz.LimitFrom(ctx).Unlimited() { // withdrawing oneself: full tokens only
		if err := mayManage(ctx, t); err != nil {
			return false, err
		}
	}
	ctx = r.emit(ctx, crEvent(EventChangeRequestReviewerRm, t.row, t.cr), map[string]any{"reviewer": userID})
	return true, r.Store.RemoveReviewer(ctx, t.cr.ID, userID)
}

// Reviews pages through a change request's reviews, newest first; outdated filters on whether
// they were made at an earlier revision. Errors: Invalid, NotFound.
func (r *App) Reviews(ctx context.Context, spaceID, changeRequestID string, outdated *bool, format *model.PageFormat, first *int, after *string) (*model.ReviewConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	if err := commentFormat(format); err != nil {
		return nil, err
	}
	t, err := r.changeRequestThread(ctx, spaceID, changeRequestID)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.ReviewPage(ctx, t.cr.ID, storage.ReviewFilter{Outdated: outdated, Current: t.cr.RevisionID}, page)
	if err != nil {
		return nil, err
	}
	items, err := r.toReviews(ctx, t, list.Items, format)
	if err != nil {
		return nil, err
	}
	return model.NewConnection(items, list.Cursors, list.Total, list.HasMore), nil
}

// ReviewByID reads one review of a change request. Errors: Invalid, NotFound.
func (r *App) ReviewByID(ctx context.Context, spaceID, changeRequestID, reviewID string, format *model.PageFormat) (*model.Review, error) {
	if err := commentFormat(format); err != nil {
		return nil, err
	}
	t, err := r.changeRequestThread(ctx, spaceID, changeRequestID)
	if err != nil {
		return nil, err
	}
	rv, err := r.Store.FindReview(ctx, t.cr.ID, reviewID)
	if err != nil {
		return nil, notFound(err, "review")
	}
	out, err := r.toReviews(ctx, t, []*storage.Review{rv}, format)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// toReviews converts reviews with their reviewers and comments: a fixed number of statements.
func (r *App) toReviews(ctx context.Context, t *thread, rows []*storage.Review, format *model.PageFormat) ([]*model.Review, error) {
	var people, commentIDs []string
	for _, rv := range rows {
		people = append(people, rv.ReviewerID)
		if rv.RequestedBy != nil {
			people = append(people, *rv.RequestedBy)
		}
		if rv.CommentID != nil {
			commentIDs = append(commentIDs, *rv.CommentID)
		}
	}
	users, err := r.people(ctx, unique(people))
	if err != nil {
		return nil, err
	}
	commentRows, err := r.Store.CommentsByIDs(ctx, commentIDs)
	if err != nil {
		return nil, err
	}
	comments, err := r.toComments(ctx, t, commentRows, format)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*model.Comment, len(comments))
	for _, c := range comments {
		byID[c.ID] = c
	}
	out := make([]*model.Review, len(rows))
	for i, rv := range rows {
		out[i] = &model.Review{
			Object: "change-request-review", ID: rv.ID, Revision: rv.RevisionID, Reviewer: users[rv.ReviewerID],
			Status: model.ReviewStatus(rv.Status), Outdated: rv.RevisionID != t.cr.RevisionID,
			CreatedAt: rv.CreatedAt, UpdatedAt: rv.UpdatedAt,
			URLs: model.LocationURLs{Location: r.apiURL("/spaces/%s/change-requests/%s/reviews/%s", rv.SpaceID, rv.ChangeRequestID, rv.ID)},
		}
		if rv.RequestedBy != nil {
			out[i].RequestedBy = users[*rv.RequestedBy]
		}
		if rv.CommentID != nil {
			out[i].Comment = byID[*rv.CommentID] // nil once the comment was deleted
		}
	}
	return out, nil
}

// SubmitReview records the caller's verdict on a change request at its current revision, with
// an optional comment posted in its discussion. The review role is needed. Errors: Invalid,
// NotFound, Forbidden, Conflict (merged or archived).
func (r *App) SubmitReview(ctx context.Context, spaceID, changeRequestID string, in model.SubmitReviewInput) (*model.Review, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	t, err := r.changeRequestThread(ctx, spaceID, changeRequestID)
	if err != nil {
		return nil, err
	}
	if err := require(t.space.ViewerRole, model.MemberRoleReview, "space"); err != nil {
		return nil, err
	}
	if !t.cr.Open() {
		return nil, apperr.Conflictf("the change request is merged or archived")
	}
	now := r.Now()
	rv := &storage.Review{
		OrganizationID: t.row.OrganizationID, SpaceID: t.row.ID, ChangeRequestID: t.cr.ID, ReviewerID: authz.ActorFrom(ctx).UserID,
		Status: string(in.Status), RevisionID: t.cr.RevisionID, CreatedAt: now, UpdatedAt: now,
	}
	var comment *storage.Comment
	if in.Comment != nil && !in.Comment.IsEmpty() {
		comment = r.newComment(ctx, t, in.Comment)
	}
	rv.ID = storage.NewID()
	ctx = r.emit(ctx, crEvent(EventChangeRequestReviewed, t.row, t.cr), map[string]any{"review": rv.ID, "status": rv.Status})
	if err := r.Store.SubmitReview(ctx, rv, comment); err != nil {
		return nil, err
	}
	return r.ReviewByID(ctx, t.row.ID, t.cr.ID, rv.ID, nil)
}
