package model

import (
	"time"

	"github.com/bindery/bindery/domain/opt"
)

// The published reader's objects (graph/schema/reader.graphqls) and their inputs.

// A file a published page shows.
type PublishedFile struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	URL         string `json:"url"`
	Width       *int   `json:"width,omitempty"`
	Height      *int   `json:"height,omitempty"`
}

// A link of a published page, resolved for its visitor.
type PublishedLink struct {
	// Key of the document node holding the reference.
	Node   string `json:"node"`
	Target string `json:"target"`
	// The published URL it leads to; null when broken (or leading where this visitor cannot go).
	URL *string `json:"url,omitempty"`
	// Page targets: the page's title, for cards.
	Title *string `json:"title,omitempty"`
	// Page targets: the page's description.
	Description *string `json:"description,omitempty"`
}

// A page as navigation lists it.
type PublishedPageRef struct {
	ID          string   `json:"id"`
	Type        PageType `json:"type"`
	Title       string   `json:"title"`
	Emoji       *string  `json:"emoji,omitempty"`
	Icon        *string  `json:"icon,omitempty"`
	Description *string  `json:"description,omitempty"`
	Path        string   `json:"path"`
	// Where it is published (link pages: where they lead).
	URL string `json:"url"`
	// 0 at the top of the tree.
	Depth       int  `json:"depth"`
	HasChildren bool `json:"hasChildren"`
	// Left out of search engines' indexes (the page's noIndex).
	NoIndex bool `json:"noIndex"`
	// Robots are asked not to crawl it (the page's noRobotsIndex).
	NoRobotsIndex bool `json:"noRobotsIndex"`
	// When the page last changed (the sitemap's lastmod); nil when unknown.
	UpdatedAt *time.Time `json:"updatedAt,omitempty"`
}

// A page a published site's search found.
type PublishedSearchResult struct {
	Title string `json:"title"`
	URL   string `json:"url"`
	// The title of the site space holding the page.
	SiteSpace string `json:"siteSpace"`
	// Titles of the pages above it.
	Ancestors []string                  `json:"ancestors"`
	Sections  []*PublishedSearchSection `json:"sections"`
}

// A section of a page that a published site's search found.
type PublishedSearchSection struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
}

// A section (kind section) or section group (kind group) of a published site.
type PublishedSection struct {
	ID          string  `json:"id"`
	Kind        string  `json:"kind"`
	Title       string  `json:"title"`
	Description *string `json:"description,omitempty"`
	Icon        *string `json:"icon,omitempty"`
	// Sections: where they are published. Groups: null.
	URL *string `json:"url,omitempty"`
	// 0 at the site's root.
	Depth int `json:"depth"`
	// The group holding it; null at the root.
	Parent  *string `json:"parent,omitempty"`
	Default bool    `json:"default"`
}

// How a site's reader treats visitors.
type SiteReaderSettings struct {
	// The HS256 key that signs visitor tokens; null until one is generated.
	SigningKey *string `json:"signingKey,omitempty"`
	// Whether visitors may add claims in the URL (visitor.<claim>=value) to adapt content.
	UnsignedClaims bool `json:"unsignedClaims"`
	// A JSON object of strings: the site's variables, which published pages read as space.vars.
	Variables JSON `json:"variables,omitempty"`
	// Whether the site collects insights (page views, feedback, tracked events); true unless its
	// managers turned them off.
	Insights bool `json:"insights"`
}

// Who is reading a published site.
type SiteVisitorInput struct {
	// The share key of an active share link (share-link sites).
	ShareKey *string `json:"shareKey,omitempty"`
	// A visitor token: an HS256 JWT signed with the site's key, with an expiry (visitor-auth sites; on other sites its claims adapt the content).
	Token *string `json:"token,omitempty"`
	// Unsigned claims (from visitor.<claim> URL parameters), used only where the site allows them.
	Claims JSON `json:"claims,omitempty"`
}

// A change to a site's reader settings.
type UpdateSiteReaderSettingsInput struct {
	// Generate a new signing key: tokens signed with the old one stop working.
	RotateSigningKey *bool `json:"rotateSigningKey,omitempty"`
	UnsignedClaims   *bool `json:"unsignedClaims,omitempty"`
	// A JSON object of strings; null removes them.
	Variables opt.Field[JSON] `json:"variables,omitempty"`
	// Turn the site's insights on or off.
	Insights *bool `json:"insights,omitempty"`
}
