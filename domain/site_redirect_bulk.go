package domain

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// maxBulkRedirects bounds one bulk upsert, as the contract does.
const maxBulkRedirects = 500

// BulkUpsertSiteRedirects applies up to 500 redirect operations (@gitbook/api 0.202.0's
// bulkUpsertSiteRedirects), each on its own: a redirect from source to destination is created or
// changed, a null destination deletes the redirect from source. An item this server cannot apply
// (a draft, publishing a draft, a wildcard source, a temporary redirect, a destination not on the
// site) answers status "error" with the reason and changes nothing; the others are applied.
// Errors (the whole request): Invalid (no items, too many), NotFound, Forbidden.
func (r *App) BulkUpsertSiteRedirects(ctx context.Context, orgID, siteID string, in model.SiteRedirectBulkInput) (*model.SiteRedirectBulkResults, error) {
	if len(in.Redirects) == 0 {
		return nil, apperr.Invalidf("redirects", "needs at least one redirect")
	}
	if len(in.Redirects) > maxBulkRedirects {
		return nil, apperr.Invalidf("redirects", "at most %d redirects at once", maxBulkRedirects)
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	out := &model.SiteRedirectBulkResults{Results: make([]*model.SiteRedirectBulkResult, 0, len(in.Redirects))}
	for _, it := range in.Redirects {
		if it == nil {
			return nil, apperr.Invalidf("redirects", "an item is null")
		}
		res, err := r.bulkRedirect(ctx, orgID, site, it)
		if err != nil {
			if k := apperr.KindOf(err); k != apperr.Invalid && k != apperr.NotFound {
				return nil, err
			}
			msg := apperr.Message(err)
			res = &model.SiteRedirectBulkResult{Status: "error", Error: &msg}
		}
		res.Source = it.Source
		res.Draft = it.Intent != nil && *it.Intent == "draft"
		out.Results = append(out.Results, res)
	}
	return out, nil
}

func (r *App) bulkRedirect(ctx context.Context, orgID string, site *storage.Site, it *model.SiteRedirectBulkItem) (*model.SiteRedirectBulkResult, error) {
	if err := validRedirectSource("source", it.Source); err != nil {
		if strings.HasSuffix(it.Source, "*") {
			return nil, apperr.Invalidf("source", "wildcard sources are not supported: a redirect's source is one path")
		}
		return nil, err
	}
	intent := "live"
	if it.Intent != nil {
		intent = *it.Intent
	}
	switch intent {
	case "live":
	case "draft", "publish":
		return nil, apperr.Invalidf("intent", "draft redirects are not supported: every redirect is live")
	default:
		return nil, apperr.Invalidf("intent", "must be live, draft or publish")
	}
	if it.CaptureWildcard != nil && *it.CaptureWildcard {
		return nil, apperr.Invalidf("captureWildcard", "wildcard sources are not supported")
	}
	if it.Permanent != nil && !*it.Permanent {
		return nil, apperr.Invalidf("permanent", "temporary redirects are not supported: redirects are permanent (301)")
	}
	existing, err := r.Store.FindSiteRedirectBySource(ctx, site.ID, it.Source)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	if it.Destination.IsNull() {
		if existing == nil {
			return nil, apperr.NotFoundf("no redirect from %s to delete", it.Source)
		}
		if _, err := r.DeleteSiteRedirect(ctx, orgID, site.ID, existing.ID); err != nil {
			return nil, err
		}
		return &model.SiteRedirectBulkResult{Status: "deleted"}, nil
	}
	dest, err := r.bulkDestination(ctx, site, it.Destination)
	if err != nil {
		return nil, err
	}
	if existing == nil {
		red, err := r.CreateSiteRedirect(ctx, orgID, site.ID, model.SiteRedirectInput{Source: &it.Source, Destination: dest})
		if err != nil {
			return nil, err
		}
		return &model.SiteRedirectBulkResult{Status: "created", ID: &red.ID}, nil
	}
	red, err := r.UpdateSiteRedirect(ctx, orgID, site.ID, existing.ID, model.SiteRedirectInput{Destination: dest})
	if err != nil {
		return nil, err
	}
	return &model.SiteRedirectBulkResult{Status: "updated", ID: &red.ID}, nil
}

// bulkDestination reads the contract's SiteRedirectInputDestination: a destination as the
// redirect operations take it, or {"kind": "path", "spaceId", "path"}, a page by its path in a
// space the site publishes.
func (r *App) bulkDestination(ctx context.Context, site *storage.Site, raw model.JSON) (*model.SiteRedirectDestination, error) {
	var d struct {
		model.SiteRedirectDestination
		SpaceID *string `json:"spaceId"`
		Path    *string `json:"path"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, apperr.Invalidf("destination", "must be an object")
	}
	if d.Kind != "path" {
		return &d.SiteRedirectDestination, nil
	}
	if d.SpaceID == nil || d.Path == nil {
		return nil, apperr.Invalidf("destination", "a path destination needs spaceId and path")
	}
	structure, err := r.SiteStructure(ctx, r.toSite(site), nil)
	if err != nil {
		return nil, err
	}
	for _, ss := range siteSpacesOf(structure) {
		if ss.Space == nil || ss.Space.ID != *d.SpaceID {
			continue
		}
		src, err := r.SpaceContent(ctx, ss.Space.ID)
		if err != nil {
			return nil, err
		}
		page, err := r.PageByPath(ctx, src, strings.Trim(*d.Path, "/"), model.PageFormatDocument)
		if err != nil {
			return nil, apperr.Invalidf("destination.path", "no page at %q in space %s", *d.Path, *d.SpaceID)
		}
		id := ss.ID
		return &model.SiteRedirectDestination{Kind: "site-page", SiteSpaceID: &id, PageID: &page.ID}, nil
	}
	return nil, apperr.Invalidf("destination.spaceId", "space %s is not published on this site", *d.SpaceID)
}
