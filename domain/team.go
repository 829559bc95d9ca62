package domain

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

func (r *App) toTeam(t *storage.Team, acc *orgAccess, spaces map[string]int) *model.Team {
	return &model.Team{
		Object: "team", ID: t.ID, Title: t.Title, Members: t.Members, Spaces: spaces[t.ID], CreatedAt: t.CreatedAt,
		OrganizationID: t.OrganizationID,
		Permissions: model.TeamPermissions{
			// Owning a team grants by ownership: only an unlimited token uses it.
			Admin: authz.AtLeast(acc.OrganizationRole(), model.MemberRoleAdmin) || (acc.teamRoles[t.ID] == "owner" && acc.Limit.Unlimited()),
			View:  acc.Member && acc.OrganizationRole() != nil,
		},
	}
}

// teamSpaces counts, for every team of an organization, the live spaces its grants reach: on
// the space itself or on a collection above it, decided by the permission engine as for a
// guest holding only the team's grants. Computed once per request and organization.
func (r *App) teamSpaces(ctx context.Context, orgID string) (map[string]int, error) {
	return stateOf(ctx).teamSpaces.get(orgID, func() (map[string]int, error) {
		acc, err := r.viewerAccess(ctx, orgID)
		if err != nil {
			return nil, err
		}
		org, err := r.allGrants(ctx, orgID)
		if err != nil {
			return nil, err
		}
		spaces, err := r.orgSpaces(ctx, orgID)
		if err != nil {
			return nil, err
		}
		// Only a grant on a space's chain (the space, the collections above it) can let a team in,
		// so the engine is asked only of those teams, each with its own grants: one pass over
		// the spaces, not every team against every space and every grant of the organization.
		type target struct{ kind, id string }
		teamsOn := map[target][]string{}
		grantsOf := map[string][]authz.Grant{}
		for _, g := range org.grants {
			if g.PrincipalKind == storage.PrincipalTeam {
				teamsOn[target{g.TargetKind, g.TargetID}] = append(teamsOn[target{g.TargetKind, g.TargetID}], g.PrincipalID)
				grantsOf[g.PrincipalID] = append(grantsOf[g.PrincipalID], g)
			}
		}
		counts := map[string]int{}
		asked := map[string]bool{}
		reachOf := map[string]*authz.Access{} // a team as a guest holding only its grants
		for _, s := range spaces {
			clear(asked)
			node := spaceNode(s)
			candidates := teamsOn[target{"space", s.ID}]
			for parent, depth := node.Parent, 0; parent != "" && depth < 64; depth++ { // depth guards a corrupt cycle
				candidates = append(candidates[:len(candidates):len(candidates)], teamsOn[target{"collection", parent}]...)
				c, ok := acc.Collections[parent]
				if !ok {
					break
				}
				parent = c.Parent
			}
			for _, team := range candidates {
				if asked[team] {
					continue
				}
				asked[team] = true
				reach := reachOf[team]
				if reach == nil {
					reach = &authz.Access{Member: true, Teams: map[string]bool{team: true}, Grants: grantsOf[team], Collections: acc.Collections}
					reachOf[team] = reach
				}
				if reach.SpaceRole(node) != nil {
					counts[team]++
				}
			}
		}
		return counts, nil
	})
}

// insiderAccess returns the caller's access to an organization they see, requiring a role
// (guests cannot see teams). Errors: NotFound, Forbidden.
func (r *App) insiderAccess(ctx context.Context, orgID string) (*model.Organization, *orgAccess, error) {
	org, err := r.OrganizationByID(ctx, orgID)
	if err != nil {
		return nil, nil, err
	}
	if !org.Permissions.ListTeams {
		return nil, nil, apperr.Forbiddenf("guests cannot see this organization's teams")
	}
	acc, err := r.viewerAccess(ctx, org.ID)
	return org, acc, err
}

// TeamListArgs narrows a list of teams: to titles containing Title, to teams Owner owns.
type TeamListArgs struct{ Title, Owner *string }

