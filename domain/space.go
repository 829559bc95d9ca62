package domain

import (
	"context"
	"encoding/json"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

func (r *App) toSpace(s *storage.Space, role *model.MemberRole) *model.Space {
	out := &model.Space{
		Object: "space", ID: s.ID, Title: s.Title, Emoji: s.Emoji, Visibility: "private",
		CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, DeletedAt: s.DeletedAt,
		EditMode: model.SpaceEditMode(s.EditMode), Organization: s.OrganizationID, Parent: s.CollectionID,
		Language: (*model.Language)(s.Language), Revision: s.RevisionID, DefaultLevel: (*model.DefaultLevel)(s.DefaultLevel),
		URLs:        model.SpaceURLs{Location: r.apiURL("/spaces/%s", s.ID), App: r.Settings.AppURL + "/s/" + s.ID + "/", Icon: s.IconURL},
		Permissions: authz.SpacePermissions(role),
		ViewerRole:  role, IsTemplate: s.IsTemplate, GitSync: gitSyncState(s.GitSync),
	}
	if s.CollectionID != nil {
		out.Visibility = "in-collection"
	}
	if s.MergeRules == mergeRulesInheritJSON { // the default needs no decoder (a list shows hundreds)
		out.MergeRules = model.MergeRules{Type: model.MergeRulesInherit}
	} else if err := json.Unmarshal([]byte(s.MergeRules), &out.MergeRules); err != nil || out.MergeRules.Type == "" {
		out.MergeRules = model.MergeRules{Type: model.MergeRulesInherit}
	}
	return out
}

// SpaceByID returns a live space the caller can read. Errors: Unauthenticated, NotFound.
func (r *App) SpaceByID(ctx context.Context, id string) (*model.Space, error) {
	s, _, err := r.readableSpace(ctx, id, false)
	return s, err
}

// readableSpace loads a space (deleted ones too when trash) and the caller's role on it.
func (r *App) readableSpace(ctx context.Context, id string, trash bool) (*model.Space, *storage.Space, error) {
	if _, err := authz.RequireActor(ctx); err != nil {
		return nil, nil, err
	}
	row, err := r.Store.FindSpaceByID(ctx, id, trash)
	if err != nil {
		return nil, nil, notFound(err, "space")
	}
	// Decided from the space's own chain, never from the whole organization.
	acc, err := r.spacesAccess(ctx, row.OrganizationID, []*storage.Space{row})
	if err != nil {
		return nil, nil, err
	}
	role := acc.SpaceRole(spaceNode(row))
	if !canRead(role) {
		return nil, nil, apperr.NotFoundf("space not found")
	}
	sp := r.toSpace(row, role)
	return sp, row, r.withCounts(ctx, sp)
}

// withCounts fills spaces' change request counters when the request shows them: one statement for
// all of them, shared with sibling lists of the same request.
func (r *App) withCounts(ctx context.Context, spaces ...*model.Space) error {
	if !Wants(ctx, WantSpaceCounters) {
		return nil // no statement for counters nobody reads
	}
	// An empty list still calls LoadMany: a parent may have announced this call (ExpectCalls).
	ids := make([]string, len(spaces))
	for i, s := range spaces {
		ids[i] = s.ID
	}
	counts, err := loader.For(ctx, r.Store).ChangeRequestCounts.LoadMany(ctx, ids)
	if err != nil {
		return err
	}
	for _, s := range spaces {
		c := counts[s.ID]
		s.ChangeRequestsOpen, s.ChangeRequestsDraft = c["open"], c["draft"]
		s.ChangeRequests = c["open"] + c["draft"] + c["archived"] + c["merged"]
		s.Comments = c[storage.CommentsCount]
	}
	return nil
}

// sameCounts copies counters already loaded for a space onto a fresh copy of it.
func sameCounts(to, from *model.Space) *model.Space {
	to.ChangeRequests, to.ChangeRequestsOpen, to.ChangeRequestsDraft = from.ChangeRequests, from.ChangeRequestsOpen, from.ChangeRequestsDraft
	to.Comments = from.Comments
	return to
}

// readableSpaces pages through the organization's live spaces the caller can read that keep
// passes, newest first unless ascending. A fixed number of statements whatever the counts.
// list names the list in its page tokens, so a token of one list is refused by another.
func (r *App) readableSpaces(ctx context.Context, list, orgID string, acc *orgAccess, keep func(*storage.Space) bool, page storage.Window, ascending bool) (*model.SpaceConnection, error) {
	all, err := r.orgSpaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	roles := map[string]*model.MemberRole{}
	var visible []*storage.Space
	for _, s := range all {
		if role := acc.SpaceRole(spaceNode(s)); canRead(role) && (keep == nil || keep(s)) {
			roles[s.ID] = role
			visible = append(visible, s)
		}
	}
	spaces, err := storage.PageInMemory(list, visible, func(s *storage.Space) (time.Time, string) { return s.CreatedAt, s.ID }, !ascending, page)
	if err != nil {
		return nil, err
	}
	// Each listed space may ask for its grants and its content: let them leave in one batch.
	loader.For(ctx, r.Store).Grants.Expect(len(spaces.Items))
	r.announceSpaceContent(ctx, spaces.Items)
	conn := connectionOf(spaces, func(s *storage.Space) *model.Space { return r.toSpace(s, roles[s.ID]) })
	return conn, r.withCounts(ctx, conn.Nodes...)
}

// CreateSpace creates a space at the organization's root or in a collection; the creator
// becomes its admin. Errors: Invalid, NotFound, Forbidden.
func (r *App) CreateSpace(ctx context.Context, orgID string, in model.CreateSpaceInput) (*model.Space, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	acc, err := r.creatorAccess(ctx, orgID, in.Parent)
	if err != nil {
		return nil, err
	}
	now := r.Now()
	inherit := string(model.DefaultLevelInherit)
	row := &storage.Space{
		OrganizationID: orgID, CollectionID: in.Parent, Title: "Untitled", EditMode: "live",
		DefaultLevel: &inherit, MergeRules: mergeRulesInheritJSON, CreatedAt: now, UpdatedAt: now,
		Language: (*string)(in.Language),
	}
	if in.Title != nil && *in.Title != "" {
		row.Title = *in.Title
	}
	if in.Emoji != nil {
		row.Emoji = *in.Emoji
	}
	if in.EditMode != nil {
		row.EditMode = string(*in.EditMode)
	}
	row.ID = storage.NewID()
	ctx = r.emit(ctx, spaceEvent(EventSpaceCreated, row), map[string]any{"title": row.Title, "parent": in.Parent})
	if err := r.Store.CreateSpace(ctx, row, creatorGrant(acc)); err != nil {
		return nil, err
	}
	role := model.MemberRoleAdmin
	return r.toSpace(row, &role), nil
}

// creatorGrant is who gets an admin grant on content they create: the creator, unless they are
// an organization admin already.
func creatorGrant(acc *orgAccess) string {
	if authz.AtLeast(acc.OrgRole, model.MemberRoleAdmin) {
		return ""
	}
	return acc.UserID
}

// creatorAccess loads the caller's access to an organization and checks that they may create
// content in parent (a collection id) or, when nil, at its root. Errors: Invalid, NotFound,
// Forbidden.
func (r *App) creatorAccess(ctx context.Context, orgID string, parent *string) (*orgAccess, error) {
	if _, err := r.OrganizationByID(ctx, orgID); err != nil {
		return nil, err
	}
	acc, err := r.viewerAccess(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return acc, r.canCreateIn(acc, parent)
}

// canCreateIn checks that the caller may create content in a collection (parent) or at the
// organization's root. Errors: Invalid (unknown parent), Forbidden.
func (r *App) canCreateIn(acc *orgAccess, parent *string) error {
	if parent == nil {
		if !authz.AtLeast(acc.OrganizationRole(), model.MemberRoleCreate) {
			return apperr.Forbiddenf("you need the create role in this organization")
		}
		return nil
	}
	node, ok := acc.Collections[*parent]
	role := acc.CollectionRole(derefNode(node))
	if !ok || !canRead(role) {
		return apperr.Invalidf("parent", "collection %q not found", *parent)
	}
	return require(role, model.MemberRoleCreate, "parent collection")
}

func derefNode(n *authz.Node) authz.Node {
	if n == nil {
		return authz.Node{}
	}
	return *n
}

// UpdateSpace changes a space. Errors: Invalid, NotFound, Forbidden.
func (r *App) UpdateSpace(ctx context.Context, id string, in model.UpdateSpaceInput) (*model.Space, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	sp, row, err := r.readableSpace(ctx, id, false)
	if err != nil {
		return nil, err
	}
	var set storage.SpaceField
	if in.EditMode.IsSet() || in.DefaultLevel.IsSet() || in.MergeRules.IsSet() {
		if err := require(sp.ViewerRole, model.MemberRoleAdmin, "space"); err != nil {
			return nil, err
		}
	}
	if err := require(sp.ViewerRole, model.MemberRoleEdit, "space"); err != nil {
		return nil, err
	}
	if v, ok := in.Title.ValueOK(); ok {
		row.Title = *v
		set |= storage.SpaceTitle
	}
	if in.Emoji.IsSet() || in.Icon.IsSet() {
		// Emoji and icon exclude each other: setting one clears the other.
		row.Emoji, row.IconURL = deref(in.Emoji.Value()), in.Icon.Value()
		set |= storage.SpaceIcon
	}
	if v, ok := in.EditMode.ValueOK(); ok {
		row.EditMode = string(*v)
		set |= storage.SpaceEditMode
	}
	if v, ok := in.DefaultLevel.ValueOK(); ok {
		row.DefaultLevel = (*string)(v)
		set |= storage.SpaceDefaultLevel
	}
	if v, ok := in.Language.ValueOK(); ok {
		row.Language = (*string)(v)
		set |= storage.SpaceLanguage
	}
	if v, ok := in.MergeRules.ValueOK(); ok {
		if err := r.checkRuleUsers(ctx, row.OrganizationID, v); err != nil {
			return nil, err
		}
		b, _ := json.Marshal(v)
		row.MergeRules = string(b)
		set |= storage.SpaceMergeRules
	}
	if set != 0 { // an empty patch changes nothing, not even updatedAt
		row.UpdatedAt = r.Now()
		ctx := r.emit(ctx, spaceEvent(EventSpaceUpdated, row), map[string]any{"title": row.Title})
		if err := r.Store.UpdateSpace(ctx, row, set); err != nil {
			return nil, err
		}
	}
	return sameCounts(r.toSpace(row, sp.ViewerRole), sp), nil
}

// DeleteSpace moves a space to the trash. A space that is missing, already deleted or invisible
// to the caller reports false. Errors: Forbidden.
func (r *App) DeleteSpace(ctx context.Context, id string) (bool, error) {
	sp, _, err := r.readableSpace(ctx, id, false)
	if apperr.KindOf(err) == apperr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := require(sp.ViewerRole, model.MemberRoleAdmin, "space"); err != nil {
		return false, err
	}
	now := r.Now()
	ctx = r.emit(ctx, &storage.Event{Type: EventSpaceDeleted, OrganizationID: sp.Organization, SpaceID: id, TargetType: "space", TargetID: id, TargetLabel: sp.Title}, nil)
	return r.Store.SetSpaceDeleted(ctx, id, &now)
}

// RestoreSpace brings a space back from the trash; a live space is returned as it is.
// Errors: NotFound, Forbidden.
func (r *App) RestoreSpace(ctx context.Context, id string) (*model.Space, error) {
	sp, row, err := r.readableSpace(ctx, id, true)
	if err != nil {
		return nil, err
	}
	if err := require(sp.ViewerRole, model.MemberRoleAdmin, "space"); err != nil {
		return nil, err
	}
	if row.DeletedAt == nil {
		return sp, nil
	}
	ctx = r.emit(ctx, spaceEvent(EventSpaceRestored, row), nil)
	if _, err := r.Store.SetSpaceDeleted(ctx, id, nil); err != nil {
		return nil, err
	}
	row.DeletedAt = nil
	return sameCounts(r.toSpace(row, sp.ViewerRole), sp), nil
}
