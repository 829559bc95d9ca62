package domain

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/text"
	"github.com/bindery/bindery/storage"
)

// siteURL is where a site is published: under its basename, or its id until it has one.
func (r *App) siteURL(basename *string, id string) string {
	name := id
	if basename != nil {
		name = *basename
	}
	return r.Settings.PublicURL + "/sites/" + name + "/"
}

// publicSiteURL is where a site is published: at its own host name once its DNS points here,
// else under the server's /sites/.
func (r *App) publicSiteURL(s *model.Site) string {
	if s.Hostname != nil {
		return "https://" + *s.Hostname + "/"
	}
	return r.siteURL(s.Basename, s.ID)
}

func (r *App) toSite(s *storage.Site) *model.Site {
	out := &model.Site{
		Object: "site", ID: s.ID, Type: model.SiteType(s.Type), Title: s.Title, Basename: s.Basename,
		Visibility: model.SiteVisibility(s.Visibility), Published: s.SiteSpaces > 0 && !s.Unpublished, SiteSpaces: s.SiteSpaces,
		CreatedAt: s.CreatedAt, AdaptiveContent: model.SiteAdaptiveContent{Enabled: s.AdaptiveContent},
		AgentsContext: model.SiteAgentsContext(s.AgentsContext), Features: []model.SiteFeature{},
		URLs: model.SiteURLs{
			Location: r.apiURL("/orgs/%s/sites/%s", s.OrganizationID, s.ID),
			App:      r.Settings.AppURL + "/o/" + s.OrganizationID + "/sites/" + s.ID + "/",
		},
		OrganizationID: s.OrganizationID,
	}
	out.Hostname = s.Hostname
	if out.Published {
		u := r.publicSiteURL(out)
		out.URLs.Published = &u
	}
	return out
}