// Teams lists an organization's teams by title. Errors: Invalid, Forbidden.
func (r *App) Teams(ctx context.Context, org *model.Organization, args TeamListArgs, first *int, after *string) (*model.TeamConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	_, acc, err := r.insiderAccess(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.FindTeams(ctx, org.ID, storage.TeamFilter{Title: deref(args.Title), OwnerID: deref(args.Owner)}, page)
	if err != nil {
		return nil, err
	}
	spaces, err := r.teamSpaces(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	// Each listed team may ask for its members: let them leave in one batch.
	loader.For(ctx, r.Store).TeamMembers.Expect(len(list.Items))
	return connectionOf(list, func(t *storage.Team) *model.Team { return r.toTeam(t, acc, spaces) }), nil
}

// TeamByID returns one team. Errors: NotFound, Forbidden.
func (r *App) TeamByID(ctx context.Context, orgID, teamID string) (*model.Team, error) {
	_, acc, err := r.insiderAccess(ctx, orgID)
	if err != nil {
		return nil, err
	}
	t, err := r.Store.FindTeam(ctx, orgID, teamID)
	if err != nil {
		return nil, notFound(err, "team")
	}
	spaces, err := r.teamSpaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return r.toTeam(t, acc, spaces), nil
}

// managedTeam returns a team the caller may manage: organization admins and team owners.
// Errors: NotFound, Forbidden.
func (r *App) managedTeam(ctx context.Context, orgID, teamID string) (*model.Team, error) {
	t, err := r.TeamByID(ctx, orgID, teamID)
	if err != nil {
		return nil, err
	}
	if !t.Permissions.Admin {
		return nil, apperr.Forbiddenf("only organization admins and the team's owners can manage this team")
	}
	return t, nil
}

// CreateTeam creates a team owned by its creator. Errors: Invalid, NotFound, Forbidden.
func (r *App) CreateTeam(ctx context.Context, orgID string, in model.CreateTeamInput) (*model.Team, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	org, acc, err := r.insiderAccess(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if !org.Permissions.OwnTeam {
		return nil, apperr.Forbiddenf("you need the create role in this organization to create teams")
	}
	// Members are named like in PUT …/members: by user id or e-mail address.
	ids, err := r.Store.ResolveMembers(ctx, org.ID, in.Members)
	if err != nil {
		return nil, err
	}
	members := make([]string, len(in.Members))
	for i, name := range in.Members {
		id, ok := ids[name]
		if !ok {
			return nil, apperr.Invalidf(fmt.Sprintf("members[%d]", i), "%q is not a member of this organization", name)
		}
		members[i] = id
	}
	t := &storage.Team{ID: storage.NewID(), OrganizationID: org.ID, Title: in.Title, CreatedAt: r.Now()}
	ctx = r.emit(ctx, teamEvent(EventTeamCreated, org.ID, t.ID), map[string]any{"title": t.Title, "members": members})
	if err := r.Store.CreateTeam(ctx, t, []string{acc.UserID}, members); err != nil {
		return nil, err
	}
	return r.reloadTeam(ctx, t.OrganizationID, t.ID, acc)
}

// teamAfterChange answers a team mutation with the team as it now is.
func (r *App) teamAfterChange(ctx context.Context, orgID, teamID string) (*model.Team, error) {
	_, acc, err := r.insiderAccess(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return r.reloadTeam(ctx, orgID, teamID, acc)
}

// reloadTeam reads a team after a change, with the caller's role in it read again: the change
// may have made them an owner, or no longer one.
func (r *App) reloadTeam(ctx context.Context, orgID, teamID string, acc *orgAccess) (*model.Team, error) {
	t, err := r.Store.FindTeam(ctx, orgID, teamID)
	if err != nil {
		return nil, notFound(err, "team")
	}
	role, err := r.Store.TeamRole(ctx, teamID, acc.UserID)
	if err != nil {
		return nil, err
	}
	acc.teamRoles[teamID], acc.Teams[teamID] = role, role != ""
	spaces, err := r.teamSpaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return r.toTeam(t, acc, spaces), nil
}

// UpdateTeam renames a team. Errors: Invalid, NotFound, Forbidden.
func (r *App) UpdateTeam(ctx context.Context, orgID, teamID string, in model.UpdateTeamInput) (*model.Team, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if _, err := r.managedTeam(ctx, orgID, teamID); err != nil {
		return nil, err
	}
	if err := r.Store.RenameTeam(r.emit(ctx, teamEvent(EventTeamUpdated, orgID, teamID), map[string]any{"title": in.Title}), orgID, teamID, in.Title); err != nil {
		return nil, notFound(err, "team")
	}
	return r.teamAfterChange(ctx, orgID, teamID)
}

// DeleteTeam deletes a team; a missing team reports false. Errors: NotFound (organization),
// Forbidden.
func (r *App) DeleteTeam(ctx context.Context, orgID, teamID string) (bool, error) {
	_, err := r.managedTeam(ctx, orgID, teamID)
	if apperr.KindOf(err) == apperr.NotFound {
		if _, orgErr := r.OrganizationByID(ctx, orgID); orgErr != nil {
			return false, orgErr
		}
		return false, nil
	}
	if err != nil {
		return false, err
	}
	ctx = r.emit(ctx, teamEvent(EventTeamDeleted, orgID, teamID), nil)
	return r.Store.DeleteTeam(ctx, orgID, teamID)
}

// UpdateTeamMembers adds, sets and removes members. Errors: Invalid, NotFound, Forbidden.
func (r *App) UpdateTeamMembers(ctx context.Context, orgID, teamID string, in model.UpdateTeamMembersInput) (*model.Team, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if _, err := r.managedTeam(ctx, orgID, teamID); err != nil {
		return nil, err
	}
	roles := in.RoleByUser()
	names := append(append([]string{}, in.Add...), in.Remove...)
	for u := range roles {
		names = append(names, u)
	}
	ids, err := r.Store.ResolveMembers(ctx, orgID, names)
	if err != nil {
		return nil, err
	}
	update := storage.TeamUpdate{Set: map[string]string{}}
	for i, name := range in.Add {
		id, ok := ids[name]
		if !ok {
			return nil, apperr.Invalidf(fmt.Sprintf("add[%d]", i), "%q is not a member of this organization", name)
		}
		update.Add = append(update.Add, id)
	}
	for u, role := range roles {
		id, ok := ids[u]
		if !ok {
			return nil, apperr.Invalidf("memberships."+u, "%q is not a member of this organization", u)
		}
		update.Set[id] = string(role)
	}
	for _, name := range in.Remove {
		if id, ok := ids[name]; ok { // removing someone who is not a member changes nothing
			update.Remove = append(update.Remove, id)
		}
	}
	ctx = r.emit(ctx, teamEvent(EventTeamMembersUpdated, orgID, teamID), map[string]any{"add": update.Add, "remove": update.Remove, "roles": update.Set})
	if err := r.Store.UpdateTeamMembers(ctx, orgID, teamID, update, r.Now()); err != nil {
		return nil, err
	}
	return r.teamAfterChange(ctx, orgID, teamID)
}

// SetTeamMember adds a member to a team or sets their role. Errors: Invalid, NotFound, Forbidden.
func (r *App) SetTeamMember(ctx context.Context, orgID, teamID, userID string, in model.SetTeamMemberInput) (*model.Team, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if _, err := r.managedTeam(ctx, orgID, teamID); err != nil {
		return nil, err
	}
	members, err := r.Store.MemberIDsIn(ctx, orgID, []string{userID})
	if err != nil {
		return nil, err
	}
	if !members[userID] {
		return nil, apperr.NotFoundf("member not found")
	}
	update := storage.TeamUpdate{Add: []string{userID}}
	if in.Role != nil {
		update.Set = map[string]string{userID: string(*in.Role)}
	}
	ctx = r.emit(ctx, teamEvent(EventTeamMembersUpdated, orgID, teamID), map[string]any{"add": update.Add, "remove": update.Remove, "roles": update.Set})
	if err := r.Store.UpdateTeamMembers(ctx, orgID, teamID, update, r.Now()); err != nil {
		return nil, err
	}
	return r.teamAfterChange(ctx, orgID, teamID)
}

// RemoveTeamMember removes a member from a team: managers remove anyone, and any member,
// guests included, may leave. A missing team or membership reports false.
// Errors: NotFound (organization), Forbidden.
func (r *App) RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) (bool, error) {
	org, err := r.OrganizationByID(ctx, orgID)
	if err != nil {
		return false, err
	}
	if _, err := r.Store.FindTeam(ctx, org.ID, teamID); errors.Is(err, storage.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if org.Viewer.ID != userID {
		if _, err := r.managedTeam(ctx, org.ID, teamID); err != nil {
			return false, err
		}
	} else if err := authz.RequireUnlimited(ctx, "leaving a team"); err != nil {
		return false, err
	}
	ctx = r.emit(ctx, teamEvent(EventTeamMembersUpdated, orgID, teamID), map[string]any{"remove": []string{userID}})
	return r.Store.RemoveTeamMember(ctx, teamID, userID)
}

// TeamMembers lists a team's members. Errors: Invalid, Forbidden.
func (r *App) TeamMembers(ctx context.Context, t *model.Team, first *int, after *string) (*model.TeamMemberConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	if _, _, err := r.insiderAccess(ctx, t.OrganizationID); err != nil {
		return nil, err
	}
	rows, _, err := loader.For(ctx, r.Store).TeamMembers.Load(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	list, err := storage.PageInMemory("teamMembers", rows, func(m *storage.TeamMember) (time.Time, string) { return m.CreatedAt, m.UserID }, false, page)
	if err != nil {
		return nil, err
	}
	members := make([]*model.Member, len(list.Items))
	for i, m := range list.Items {
		members[i] = r.toMember(m.Member)
	}
	if err := r.fillMemberCounts(ctx, t.OrganizationID, members); err != nil {
		return nil, err
	}
	items := make([]*model.TeamMember, len(list.Items))
	for i, m := range list.Items {
		items[i] = &model.TeamMember{Organization: members[i], Team: model.TeamRole{Role: model.TeamMemberRole(m.Role)}, Permissions: model.TeamMemberAccess{View: true}}
	}
	return model.NewConnection(items, list.Cursors, list.Total, list.HasMore), nil
}
