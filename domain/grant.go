package domain

import (
	"context"
	"fmt"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// content is a space or collection as the grant resolvers see it.
type content struct {
	kind, id, orgID string
	role            *model.MemberRole
}

// readableContent loads a space or collection the caller can read. Errors: NotFound.
func (r *App) readableContent(ctx context.Context, kind, id string) (*content, error) {
	if kind == storage.TargetSpace {
		s, _, err := r.readableSpace(ctx, id, false)
		if err != nil {
			return nil, err
		}
		return &content{kind, s.ID, s.Organization, s.ViewerRole}, nil
	}
	c, _, err := r.readableCollection(ctx, id)
	if err != nil {
		return nil, err
	}
	return &content{kind, c.ID, c.Organization, c.ViewerRole}, nil
}

// administeredContent loads a space or collection the caller administers.
// Errors: NotFound, Forbidden.
func (r *App) administeredContent(ctx context.Context, kind, id string) (*content, error) {
	c, err := r.readableContent(ctx, kind, id)
	if err != nil {
		return nil, err
	}
	return c, require(c.role, model.MemberRoleAdmin, kind)
}

// grantsOf pages through the grants of one kind of principal on a space or collection, oldest
// first. The grants of all targets a request lists are loaded in one batch.
func (r *App) grantsOf(ctx context.Context, targetID, principalKind string, first *int, after *string) (storage.List[*storage.Grant], error) {
	page, err := windowOf(first, after)
	if err != nil {
		return storage.List[*storage.Grant]{}, err
	}
	all, _, err := loader.For(ctx, r.Store).Grants.Load(ctx, targetID)
	if err != nil {
		return storage.List[*storage.Grant]{}, err
	}
	var mine []*storage.Grant
	for _, g := range all {
		if g.PrincipalKind == principalKind {
			mine = append(mine, g)
		}
	}
	return storage.PageInMemory("grants."+principalKind, mine, func(g *storage.Grant) (time.Time, string) { return g.CreatedAt, g.PrincipalID }, false, page)
}

// TeamGrants lists the teams with a role on a space or collection, oldest grant first.
func (r *App) TeamGrants(ctx context.Context, id, orgID string, first *int, after *string) (*model.TeamGrantConnection, error) {
	list, err := r.grantsOf(ctx, id, storage.PrincipalTeam, first, after)
	if err != nil {
		return nil, err
	}
	acc, err := r.viewerAccess(ctx, orgID)
	if err != nil {
		return nil, err
	}
	keys := make([]loader.TeamKey, len(list.Items))
	for i, g := range list.Items {
		keys[i] = loader.TeamKey{OrganizationID: orgID, ID: g.PrincipalID}
	}
	teams, err := loader.For(ctx, r.Store).Teams.LoadMany(ctx, keys)
	if err != nil {
		return nil, err
	}
	spaces, err := r.teamSpaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	items := make([]*model.TeamGrant, len(list.Items))
	for i, g := range list.Items {
		t, ok := teams[keys[i]]
		if !ok {
			return nil, fmt.Errorf("grant on %s names missing team %s", id, g.PrincipalID)
		}
		items[i] = &model.TeamGrant{Permission: model.MemberRole(g.Role), Team: r.toTeam(t, acc, spaces)}
	}
	return model.NewConnection(items, list.Cursors, list.Total, list.HasMore), nil
}

// UserGrants lists the users with a role of their own on a space or collection.
func (r *App) UserGrants(ctx context.Context, id string, first *int, after *string) (*model.UserGrantConnection, error) {
	list, err := r.grantsOf(ctx, id, storage.PrincipalUser, first, after)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(list.Items))
	for i, g := range list.Items {
		ids[i] = g.PrincipalID
	}
	users, errs := loader.For(ctx, r.Store).User.LoadEach(ctx, ids)
	items := make([]*model.UserGrant, len(list.Items))
	for i, g := range list.Items {
		if len(errs) > i && errs[i] != nil {
			return nil, errs[i]
		}
		items[i] = &model.UserGrant{Permission: model.MemberRole(g.Role), User: r.toUser(users[i])}
	}
	return model.NewConnection(items, list.Cursors, list.Total, list.HasMore), nil
}

// GrantSpaceAccess gives users and teams a role on a space, or (null role) takes it away, and
// returns the space. Errors: Invalid, NotFound (the space, or a user or team that is not in the
// organization), Forbidden.
func (r *App) GrantSpaceAccess(ctx context.Context, spaceID string, in model.GrantAccessInput) (*model.Space, error) {
	if err := r.grantAccess(ctx, storage.TargetSpace, spaceID, in); err != nil {
		return nil, err
	}
	return r.SpaceByID(ctx, spaceID)
}

// GrantCollectionAccess is GrantSpaceAccess for a collection.
func (r *App) GrantCollectionAccess(ctx context.Context, collectionID string, in model.GrantAccessInput) (*model.Collection, error) {
	if err := r.grantAccess(ctx, storage.TargetCollection, collectionID, in); err != nil {
		return nil, err
	}
	return r.CollectionByID(ctx, collectionID)
}

