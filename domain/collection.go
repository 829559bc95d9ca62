package domain

import (
	"context"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

func (r *App) toCollection(c *storage.Collection, role *model.MemberRole) *model.Collection {
	return &model.Collection{
		Object: "collection", ID: c.ID, Title: c.Title, Description: c.Description, Organization: c.OrganizationID,
		Parent: c.ParentID, DefaultLevel: (*model.DefaultLevel)(c.DefaultLevel),
		URLs:        model.LocationAppURLs{Location: r.apiURL("/collections/%s", c.ID), App: r.Settings.AppURL + "/c/" + c.ID + "/"},
		Permissions: authz.CollectionPermissions(role), ViewerRole: role, CreatedAt: c.CreatedAt,
	}
}

// CollectionByID returns a collection the caller can read. Errors: Unauthenticated, NotFound.
func (r *App) CollectionByID(ctx context.Context, id string) (*model.Collection, error) {
	c, _, err := r.readableCollection(ctx, id)
	return c, err
}

func (r *App) readableCollection(ctx context.Context, id string) (*model.Collection, *storage.Collection, error) {
	if _, err := authz.RequireActor(ctx); err != nil {
		return nil, nil, err
	}
	row, err := r.Store.FindCollectionByID(ctx, id)
	if err != nil {
		return nil, nil, notFound(err, "collection")
	}
	acc, err := r.viewerAccess(ctx, row.OrganizationID)
	if err != nil {
		return nil, nil, err
	}
	role := acc.CollectionRole(collectionNode(row))
	if !canRead(role) {
		return nil, nil, apperr.NotFoundf("collection not found")
	}
	return r.toCollection(row, role), row, nil
}

// OrganizationCollections lists the collections the caller can read, newest first; nested
// false keeps only top-level ones. No statement beyond loading the caller's access.
func (r *App) OrganizationCollections(ctx context.Context, org *model.Organization, first *int, after *string, nested *bool) (*model.CollectionConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	acc, err := r.viewerAccess(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	var visible []*model.Collection
	for _, c := range acc.collections {
		if nested != nil && !*nested && c.ParentID != nil {
			continue
		}
		if role := acc.CollectionRole(collectionNode(c)); canRead(role) {
			visible = append(visible, r.toCollection(c, role))
		}
	}
	list, err := storage.PageInMemory("collections", visible, func(c *model.Collection) (time.Time, string) { return c.CreatedAt, c.ID }, true, page)
	if err != nil {
		return nil, err
	}
	l := loader.For(ctx, r.Store)
	l.Grants.Expect(len(list.Items))
	// Each listed collection may list its spaces, reading their change request counters.
	if Wants(ctx, WantSpaceCounters) {
		l.ChangeRequestCounts.ExpectCalls(len(list.Items))
	}
	return connectionOf(list, func(c *model.Collection) *model.Collection { return c }), nil
}

// CollectionSpaces lists the spaces directly in a collection that the caller can read.
func (r *App) CollectionSpaces(ctx context.Context, c *model.Collection, first *int, after *string) (*model.SpaceConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	acc, err := r.viewerAccess(ctx, c.Organization)
	if err != nil {
		return nil, err
	}
	in := func(s *storage.Space) bool { return s.CollectionID != nil && *s.CollectionID == c.ID }
	return r.readableSpaces(ctx, "collection.spaces."+c.ID, c.Organization, acc, in, page, false)
}

// CreateCollection creates a collection; its creator becomes its admin.
// Errors: Invalid, NotFound, Forbidden.
func (r *App) CreateCollection(ctx context.Context, orgID string, in model.CreateCollectionInput) (*model.Collection, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	acc, err := r.creatorAccess(ctx, orgID, in.Parent)
	if err != nil {
		return nil, err
	}
	now := r.Now()
	inherit := string(model.DefaultLevelInherit)
	row := &storage.Collection{OrganizationID: orgID, ParentID: in.Parent, Title: "Untitled", DefaultLevel: &inherit, CreatedAt: now, UpdatedAt: now}
	if in.Title != nil && *in.Title != "" {
		row.Title = *in.Title
	}
	row.ID = storage.NewID()
	ctx = r.emit(ctx, collectionEvent(EventCollectionCreated, row), nil)
	if err := r.Store.CreateCollection(ctx, row, creatorGrant(acc)); err != nil {
		return nil, err
	}
	role := model.MemberRoleAdmin
	return r.toCollection(row, &role), nil
}

// UpdateCollection changes a collection. Errors: Invalid, NotFound, Forbidden.
func (r *App) UpdateCollection(ctx context.Context, id string, in model.UpdateCollectionInput) (*model.Collection, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	c, row, err := r.readableCollection(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := require(c.ViewerRole, model.MemberRoleAdmin, "collection"); err != nil {
		return nil, err
	}
	var set storage.CollectionField
	if v, ok := in.Title.ValueOK(); ok {
		row.Title, set = *v, set|storage.CollectionTitle
	}
	if v, ok := in.Description.ValueOK(); ok {
		row.Description, set = v, set|storage.CollectionDescription
	}
	if v, ok := in.DefaultLevel.ValueOK(); ok {
		row.DefaultLevel, set = (*string)(v), set|storage.CollectionDefaultLevel
	}
	if set != 0 { // an empty patch changes nothing, not even updatedAt
		row.UpdatedAt = r.Now()
		ctx := r.emit(ctx, collectionEvent(EventCollectionUpdated, row), nil)
		if err := r.Store.UpdateCollection(ctx, row, set); err != nil {
			return nil, err
		}
	}
	return r.toCollection(row, c.ViewerRole), nil
}

// DeleteCollection deletes a collection; its content moves up. Missing or invisible collections
// report false. Errors: Forbidden.
func (r *App) DeleteCollection(ctx context.Context, id string) (bool, error) {
	c, row, err := r.readableCollection(ctx, id)
	if apperr.KindOf(err) == apperr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := require(c.ViewerRole, model.MemberRoleAdmin, "collection"); err != nil {
		return false, err
	}
	ctx = r.emit(ctx, collectionEvent(EventCollectionDeleted, row), nil)
	return r.Store.DeleteCollection(ctx, row)
}
