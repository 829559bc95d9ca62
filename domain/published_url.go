package domain

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// lookupTokenLifetime is how long the API token of a published URL look-up holds.
const lookupTokenLifetime = time.Hour

// lookupTokenScopes are what the API token of a published URL look-up may do: read content.
var lookupTokenScopes = []string{authz.ScopeSpaceContentRead, authz.ScopeSpaceMetadataRead}

// siteOfURL finds the published site a URL of this server addresses (<public>/sites/<name>/… or
// a site's own host name) and the site-relative path. Errors: NotFound (nothing), Invalid (not
// an absolute URL).
func (r *App) siteOfURL(ctx context.Context, raw string) (*storage.Site, *url.URL, string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if raw == "" || len(raw) > maxContentURL || err != nil || u.Host == "" {
		return nil, nil, "", apperr.Invalidf("url", "must be an absolute URL")
	}
	nothing := apperr.NotFoundf("no content at this URL")
	var site *storage.Site
	var path string
	if rest, ok := underBase(u, r.Settings.PublicURL+"/sites"); ok {
		name, p, _ := strings.Cut(rest, "/")
		site, err = r.Store.FindPublishedSite(ctx, name)
		path = p
	} else {
		var id string
		if id, err = r.SiteForHost(ctx, u.Host); err == nil && id != "" {
			site, err = r.Store.FindPublishedSite(ctx, id)
			path = strings.TrimPrefix(u.Path, "/")
		} else if err == nil {
			return nil, nil, "", nothing
		}
	}
	if err != nil {
		return nil, nil, "", notFoundAs(notFound(err, "site"), nothing)
	}
	return site, u, path, nil
}

// ResolvePublishedContentByURL tells what a published URL shows (the contract's
// resolvePublishedContentByUrl): the site, section, site space, space and page path, with a
// short-lived read-only API token of the caller to fetch that content, or a redirect (the site's
// redirects; with redirectOnError, a visitor-auth site's sign-in for a visitor without a valid
// token). The site is seen as the visitor given (their token and unsigned claims, or the URL's
// share, jwt_token and visitor.* parameters as the reader takes them); without one, as the
// caller sees it: a member who reads the site's organization sees every site space, anyone else
// what an anonymous visitor sees. Errors: Invalid, NotFound (nothing there for that visitor),
// Forbidden (a token that reads no content: the answer's token would read none either).
func (r *App) ResolvePublishedContentByURL(ctx context.Context, in model.ResolvePublishedContentInput) (*model.PublishedContentLookup, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	limit, ok := lookupTokenLimit(actor.Limit)
	if !ok {
		return nil, apperr.Forbiddenf("this token cannot read content, so the API token of the answer could not either")
	}
	row, u, path, err := r.siteOfURL(ctx, in.URL)
	if err != nil {
		return nil, err
	}
	nothing := apperr.NotFoundf("no content at this URL")
	q := u.Query()
	visitor := &model.SiteVisitorInput{}
	given := false
	if v := q.Get("share"); v != "" {
		visitor.ShareKey, given = &v, true
	}
	if v := q.Get("jwt_token"); v != "" {
		visitor.Token, given = &v, true
	}
	if in.Visitor != nil {
		if in.Visitor.JwtToken != nil {
			visitor.Token, given = in.Visitor.JwtToken, true
		}
		if !in.Visitor.UnsignedClaims.IsNull() {
			visitor.Claims, given = in.Visitor.UnsignedClaims, true
		}
	}
	var ps *PublishedSite
	if !given {
		ps, err = r.memberSiteView(ctx, row.OrganizationID, row.ID)
		if err != nil && apperr.KindOf(err) != apperr.NotFound && apperr.KindOf(err) != apperr.Forbidden {
			return nil, err
		}
		if row.Unpublished || row.SiteSpaces == 0 {
			return nil, nothing
		}
	}
	if ps == nil {
		ps, err = r.OpenPublishedSite(ctx, row.ID, visitor)
		switch apperr.KindOf(err) {
		case "":
		case apperr.Unauthenticated:
			if in.RedirectOnError != nil && *in.RedirectOnError {
				if fallback, ferr := r.PublishedSiteFallback(ctx, row.ID); ferr == nil && fallback != nil {
					to := *fallback + "?location=" + url.QueryEscape("/"+path)
					if strings.Contains(*fallback, "?") {
						to = *fallback + "&location=" + url.QueryEscape("/"+path)
					}
					return &model.PublishedContentLookup{Redirect: &model.PublishedContentRedirect{Target: "external", Redirect: to}}, nil
				}
			}
			return nil, nothing
		case apperr.NotFound, apperr.Forbidden:
			return nil, nothing
		default:
			return nil, err
		}
	}
	loc := r.PublishedAt(ps, path)
	if loc != nil && loc.PagePath != "" {
		t, err := r.treeOf(ctx, loc.SiteSpace)
		if err != nil {
			return nil, err
		}
		if t.byPath[loc.PagePath] == nil {
			loc = nil
		}
	}
	if loc == nil {
		to, err := r.PublishedRedirect(ctx, ps, path)
		if err != nil {
			return nil, err
		}
		if to == nil {
			return nil, nothing
		}
		return &model.PublishedContentLookup{Redirect: &model.PublishedContentRedirect{Target: "content", Redirect: *to}}, nil
	}
	sp := loc.SiteSpace
	now := r.Now()
	expires := now.Add(lookupTokenLifetime)
	token, err := r.Store.CreateLimitedToken(ctx, actor.UserID, now, &expires, limit)
	if err != nil {
		return nil, err
	}
	out := &model.PublishedSiteContent{
		Site: ps.ID, SiteSection: sp.Section, SiteSpace: sp.ID, Space: sp.src.View.SpaceID,
		Pathname: loc.PagePath, BasePath: urlPath(sp.URL), SiteBasePath: urlPath(ps.URL),
		APIToken: token, Organization: ps.orgID, Complete: true, CanonicalURL: sp.pageURL(loc.PagePath),
	}
	if ps.Visibility == "share-link" {
		out.ShareKey = visitor.ShareKey
	}
	return &model.PublishedContentLookup{Content: out}, nil
}

// lookupTokenLimit is what the API token of a look-up may do: read content, and never more than
// the caller's own token (a scoped token's read scopes, an integration's installation). ok is
// false for a caller that reads no content.
func lookupTokenLimit(l *authz.Limit) (storage.TokenLimit, bool) {
	scopes := lookupTokenScopes
	var installation *string
	if !l.Unlimited() {
		scopes = nil
		if l.Allows(authz.ScopeRead, authz.ScopeSpaceContentRead, authz.ScopeSpaceContentWrite) {
			scopes = append(scopes, authz.ScopeSpaceContentRead)
		}
		if l.Allows(authz.ScopeRead, authz.ScopeSpaceMetadataRead, authz.ScopeSpaceMetadataWrite) {
			scopes = append(scopes, authz.ScopeSpaceMetadataRead)
		}
		if l.Installation != "" {
			installation = &l.Installation
		}
	}
	if len(scopes) == 0 {
		return storage.TokenLimit{}, false
	}
	text := scopesJSON(scopes)
	return storage.TokenLimit{Scopes: &text, InstallationID: installation}, true
}

// urlPath is the path of an absolute URL ("/" when it has none).
func urlPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Path == "" {
		return "/"
	}
	return u.Path
}
