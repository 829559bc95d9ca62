package domain

import "context"

// siteHostKey marks a request that arrived at a site's own host name.
type siteHostKey struct{}

// AtSiteHost marks ctx as a request to a site's own host name, asked for at path (before the
// server routed it to the site).
func AtSiteHost(ctx context.Context, path string) context.Context {
	return context.WithValue(ctx, siteHostKey{}, path)
}

// SiteHostPath is the path a request to a site's own host name asked for, and whether it is one.
func SiteHostPath(ctx context.Context) (string, bool) {
	p, ok := ctx.Value(siteHostKey{}).(string)
	return p, ok
}