// grantAccess gives users and teams a role on content, or (null role) takes it away.
// Errors: Invalid, NotFound (content, or a user or team that is not in the organization),
// Forbidden.
func (r *App) grantAccess(ctx context.Context, kind, id string, in model.GrantAccessInput) error {
	if err := in.Validate(); err != nil {
		return err
	}
	c, err := r.administeredContent(ctx, kind, id)
	if err != nil {
		return err
	}
	if err := r.checkPrincipals(ctx, c.orgID, in.Users, in.Teams); err != nil {
		return err
	}
	role := in.Role.Value()
	for _, p := range []struct {
		kind string
		ids  []string
	}{{storage.PrincipalUser, in.Users}, {storage.PrincipalTeam, in.Teams}} {
		if len(p.ids) == 0 {
			continue
		}
		if role == nil {
			ctx := r.emit(ctx, permissionEvent(EventPermissionRemoved, c.orgID, kind, id), map[string]any{"principalKind": p.kind, "principals": p.ids})
			if err := r.Store.RemoveGrants(ctx, kind, id, p.kind, p.ids); err != nil {
				return err
			}
			continue
		}
		ctx := r.emit(ctx, permissionEvent(EventPermissionUpdated, c.orgID, kind, id), map[string]any{"principalKind": p.kind, "principals": p.ids, "role": *role})
		if err := r.Store.SetGrants(ctx, c.orgID, kind, id, p.kind, p.ids, string(*role), r.Now()); err != nil {
			return err
		}
	}
	return nil
}

// checkPrincipals requires every user to be a member and every team to be a team of the
// organization. Errors: NotFound naming the first unknown one.
func (r *App) checkPrincipals(ctx context.Context, orgID string, users, teams []string) error {
	members, err := r.Store.MemberIDsIn(ctx, orgID, users)
	if err != nil {
		return err
	}
	for _, u := range users {
		if !members[u] {
			return apperr.NotFoundf("user %q not found in this organization", u)
		}
	}
	found, err := r.Store.TeamsByIDs(ctx, orgID, teams)
	if err != nil {
		return err
	}
	for _, t := range teams {
		if found[t] == nil {
			return apperr.NotFoundf("team %q not found in this organization", t)
		}
	}
	return nil
}

// GrantRef names one grant: the role of a user or a team (Principal, PrincipalID) on a space or a
// collection (Target, ID).
type GrantRef struct {
	Target      GrantTarget
	ID          string
	Principal   GrantPrincipal
	PrincipalID string
}

// GrantTarget is what a grant gives a role on.
type GrantTarget string

// GrantPrincipal is who a grant gives a role to.
type GrantPrincipal string

const (
	GrantOnSpace      GrantTarget    = storage.TargetSpace
	GrantOnCollection GrantTarget    = storage.TargetCollection
	GrantToUser       GrantPrincipal = storage.PrincipalUser
	GrantToTeam       GrantPrincipal = storage.PrincipalTeam
)

func (g GrantRef) parts() (kind, id, principalKind, principalID string) {
	return string(g.Target), g.ID, string(g.Principal), g.PrincipalID
}

// UpdateGrant sets or (null) removes one user's or team's role on a space or collection.
// Errors: Invalid, NotFound, Forbidden.
func (r *App) UpdateGrant(ctx context.Context, ref GrantRef, in model.UpdateGrantInput) (bool, error) {
	kind, id, principalKind, principalID := ref.parts()
	if err := in.Validate(); err != nil {
		return false, err
	}
	c, err := r.administeredContent(ctx, kind, id)
	if err != nil {
		return false, err
	}
	users, teams := principalLists(principalKind, principalID)
	if err := r.checkPrincipals(ctx, c.orgID, users, teams); err != nil {
		return false, err
	}
	if !in.Role.IsSet() {
		return false, nil // nothing to change
	}
	role := in.Role.Value()
	if role == nil {
		ctx = r.emit(ctx, permissionEvent(EventPermissionRemoved, c.orgID, kind, id), map[string]any{"principalKind": principalKind, "principals": []string{principalID}})
		return r.Store.RemoveGrant(ctx, kind, id, principalKind, principalID)
	}
	ctx = r.emit(ctx, permissionEvent(EventPermissionUpdated, c.orgID, kind, id), map[string]any{"principalKind": principalKind, "principals": []string{principalID}, "role": *role})
	return true, r.Store.SetGrants(ctx, c.orgID, kind, id, principalKind, []string{principalID}, string(*role), r.Now())
}

func principalLists(kind, id string) (users, teams []string) {
	if kind == storage.PrincipalUser {
		return []string{id}, nil
	}
	return nil, []string{id}
}

// RemoveGrant removes one user's or team's role on a space or collection and reports whether
// there was one. A team without access to a space is an error, as the contract describes.
// Errors: Invalid, NotFound, Forbidden.
func (r *App) RemoveGrant(ctx context.Context, ref GrantRef) (bool, error) {
	kind, id, principalKind, principalID := ref.parts()
	c, err := r.administeredContent(ctx, kind, id)
	if err != nil {
		return false, err
	}
	ctx = r.emit(ctx, permissionEvent(EventPermissionRemoved, c.orgID, kind, id), map[string]any{"principalKind": principalKind, "principals": []string{principalID}})
	removed, err := r.Store.RemoveGrant(ctx, kind, id, principalKind, principalID)
	if err == nil && !removed && kind == storage.TargetSpace && principalKind == storage.PrincipalTeam {
		return false, apperr.Invalidf("teamId", "team %q has no access to this space", principalID)
	}
	return removed, err
}
