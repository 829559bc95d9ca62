package domain

import (
	"context"
	"log/slog"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// OrganizationChangeRequests lists the change requests of an organization's spaces that the
// caller reads, newest first, with the filters of a space's list (status defaults to open). The
// database picks the page from the spaces the caller reads (the engine's rules in SQL, as for the
// organization's spaces); the engine then confirms each listed space. A fixed number of
// statements whatever the number of spaces or change requests.
// Errors: NotFound (not a member), Invalid.
func (r *App) OrganizationChangeRequests(ctx context.Context, orgID string, in model.ChangeRequestFilter, first *int, after *string) (*model.Connection[*model.ChangeRequest], error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	if in.Status != nil && !in.Status.IsValid() {
		return nil, apperr.Invalidf("status", "must be draft, open, archived or merged")
	}
	org, err := r.OrganizationByID(ctx, orgID)
	if err != nil {
		return nil, err
	}
	actor, m, err := r.viewerMember(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	reader, reads := spaceReader(org.ID, actor, m)
	if !reads || in.ConversationsIssuesCluster != nil {
		// Nothing to read (conversation clusters do not exist yet); the page token is still checked.
		list, err := storage.PageInMemory[*storage.ChangeRequest]("org-change-requests", nil, func(cr *storage.ChangeRequest) (time.Time, string) { return cr.CreatedAt, cr.ID }, true, page)
		if err != nil {
			return nil, err
		}
		return model.NewConnection[*model.ChangeRequest](nil, list.Cursors, 0, false), nil
	}
	f := storage.ChangeRequestFilter{Status: string(model.ChangeRequestOpen), Creator: deref(in.Creator), Contributor: deref(in.Contributor), RequestedReviewer: deref(in.RequestedReviewer)}
	if in.Status != nil {
		f.Status = string(*in.Status)
	}
	list, err := r.Store.OrganizationChangeRequestPage(ctx, reader, f, page)
	if err != nil {
		return nil, err
	}
	spaces, err := r.spacesOfChangeRequests(ctx, org.ID, list.Items)
	if err != nil {
		return nil, err
	}
	kept := list.Items[:0:0]
	var cursors []string
	for i, cr := range list.Items {
		if spaces[cr.SpaceID] == nil {
			// The database and the engine disagree: never show what the engine refuses.
			slog.ErrorContext(ctx, "change request visibility: SQL listed a space the engine refuses", "space", cr.SpaceID, "organization", org.ID)
			continue
		}
		kept, cursors = append(kept, cr), append(cursors, list.Cursors[i])
	}
	items, err := r.toChangeRequestsIn(ctx, spaces, kept)
	if err != nil {
		return nil, err
	}
	r.primeChangeRequests(ctx, spaces, kept)
	return model.NewConnection(items, cursors, list.Total-(len(list.Items)-len(kept)), list.HasMore), nil
}

// spacesOfChangeRequests reads the spaces of change requests and keeps those the engine lets the
// caller read: two statements for the spaces and the caller's access to them.
func (r *App) spacesOfChangeRequests(ctx context.Context, orgID string, rows []*storage.ChangeRequest) (map[string]*storage.Space, error) {
	out := map[string]*storage.Space{}
	if len(rows) == 0 {
		return out, nil
	}
	var ids []string
	seen := map[string]bool{}
	for _, cr := range rows {
		if !seen[cr.SpaceID] {
			seen[cr.SpaceID] = true
			ids = append(ids, cr.SpaceID)
		}
	}
	rowsOf, err := r.Store.SpacesByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	acc, err := r.spacesAccess(ctx, orgID, rowsOf)
	if err != nil {
		return nil, err
	}
	for _, s := range rowsOf {
		if s.OrganizationID == orgID && canRead(acc.SpaceRole(spaceNode(s))) {
			out[s.ID] = s
		}
	}
	return out, nil
}

// primeChangeRequests tells the loaders what each of a list's change requests (of several
// spaces) is about to read of its content, when the request asks for it.
func (r *App) primeChangeRequests(ctx context.Context, spaces map[string]*storage.Space, rows []*storage.ChangeRequest) {
	if len(rows) == 0 || !Wants(ctx, WantChangeRequestContent) {
		return
	}
	l := loader.For(ctx, r.Store)
	byID := make(map[string]*storage.ChangeRequest, len(rows))
	for _, cr := range rows {
		byID[cr.ID] = cr
	}
	l.ChangeRequests.Prime(byID)
	l.Spaces.Prime(spaces)
	expectContentReads(ctx, l, len(rows))
}
