package domain

import (
	"context"
	"errors"
	"fmt"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// toChangeRequests converts change requests of one space, loading their authors at once.
func (r *App) toChangeRequests(ctx context.Context, space *storage.Space, rows []*storage.ChangeRequest) ([]*model.ChangeRequest, error) {
	return r.toChangeRequestsIn(ctx, map[string]*storage.Space{space.ID: space}, rows)
}

// toChangeRequestsIn converts change requests of the given spaces (by id), loading their authors
// and comment counts at once whatever the number of spaces.
func (r *App) toChangeRequestsIn(ctx context.Context, spaces map[string]*storage.Space, rows []*storage.ChangeRequest) ([]*model.ChangeRequest, error) {
	ids := make([]string, len(rows))
	for i, cr := range rows {
		ids[i] = cr.CreatedBy
	}
	users, errs := loader.For(ctx, r.Store).User.LoadEach(ctx, ids)
	crIDs := make([]string, len(rows))
	for i, cr := range rows {
		crIDs[i] = cr.ID
	}
	comments, err := loader.For(ctx, r.Store).ChangeRequestComments.LoadMany(ctx, crIDs)
	if err != nil {
		return nil, err
	}
	out := make([]*model.ChangeRequest, len(rows))
	for i, cr := range rows {
		author := &model.User{Object: "user", ID: cr.CreatedBy, DisplayName: "Former member", URLs: model.UserURLs{Location: r.apiURL("/users/%s", cr.CreatedBy)}}
		if i < len(users) && users[i] != nil && (len(errs) <= i || errs[i] == nil) {
			author = r.toUser(users[i])
		} else if len(errs) > i && errs[i] != nil && apperr.KindOf(errs[i]) != apperr.NotFound && !errors.Is(errs[i], storage.ErrNotFound) {
			return nil, errs[i]
		}
		out[i] = r.toChangeRequest(spaces[cr.SpaceID], cr, author)
		out[i].Comments = comments[cr.ID]
	}
	return out, nil
}

func (r *App) toChangeRequest(space *storage.Space, cr *storage.ChangeRequest, author *model.User) *model.ChangeRequest {
	out := &model.ChangeRequest{
		Object: "change-request", ID: cr.ID, Number: int(cr.Number), Status: model.ChangeRequestStatus(cr.Status),
		Subject: cr.Subject, CreatedBy: author, CreatedAt: cr.CreatedAt, UpdatedAt: cr.UpdatedAt,
		Space: cr.SpaceID, Revision: cr.RevisionID, RevisionInitial: cr.RevisionInitialID,
		RevisionMergedAncestor: cr.RevisionMergedAncestor, RevisionMerged: cr.RevisionMerged,
		Outdated: cr.Open() && cr.BaseSeq < space.RevisionSeq,
		URLs: model.LocationAppURLs{
			Location: r.apiURL("/spaces/%s/change-requests/%s", cr.SpaceID, cr.ID),
			App:      fmt.Sprintf("%s/s/%s/~/changes/%d/", r.Settings.AppURL, cr.SpaceID, cr.Number),
		},
		CreatedByID: cr.CreatedBy,
	}
	if cr.Description != nil {
		out.Description = model.Document(*cr.Description)
	}
	return out
}

// ChangeRequests lists a space's change requests, newest first; status defaults to open.
func (r *App) ChangeRequests(ctx context.Context, spaceID string, in model.ChangeRequestFilter, first *int, after *string) (*model.Connection[*model.ChangeRequest], error) {
	status := in.Status
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	if status != nil && !status.IsValid() {
		return nil, apperr.Invalidf("status", "must be draft, open, archived or merged")
	}
	_, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	if in.ConversationsIssuesCluster != nil {
		// Conversation clusters do not exist yet: no change request belongs to one.
		return model.NewConnection[*model.ChangeRequest](nil, nil, 0, false), nil
	}
	f := storage.ChangeRequestFilter{Status: string(model.ChangeRequestOpen), Creator: deref(in.Creator), Contributor: deref(in.Contributor), RequestedReviewer: deref(in.RequestedReviewer)}
	if status != nil {
		f.Status = string(*status)
	}
	list, err := r.Store.ChangeRequestPage(ctx, row.ID, f, page)
	if err != nil {
		return nil, err
	}
	items, err := r.toChangeRequests(ctx, row, list.Items)
	if err != nil {
		return nil, err
	}
	r.announceChangeRequestContent(ctx, row, list.Items)
	return model.NewConnection(items, list.Cursors, list.Total, list.HasMore), nil
}

// ChangeRequestByID reads a change request by id or number. Errors: NotFound.
func (r *App) ChangeRequestByID(ctx context.Context, spaceID, id string) (*model.ChangeRequest, error) {
	_, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	cr, err := r.Store.FindChangeRequest(ctx, row.ID, id)
	if err != nil {
		return nil, notFound(err, "change request")
	}
	out, err := r.toChangeRequests(ctx, row, []*storage.ChangeRequest{cr})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// editableSpace is a live space the caller may edit. Errors: NotFound, Forbidden.
func (r *App) editableSpace(ctx context.Context, spaceID string) (*model.Space, *storage.Space, error) {
	sp, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, nil, err
	}
	if err := require(sp.ViewerRole, model.MemberRoleEdit, "space"); err != nil {
		return nil, nil, err
	}
	return sp, row, nil
}

// CreateChangeRequest opens a change request on the space's current content (nothing is copied).
// Errors: Invalid, NotFound, Forbidden.
func (r *App) CreateChangeRequest(ctx context.Context, spaceID string, in model.CreateChangeRequestInput) (*model.ChangeRequest, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	_, row, err := r.editableSpace(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	actor, _ := authz.RequireActor(ctx)
	now := r.Now()
	cr := &storage.ChangeRequest{SpaceID: row.ID, Status: string(model.ChangeRequestOpen), Subject: deref(in.Subject), CreatedBy: actor.UserID, CreatedAt: now, UpdatedAt: now}
	cr.ID = storage.NewID()
	ctx = r.emit(ctx, crEvent(EventChangeRequestOpened, row, cr), map[string]any{"subject": cr.Subject})
	if err := r.Store.CreateChangeRequest(ctx, cr); err != nil {
		return nil, notFound(err, "space")
	}
	return r.ChangeRequestByID(ctx, row.ID, cr.ID)
}

// UpdateChangeRequest changes a change request's subject, description or status (draft, open,
// archived). Its author or an editor of the space may. Errors: Invalid, NotFound, Forbidden,
// Conflict (merged).
func (r *App) UpdateChangeRequest(ctx context.Context, spaceID, id string, in model.UpdateChangeRequestInput) (*model.ChangeRequest, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	sp, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	cr, err := r.Store.FindChangeRequest(ctx, row.ID, id)
	if err != nil {
		return nil, notFound(err, "change request")
	}
	actor, _ := authz.RequireActor(ctx)
	if cr.CreatedBy != actor.UserID || !actor.Limit.Unlimited() { // authorship grants to full tokens only
		if err := require(sp.ViewerRole, model.MemberRoleEdit, "space"); err != nil {
			return nil, err
		}
	}
	var set storage.ChangeRequestField
	if v := in.Subject.Value(); v != nil {
		cr.Subject, set = *v, set|storage.ChangeRequestSubject
	}
	if v, ok := in.Description.ValueOK(); ok {
		cr.Description, set = nil, set|storage.ChangeRequestDescription
		if v != nil {
			s := string(*v)
			cr.Description = &s
		}
	}
	if v := in.Status.Value(); v != nil && string(*v) != cr.Status {
		if cr.Status == string(model.ChangeRequestMerged) {
			return nil, apperr.Conflictf("a merged change request keeps its status")
		}
		cr.Status, set = string(*v), set|storage.ChangeRequestStatus
	}
	if set != 0 {
		cr.UpdatedAt = r.Now()
		typ := EventChangeRequestUpdated
		if set&storage.ChangeRequestStatus != 0 && cr.Status == string(model.ChangeRequestArchived) {
			typ = EventChangeRequestClosed
		}
		ctx := r.emit(ctx, crEvent(typ, row, cr), map[string]any{"status": cr.Status, "subject": cr.Subject})
		if err := r.Store.UpdateChangeRequest(ctx, cr, set); err != nil {
			return nil, notFound(err, "change request")
		}
	}
	return r.ChangeRequestByID(ctx, row.ID, cr.ID)
}

// changeRequestToWrite finds a change request of a space the caller may edit, for a merge or
// an update. Errors: NotFound, Forbidden.
func (r *App) changeRequestToWrite(ctx context.Context, spaceID, id string) (*storage.Space, *storage.ChangeRequest, *authz.Actor, error) {
	_, row, err := r.editableSpace(ctx, spaceID)
	if err != nil {
		return nil, nil, nil, err
	}
	cr, err := r.Store.FindChangeRequest(ctx, row.ID, id)
	if err != nil {
		return nil, nil, nil, notFound(err, "change request")
	}
	actor, err := authz.RequireActor(ctx)
	return row, cr, actor, err
}

// MergeChangeRequest merges a change request into its space as a new revision, once it meets
// the merge rules that apply (merge_rules.go) and its changes still fit the space
// (merge_conflicts.go). Errors: NotFound, Forbidden, Conflict (closed, a merge rule not met, or
// content the space changed too: nothing is written).
func (r *App) MergeChangeRequest(ctx context.Context, spaceID, id string) (*model.MergeResult, error) {
	row, cr, actor, err := r.changeRequestToWrite(ctx, spaceID, id)
	if err != nil {
		return nil, err
	}
	if !cr.Open() {
		return nil, contentWriteErr(storage.ErrChangeRequestClosed)
	}
	if err := r.checkMergeRules(ctx, row, cr, actor.UserID); err != nil {
		return nil, err
	}
	ctx = r.emit(ctx, crEvent(EventChangeRequestMerged, row, cr), nil)
	ctx = r.emit(ctx, spaceEvent(EventSpaceContentUpdated, row), map[string]any{"changeRequestId": cr.ID})
	rev, _, err := r.Store.MergeChangeRequest(ctx, row.ID, cr.ID, actor.UserID, r.Now, checkConflicts)
	if err != nil {
		return nil, contentWriteErr(err)
	}
	return &model.MergeResult{Revision: rev.ID, Result: "merge"}, nil
}

// UpdateChangeRequestFromSpace brings the space's newer content into a change request. When
// both changed the same items differently, nothing is written and the result is "conflicts".
// Errors: NotFound, Forbidden, Conflict (closed).
func (r *App) UpdateChangeRequestFromSpace(ctx context.Context, spaceID, id string) (*model.MergeResult, error) {
	row, cr, actor, err := r.changeRequestToWrite(ctx, spaceID, id)
	if err != nil {
		return nil, err
	}
	ctx = r.emit(ctx, crEvent(EventChangeRequestUpdated, row, cr), map[string]any{"updatedFromSpace": true})
	updated, err := r.Store.UpdateChangeRequestFromSpace(ctx, row.ID, cr.ID, actor.UserID, r.Now, checkConflicts)
	var conflicts *conflictError
	if errors.As(err, &conflicts) {
		return &model.MergeResult{Revision: cr.RevisionID, Result: "conflicts"}, nil
	}
	if err != nil {
		return nil, contentWriteErr(err)
	}
	return &model.MergeResult{Revision: updated.RevisionID, Result: "update"}, nil
}

// contentWriteErr maps storage's refusals of a content write onto API errors.
func contentWriteErr(err error) error {
	var conflicts *conflictError
	switch {
	case errors.As(err, &conflicts):
		return apperr.Conflictf("%s", conflicts.Error())
	case errors.Is(err, storage.ErrChangeRequestClosed):
		return apperr.Conflictf("the change request is merged or archived")
	case errors.Is(err, storage.ErrNotFound):
		return apperr.NotFoundf("not found")
	}
	return err
}
