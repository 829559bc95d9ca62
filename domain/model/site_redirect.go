package model

// SiteRedirect sends a path of a site that no longer leads anywhere to content of the site.
type SiteRedirect struct {
	Object      string                  `json:"object"`
	ID          string                  `json:"id"`
	Source      string                  `json:"source"`
	Destination SiteRedirectDestination `json:"destination"`
}

// SiteRedirectDestination is where a redirect leads: kind site-section (siteSectionId),
// site-space (siteSpaceId) or site-page (siteSpaceId and pageId).
type SiteRedirectDestination struct {
	Kind          string  `json:"kind"`
	SiteSectionID *string `json:"siteSectionId,omitempty"`
	SiteSpaceID   *string `json:"siteSpaceId,omitempty"`
	PageID        *string `json:"pageId,omitempty"`
}

// SiteRedirectInput creates a redirect (both fields) or changes one (either).
type SiteRedirectInput struct {
	Source      *string                  `json:"source"`
	Destination *SiteRedirectDestination `json:"destination"`
}

// ResolvedSiteRedirect is a redirect and the URL it leads to.
type ResolvedSiteRedirect struct {
	Redirect *SiteRedirect `json:"redirect"`
	Target   string        `json:"target"`
}

// SiteRedirectConnection is a page of a site's redirects.
type SiteRedirectConnection = Connection[*SiteRedirect]

// SiteRedirectEdge is an edge of a SiteRedirectConnection.
type SiteRedirectEdge = Edge[*SiteRedirect]