// siteReader loads an organization the caller reads sites of: members with a role.
// Errors: NotFound, Forbidden.
func (r *App) siteReader(ctx context.Context, orgID string) (*model.Organization, error) {
	org, err := r.OrganizationByID(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if !org.Permissions.ListTeams {
		return nil, apperr.Forbiddenf("guests cannot see this organization's sites")
	}
	return org, nil
}

// siteEditor loads an organization whose sites the caller manages: the create role.
// Errors: NotFound, Forbidden.
func (r *App) siteEditor(ctx context.Context, orgID string) (*model.Organization, error) {
	org, err := r.OrganizationByID(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if !org.Permissions.CreateContent {
		return nil, apperr.Forbiddenf("you need the create role in this organization to manage sites")
	}
	return org, nil
}

// SiteListArgs narrows a list of sites; every field is optional.
type SiteListArgs struct {
	Title     *string
	Space     *string // sites publishing this space
	Published *bool
	Types     []model.SiteType
}

// Sites lists an organization's sites, newest first. Errors: Invalid, Forbidden.
func (r *App) Sites(ctx context.Context, org *model.Organization, args SiteListArgs, first *int, after *string) (*model.SiteConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	if _, err := r.siteReader(ctx, org.ID); err != nil {
		return nil, err
	}
	f := storage.SiteFilter{Title: deref(args.Title), SpaceID: deref(args.Space), Published: args.Published}
	for _, t := range args.Types {
		if !t.IsValid() {
			return nil, apperr.Invalidf("type", "%q is not a site type", t)
		}
		f.Types = append(f.Types, string(t))
	}
	page.NoTotal = !Wants(ctx, WantTotal)
	list, err := r.Store.FindSites(ctx, org.ID, f, page)
	if err != nil {
		return nil, err
	}
	// Each listed site may read its site spaces (and their spaces' counters): let them leave in
	// one batch.
	l := loader.For(ctx, r.Store)
	l.SiteSpaces.Expect(len(list.Items))
	l.ShareLinks.Expect(len(list.Items))
	l.SiteCustomizations.Expect(len(list.Items))
	l.SiteAdaptiveSchemas.Expect(len(list.Items))
	l.SiteRedirects.Expect(len(list.Items))
	l.SiteReaderSettings.Expect(len(list.Items))
	l.SigningKeys.Expect(len(list.Items))
	if Wants(ctx, WantSpaceCounters) {
		l.ChangeRequestCounts.ExpectCalls(len(list.Items))
	}
	return connectionOf(list, r.toSite), nil
}

// SiteByID returns one site. Errors: NotFound, Forbidden.
func (r *App) SiteByID(ctx context.Context, orgID, siteID string) (*model.Site, error) {
	if _, err := r.siteReader(ctx, orgID); err != nil {
		return nil, err
	}
	s, err := r.Store.FindSite(ctx, orgID, siteID)
	if err != nil {
		return nil, notFound(err, "site")
	}
	return r.toSite(s), nil
}

// CreateSite creates a site, publishing the given spaces in order. Errors: Invalid, NotFound,
// Forbidden.
func (r *App) CreateSite(ctx context.Context, orgID string, in model.CreateSiteInput) (*model.Site, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	org, err := r.siteEditor(ctx, orgID)
	if err != nil {
		return nil, err
	}
	var add []*storage.SiteSpace
	for i, id := range in.Spaces {
		ss, err := r.newSiteSpace(ctx, org.ID, id, fmt.Sprintf("spaces[%d]", i), add, nil)
		if err != nil {
			return nil, err
		}
		add = append(add, ss)
	}
	now := r.Now()
	site := &storage.Site{OrganizationID: org.ID, Title: "Untitled site", Type: string(model.SiteTypeSelfHosted), Visibility: "public",
		AgentsContext: "excluded", CreatedAt: now, UpdatedAt: now}
	if in.Title != nil {
		site.Title = *in.Title
	}
	if in.Type != nil {
		site.Type = string(*in.Type)
	}
	if in.Visibility != nil {
		site.Visibility = string(*in.Visibility)
	}
	if site.ID == "" {
		site.ID = storage.NewID()
	}
	if err := r.Store.CreateSite(r.emit(ctx, siteEvent(EventSiteCreated, org.ID, site.ID, site.Title), nil), site); err != nil {
		return nil, err
	}
	if len(add) > 0 {
		if err := r.Store.AddSiteSpaces(ctx, site.ID, add); err != nil {
			return nil, err
		}
	}
	return r.SiteByID(ctx, org.ID, site.ID)
}

// publishableSpace loads a space of the organization that the caller can read, to publish it.
// Errors: Invalid naming field.
func (r *App) publishableSpace(ctx context.Context, orgID, spaceID, field string) (*model.Space, error) {
	s, _, err := r.readableSpace(ctx, spaceID, false)
	if apperr.KindOf(err) == apperr.NotFound || (err == nil && s.Organization != orgID) {
		return nil, apperr.Invalidf(field, "space %q not found in this organization", spaceID)
	}
	return s, err
}

// newSiteSpace prepares a site space for a space the caller can read, at a path free among
// taken and existing (the site spaces of the section it joins). Errors: Invalid naming field.
func (r *App) newSiteSpace(ctx context.Context, orgID, spaceID, field string, taken, existing []*storage.SiteSpace) (*storage.SiteSpace, error) {
	s, err := r.publishableSpace(ctx, orgID, spaceID, field)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	for _, ss := range append(append([]*storage.SiteSpace{}, taken...), existing...) {
		used[ss.Path] = true
	}
	return &storage.SiteSpace{OrganizationID: orgID, SpaceID: spaceID, Path: freePath(slug(s.Title), used), CreatedAt: r.Now()}, nil
}

// slug turns a title into a path segment: "Getting Started!" → "getting-started".
func slug(title string) string { return text.SlugOf(title, 90, "space") }

// UpdateSite changes a site. Errors: Invalid (also a basename another site uses), NotFound,
// Forbidden.
func (r *App) UpdateSite(ctx context.Context, orgID, siteID string, in model.UpdateSiteInput) (*model.Site, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if _, err := r.siteEditor(ctx, orgID); err != nil {
		return nil, err
	}
	site, err := r.Store.FindSite(ctx, orgID, siteID)
	if err != nil {
		return nil, notFound(err, "site")
	}
	var set storage.SiteField
	if v, ok := in.Title.ValueOK(); ok {
		site.Title, set = *v, set|storage.SiteTitle
	}
	if v, ok := in.Visibility.ValueOK(); ok {
		site.Visibility, set = string(*v), set|storage.SiteVisibility
	}
	if v, ok := in.Basename.ValueOK(); ok {
		site.Basename, set = v, set|storage.SiteBasename
	}
	if v, ok := in.AdaptiveContent.ValueOK(); ok {
		site.AdaptiveContent, set = v.Enabled, set|storage.SiteAdaptiveContent
	}
	if v, ok := in.AgentsContext.ValueOK(); ok {
		site.AgentsContext, set = string(*v), set|storage.SiteAgentsContext
	}
	defaults := storage.SiteDefaults{SiteSpace: in.DefaultSiteSpace.Value(), Section: in.DefaultSiteSection.Value()}
	if err := r.checkSiteDefaults(ctx, site.ID, defaults); err != nil {
		return nil, err
	}
	site.UpdatedAt = r.Now()
	err = r.Store.UpdateSite(r.emit(ctx, siteEvent(EventSiteUpdated, site.OrganizationID, site.ID, site.Title), nil), site, set, defaults)
	switch {
	case errors.Is(err, storage.ErrConflict):
		return nil, apperr.Invalidf("basename", "%q is already used by another site of this organization", *site.Basename)
	case errors.Is(err, storage.ErrNotFound):
		return nil, apperr.Invalidf("defaultSiteSpace", "site space or section not found on this site")
	case err != nil:
		return nil, err
	}
	return r.SiteByID(ctx, orgID, siteID)
}

// checkSiteDefaults checks that a site's new defaults are on it. Errors: Invalid naming the field.
func (r *App) checkSiteDefaults(ctx context.Context, siteID string, d storage.SiteDefaults) error {
	if d.Section != nil {
		outline, err := r.Store.SiteOutlineOf(ctx, siteID)
		if err != nil {
			return err
		}
		if outline.Section(*d.Section) == nil {
			return apperr.Invalidf("defaultSiteSection", "section %q not found on this site", *d.Section)
		}
	}
	if d.SiteSpace != nil {
		rows, err := r.Store.SiteSpacesOf(ctx, siteID)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(rows, func(ss *storage.SiteSpace) bool { return ss.ID == *d.SiteSpace }) {
			return apperr.Invalidf("defaultSiteSpace", "site space %q not found on this site", *d.SiteSpace)
		}
	}
	return nil
}

// DeleteSite deletes a site; a missing one reports false. Errors: NotFound (organization),
// Forbidden.
func (r *App) DeleteSite(ctx context.Context, orgID, siteID string) (bool, error) {
	if _, err := r.siteEditor(ctx, orgID); err != nil {
		return false, err
	}
	return r.Store.DeleteSite(r.emit(ctx, siteEvent(EventSiteDeleted, orgID, siteID, ""), nil), orgID, siteID)
}
