package domain

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Reading one space, and listing an organization's spaces, must cost the same in an
// organization of ten spaces and of ten thousand. So neither loads the organization: a list asks
// the database which spaces the caller reads (storage.ReadableSpacePage, the engine's rules in
// SQL), and the caller's role on each space it returns, like on a space read alone, is decided
// by the one engine (authz.Access) from what that space needs: the collections above it and the
// caller's grants on them (spacesAccess). docs/permissions.md, "Deciding in SQL".

// viewerMember returns the caller and their membership of an organization (nil: not a member,
// or a token confined to another organization).
func (r *App) viewerMember(ctx context.Context, orgID string) (*authz.Actor, *storage.Member, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, nil, err
	}
	m, err := loader.For(ctx, r.Store).Membership.Find(ctx, orgID)
	if err != nil && apperr.KindOf(err) != apperr.NotFound {
		return nil, nil, err
	}
	if !actor.Limit.InOrganization(orgID) || ssoBarred(actor, m) {
		m = nil
	}
	return actor, m, nil
}

// spacesAccess is the caller's access to an organization with what deciding their roles on the
// given spaces needs, and no more: the collections above them and the caller's grants on those
// and on the spaces (their own and their teams'). Two statements whatever the organization's
// size; none for organization admins and non-members. Only SpaceRole on these spaces may be
// asked of it.
func (r *App) spacesAccess(ctx context.Context, orgID string, spaces []*storage.Space) (*orgAccess, error) {
	actor, m, err := r.viewerMember(ctx, orgID)
	if err != nil {
		return nil, err
	}
	a := &orgAccess{Access: &authz.Access{UserID: actor.UserID, Teams: map[string]bool{}, Collections: map[string]*authz.Node{}, Limit: actor.Limit}, teamRoles: map[string]string{}}
	if m == nil {
		return a, nil
	}
	a.Member, a.OrgRole = true, (*model.MemberRole)(m.Role)
	if authz.AtLeast(a.OrgRole, model.MemberRoleAdmin) || len(spaces) == 0 {
		return a, nil // admins are admins everywhere
	}
	targets := make([]string, 0, len(spaces))
	var parents []string
	for _, s := range spaces {
		targets = append(targets, s.ID)
		if s.CollectionID != nil && !slices.Contains(parents, *s.CollectionID) {
			parents = append(parents, *s.CollectionID)
		}
	}
	chain, err := r.Store.CollectionChains(ctx, orgID, parents)
	if err != nil {
		return nil, err
	}
	for _, c := range chain {
		n := collectionNode(c)
		a.Collections[c.ID] = &n
		targets = append(targets, c.ID)
	}
	grants, err := r.Store.UserGrantsOn(ctx, orgID, actor.UserID, targets)
	if err != nil {
		return nil, err
	}
	a.Grants = toGrants(grants)
	for _, g := range grants {
		if g.PrincipalKind == storage.PrincipalTeam {
			a.Teams[g.PrincipalID] = true // the statement kept the grants of the caller's teams only
		}
	}
	return a, nil
}

// spaceReader says who the caller is to the database's visibility decision; false when they read
// no space of the organization at all.
func spaceReader(orgID string, actor *authz.Actor, m *storage.Member) (storage.SpaceReader, bool) {
	if m == nil {
		return storage.SpaceReader{}, false
	}
	reads, only := actor.Limit.SpaceReach()
	if !reads {
		return storage.SpaceReader{}, false
	}
	role := (*model.MemberRole)(m.Role)
	reader := storage.SpaceReader{OrganizationID: orgID, UserID: actor.UserID, Admin: authz.AtLeast(role, model.MemberRoleAdmin), Member: role != nil}
	if only != nil {
		reader.Only = make([]string, 0, len(only))
		for id, ok := range only {
			if ok {
				reader.Only = append(reader.Only, id)
			}
		}
		slices.Sort(reader.Only)
	}
	return reader, true
}

// OrganizationSpaces lists the spaces of an organization the caller can read, newest first. The
// database picks the page; the engine decides each listed space's role. Errors: Invalid.
func (r *App) OrganizationSpaces(ctx context.Context, org *model.Organization, first *int, after *string) (*model.SpaceConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	actor, m, err := r.viewerMember(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	var list storage.List[*storage.Space]
	if reader, ok := spaceReader(org.ID, actor, m); ok {
		list, err = r.Store.ReadableSpacePage(ctx, reader, "spaces.desc", page)
	} else { // nothing to read; the page token is still checked
		list, err = storage.PageInMemory[*storage.Space]("spaces", nil, func(s *storage.Space) (time.Time, string) { return s.CreatedAt, s.ID }, true, page)
	}
	if err != nil {
		return nil, err
	}
	acc, err := r.spacesAccess(ctx, org.ID, list.Items)
	if err != nil {
		return nil, err
	}
	roles := make(map[string]*model.MemberRole, len(list.Items))
	kept := list.Items[:0:0]
	for _, s := range list.Items {
		role := acc.SpaceRole(spaceNode(s))
		if !canRead(role) {
			// The database and the engine disagree: never show what the engine refuses.
			slog.ErrorContext(ctx, "space visibility: SQL listed a space the engine refuses", "space", s.ID, "organization", org.ID)
			continue
		}
		roles[s.ID] = role
		kept = append(kept, s)
	}
	if len(kept) != len(list.Items) {
		list = keepListed(list, kept)
	}
	// Each listed space may ask for its grants: let them leave in one batch.
	loader.For(ctx, r.Store).Grants.Expect(len(list.Items))
	conn := connectionOf(list, func(s *storage.Space) *model.Space { return r.toSpace(s, roles[s.ID]) })
	return conn, r.withCounts(ctx, conn.Nodes...)
}

// keepListed narrows a page to the items kept, with their cursors.
func keepListed(list storage.List[*storage.Space], kept []*storage.Space) storage.List[*storage.Space] {
	out := storage.List[*storage.Space]{Total: list.Total - (len(list.Items) - len(kept)), HasMore: list.HasMore}
	for i, s := range list.Items {
		if slices.Contains(kept, s) {
			out.Items, out.Cursors = append(out.Items, s), append(out.Cursors, list.Cursors[i])
		}
	}
	return out
}
