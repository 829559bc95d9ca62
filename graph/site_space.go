package graph

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/bindery/bindery/graph/apperr"
	"github.com/bindery/bindery/graph/loader"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/storage"
)

// siteSpaces reads a site's site spaces in order with their spaces, as the caller sees them: a
// site space whose space the caller cannot read (or that is in the trash) is left out. With a
// shareKey, published URLs go through that share link, and an unknown or inactive key gives none.
// A fixed number of statements whatever the counts.
func (r *Resolver) siteSpaces(ctx context.Context, site *model.Site, shareKey *string) ([]*model.SiteSpace, error) {
	loaders := loader.For(ctx, r.Store)
	rows, _, err := loaders.SiteSpaces.Load(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	byID, err := loaders.Spaces.LoadMany(ctx, spaceIDsOf(rows))
	if err != nil {
		return nil, err
	}
	return r.buildSiteSpaces(ctx, site, rows, byID, shareKey)
}

// freshSiteSpaces reads a site's site spaces past the request's loaders: after a change.
func (r *Resolver) freshSiteSpaces(ctx context.Context, site *model.Site) ([]*model.SiteSpace, error) {
	rows, err := r.Store.SiteSpacesOf(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	spaces, err := r.Store.SpacesByIDs(ctx, spaceIDsOf(rows))
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*storage.Space, len(spaces))
	for _, s := range spaces {
		byID[s.ID] = s
	}
	return r.buildSiteSpaces(ctx, site, rows, byID, nil)
}

func spaceIDsOf(rows []*storage.SiteSpace) []string {
	ids := make([]string, len(rows))
	for i, ss := range rows {
		ids[i] = ss.SpaceID
	}
	return ids
}

// buildSiteSpaces shows site spaces to the caller (see siteSpaces).
func (r *Resolver) buildSiteSpaces(ctx context.Context, site *model.Site, rows []*storage.SiteSpace, byID map[string]*storage.Space, shareKey *string) ([]*model.SiteSpace, error) {
	acc, err := r.viewerAccess(ctx, site.OrganizationID)
	if err != nil {
		return nil, err
	}
	base, share := r.siteURL(site.Basename, site.ID), ""
	if shareKey != nil {
		link, err := r.Store.FindShareLinkByKey(ctx, site.ID, *shareKey)
		switch {
		case errors.Is(err, storage.ErrNotFound) || (err == nil && !link.Active):
			base = ""
		case err != nil:
			return nil, err
		default:
			share = "?share=" + link.ShareKey
		}
	}
	out := make([]*model.SiteSpace, 0, len(rows))
	for _, ss := range rows {
		s, ok := byID[ss.SpaceID]
		if !ok {
			continue // in the trash
		}
		role := acc.SpaceRole(spaceNode(s))
		if !canRead(role) {
			continue
		}
		item := &model.SiteSpace{Object: "site-space", ID: ss.ID, Path: ss.Path, Space: r.toSpace(s, role), Title: s.Title, Default: ss.IsDefault, Condition: ss.Condition}
		if base != "" {
			u := base + share
			if !ss.IsDefault {
				u = base + ss.Path + "/" + share
			}
			item.URLs.Published = &u
		}
		out = append(out, item)
	}
	spaces := make([]*model.Space, len(out))
	for i, item := range out {
		spaces[i] = item.Space
	}
	return out, r.withCounts(ctx, spaces...)
}

// siteSpaceList pages through a site's site spaces in order; isDefault narrows to the default
// one (true) or the others (false). Errors: Invalid.
func (r *Resolver) siteSpaceList(ctx context.Context, site *model.Site, first *int, after *string, shareKey *string, isDefault *bool) (*model.SiteSpaceConnection, error) {
	page, err := pageOf(first, after)
	if err != nil {
		return nil, err
	}
	all, err := r.siteSpaces(ctx, site, shareKey)
	if err != nil {
		return nil, err
	}
	if isDefault != nil {
		all = slices.DeleteFunc(all, func(ss *model.SiteSpace) bool { return ss.Default != *isDefault })
	}
	// The site's order is the list's order: page by position through a synthetic time key.
	type ordered struct {
		ss  *model.SiteSpace
		pos int
	}
	items := make([]ordered, len(all))
	for i, ss := range all {
		items[i] = ordered{ss, i}
	}
	list, err := storage.PageInMemory("siteSpaces", items, func(o ordered) (time.Time, string) { return time.Unix(int64(o.pos), 0), o.ss.ID }, false, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, func(o ordered) *model.SiteSpace { return o.ss }), nil
}

// structure is what readers navigate: the site spaces in order (sections arrive later).
func (r *Resolver) structure(ctx context.Context, site *model.Site, shareKey *string) (*model.SiteStructure, error) {
	all, err := r.siteSpaces(ctx, site, shareKey)
	if err != nil {
		return nil, err
	}
	return &model.SiteStructure{Type: "siteSpaces", Structure: all}, nil
}

// visibleStructure is the structure a visitor with claims would see: the site spaces whose
// condition holds for them.
func (r *Resolver) visibleStructure(ctx context.Context, site *model.Site, claims model.Document) (*model.SiteStructure, error) {
	var values map[string]any
	if err := jsonUnmarshal(claims, &values); err != nil {
		return nil, apperr.Invalidf("claims", "must be a JSON object")
	}
	st, err := r.structure(ctx, site, nil)
	if err != nil {
		return nil, err
	}
	st.Structure = slices.DeleteFunc(st.Structure, func(ss *model.SiteSpace) bool { return !conditionHolds(ss.Condition, values) })
	return st, nil
}

// findSiteSpace returns a site space as the caller sees it, read afresh after a change.
// Errors: NotFound.
func (r *Resolver) findSiteSpace(ctx context.Context, site *storage.Site, id string) (*model.SiteSpace, error) {
	all, err := r.freshSiteSpaces(ctx, r.toSite(site))
	if err != nil {
		return nil, err
	}
	if i := slices.IndexFunc(all, func(ss *model.SiteSpace) bool { return ss.ID == id }); i >= 0 {
		return all[i], nil
	}
	return nil, apperr.NotFoundf("site space not found")
}

// editableSite loads a site the caller manages. Errors: NotFound, Forbidden.
func (r *Resolver) editableSite(ctx context.Context, orgID, siteID string) (*storage.Site, error) {
	if _, err := r.siteEditor(ctx, orgID); err != nil {
		return nil, err
	}
	site, err := r.Store.FindSite(ctx, orgID, siteID)
	return site, notFound(err, "site")
}

// addSiteSpace publishes a space on a site, after its other site spaces.
// Errors: Invalid, NotFound, Forbidden.
func (r *Resolver) addSiteSpace(ctx context.Context, orgID, siteID string, in model.AddSiteSpaceInput) (*model.SiteSpace, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	existing, err := r.Store.SiteSpacesOf(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	ss, err := r.newSiteSpace(ctx, orgID, in.SpaceID, "spaceId", nil, existing)
	if err != nil {
		return nil, err
	}
	if err := r.Store.AddSiteSpaces(ctx, site.ID, []*storage.SiteSpace{ss}); err != nil {
		return nil, err
	}
	return r.findSiteSpace(ctx, site, ss.ID)
}

// updateSiteSpace changes a site space's path, condition or space. Errors: Invalid (a path
// another site space uses, a condition that is not a boolean expression), NotFound, Forbidden.
func (r *Resolver) updateSiteSpace(ctx context.Context, orgID, siteID, id string, in model.UpdateSiteSpaceInput) (*model.SiteSpace, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	rows, err := r.Store.SiteSpacesOf(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(rows, func(ss *storage.SiteSpace) bool { return ss.ID == id })
	if i < 0 {
		return nil, apperr.NotFoundf("site space not found")
	}
	row, cols := rows[i], []string{}
	if in.Path != nil {
		row.Path, cols = *in.Path, append(cols, "path")
	}
	if v, ok := in.Condition.ValueOK(); ok {
		if v != nil {
			if _, err := compileCondition("condition", *v); err != nil {
				return nil, err
			}
		}
		row.Condition, cols = v, append(cols, "condition")
	}
	if in.SpaceID != nil {
		if _, err := r.newSiteSpace(ctx, orgID, *in.SpaceID, "spaceId", nil, nil); err != nil {
			return nil, err
		}
		row.SpaceID, cols = *in.SpaceID, append(cols, "space_id")
	}
	if len(cols) > 0 {
		if err := r.Store.UpdateSiteSpace(ctx, row, cols); errors.Is(err, storage.ErrConflict) {
			return nil, apperr.Invalidf("path", "%q is already used by another site space of this site", row.Path)
		} else if err != nil {
			return nil, err
		}
	}
	return r.findSiteSpace(ctx, site, id)
}

// deleteSiteSpace stops publishing a site space; a missing one reports false.
// Errors: NotFound (site), Forbidden.
func (r *Resolver) deleteSiteSpace(ctx context.Context, orgID, siteID, id string) (bool, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return false, err
	}
	return r.Store.DeleteSiteSpace(ctx, site.ID, id)
}

// sortSiteStructure moves a site space before or after another. Errors: Invalid, NotFound,
// Forbidden.
func (r *Resolver) sortSiteStructure(ctx context.Context, orgID, siteID string, in model.SortSiteStructureInput) (*model.SiteSpace, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	anchor, after := in.Position.Before, false
	if anchor == nil {
		anchor, after = in.Position.After, true
	}
	if err := r.Store.MoveSiteSpace(ctx, site.ID, in.Item.ID, anchor.ID, after); errors.Is(err, storage.ErrNotFound) {
		return nil, apperr.NotFoundf("site space not found on this site")
	} else if err != nil {
		return nil, err
	}
	return r.findSiteSpace(ctx, site, in.Item.ID)
}

// checkVisitorCondition reports whether a condition is a valid boolean expression.
func (r *Resolver) checkVisitorCondition(condition string) *model.ConditionCheck {
	if _, err := compileCondition("condition", condition); err != nil {
		msg := apperr.Message(err)
		return &model.ConditionCheck{Valid: false, Error: &msg}
	}
	return &model.ConditionCheck{Valid: true}
}
