package domain

import (
	"context"
	"errors"
	"net"
	"net/url"
	"regexp"
	"strings"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// A site's own host name (docs/sites.md): docs.example.com, whose DNS has a CNAME to this
// server's host. Once a check finds the CNAME, the host name is active: the reader serves the
// site at its root there, and the site's published URLs are built from it. TLS is the reverse
// proxy's in front of Bindery.

// siteHostname is the contract's SiteHostname.
var siteHostname = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$`)

func (r *App) toCustomHostname(h *storage.SiteHostname) *model.CustomHostname {
	return &model.CustomHostname{Object: "custom-hostname", Hostname: h.Hostname, Target: model.CustomHostnameSite{Type: "site", Site: h.SiteID},
		IsActive: h.Active, Status: h.Status, URLs: model.CustomHostnameURLs{Location: r.apiURL("/custom-hostnames/%s", h.Hostname)}}
}

// serverHost is the host visitors' CNAMEs must name: the server's public one.
func (r *App) serverHost() string { return hostOf(r.Settings.PublicURL) }

// SetSiteHostname gives a site its own host name (nil removes it) and checks its DNS at once.
// Errors: Invalid (a malformed host name, the server's own, one another site has), NotFound,
// Forbidden.
func (r *App) SetSiteHostname(ctx context.Context, orgID, siteID string, hostname *string) (*model.CustomHostname, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	if hostname == nil {
		if site.Hostname != nil {
			_, err = r.Store.DeleteSiteHostname(r.emit(ctx, hostnameEvent(EventSiteHostnameRemoved, site.OrganizationID, site.ID, *site.Hostname), nil), *site.Hostname)
		}
		return nil, err
	}
	host := strings.ToLower(strings.TrimSpace(*hostname))
	if len(host) > 512 || !siteHostname.MatchString(host) {
		return nil, apperr.Invalidf("hostname", "must be a host name such as docs.example.com")
	}
	if host == r.serverHost() {
		return nil, apperr.Invalidf("hostname", "is this server's own host name")
	}
	now := r.Now()
	h := &storage.SiteHostname{Hostname: host, OrganizationID: site.OrganizationID, SiteID: site.ID, Status: "dns_no_cname", CreatedAt: now, CheckedAt: now}
	if err := r.Store.SetSiteHostname(r.emit(ctx, hostnameEvent(EventSiteHostnameUpdated, h.OrganizationID, h.SiteID, host), nil), h); errors.Is(err, storage.ErrConflict) {
		return nil, apperr.Invalidf("hostname", "%s is already used by another site", host)
	} else if err != nil {
		return nil, err
	}
	return r.checkHostname(ctx, h)
}

// checkHostname looks up a host name's CNAME and records whether it names this server.
func (r *App) checkHostname(ctx context.Context, h *storage.SiteHostname) (*model.CustomHostname, error) {
	lookup := r.LookupCNAME
	if lookup == nil {
		lookup = net.DefaultResolver.LookupCNAME
	}
	was := h.Status
	cname, err := lookup(ctx, h.Hostname)
	cname = strings.TrimSuffix(strings.ToLower(cname), ".")
	switch {
	case err != nil || cname == "" || cname == h.Hostname:
		h.Status, h.Active = "dns_no_cname", false
	case cname != r.serverHost():
		h.Status, h.Active = "dns_wrong_cname", false
	default:
		h.Status, h.Active = "dns_passed", true
	}
	h.CheckedAt = r.Now()
	if h.Status != was { // a check that finds what the last one found changes nothing to report
		ctx = r.emit(ctx, hostnameEvent(EventSiteHostnameUpdated, h.OrganizationID, h.SiteID, h.Hostname), map[string]any{"status": h.Status})
	}
	if err := r.Store.UpdateSiteHostnameStatus(ctx, h); err != nil {
		return nil, err
	}
	return r.toCustomHostname(h), nil
}

// managedHostname reads a host name whose site the caller manages. Errors: NotFound (also a host
// name of an organization the caller is not in), Forbidden.
func (r *App) managedHostname(ctx context.Context, hostname string) (*storage.SiteHostname, error) {
	h, err := r.Store.FindSiteHostname(ctx, strings.ToLower(hostname))
	if err != nil {
		return nil, notFound(err, "custom hostname")
	}
	if _, err := r.siteEditor(ctx, h.OrganizationID); err != nil {
		return nil, err
	}
	return h, nil
}

// CustomHostname reads a site's host name. Errors: NotFound, Forbidden.
func (r *App) CustomHostname(ctx context.Context, hostname string) (*model.CustomHostname, error) {
	h, err := r.managedHostname(ctx, hostname)
	if err != nil {
		return nil, err
	}
	return r.toCustomHostname(h), nil
}

// RevalidateCustomHostname checks a host name's DNS again. Errors: NotFound, Forbidden.
func (r *App) RevalidateCustomHostname(ctx context.Context, hostname string) (*model.CustomHostname, error) {
	h, err := r.managedHostname(ctx, hostname)
	if err != nil {
		return nil, err
	}
	return r.checkHostname(ctx, h)
}

// RemoveCustomHostname removes a site's host name; it reports whether there was one: the site is
// published under /sites/ again. Errors: NotFound (an organization the caller is not in),
// Forbidden.
func (r *App) RemoveCustomHostname(ctx context.Context, hostname string) (bool, error) {
	h, err := r.managedHostname(ctx, hostname)
	if apperr.KindOf(err) == apperr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return r.Store.DeleteSiteHostname(r.emit(ctx, hostnameEvent(EventSiteHostnameRemoved, h.OrganizationID, h.SiteID, h.Hostname), nil), h.Hostname)
}

// hostnameEvent is an event about a site's custom host name.
func hostnameEvent(typ, orgID, siteID, hostname string) *storage.Event {
	return &storage.Event{Type: typ, OrganizationID: orgID, SiteID: siteID, TargetType: "custom-hostname", TargetID: hostname, TargetLabel: hostname}
}

// SiteForHost is the id of the site a request's host serves, when it is an active site host
// name; "" otherwise. It answers for anyone: the host name is public, as the site is.
func (r *App) SiteForHost(ctx context.Context, host string) (string, error) {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(host)
	if host == "" || host == r.serverHost() || host == hostOf(r.Settings.AppURL) || !siteHostname.MatchString(host) {
		return "", nil
	}
	h, err := r.Store.FindSiteHostname(ctx, host)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return "", nil
	case err != nil:
		return "", err
	case !h.Active:
		return "", ErrSiteHostInactive
	}
	return h.SiteID, nil
}

// ErrSiteHostInactive answers a request for a site's host name whose DNS does not point here
// yet: it serves nothing (not the app, not another site) until it does.
var ErrSiteHostInactive = apperr.NotFoundf("this host name is not active yet: its DNS does not point to this server")

// hostOf is a URL's host name, lower-cased ("" when it has none).
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}
