package model

import "encoding/json"

// SiteVisitorPayload is who visits a published site, as the contract's URL look-ups take it: a
// visitor token and unsigned claims.
type SiteVisitorPayload struct {
	JwtToken       *string `json:"jwtToken,omitempty"`
	UnsignedClaims JSON    `json:"unsignedClaims,omitempty"`
}

// ResolvePublishedContentInput is the body of resolvePublishedContentByUrl.
type ResolvePublishedContentInput struct {
	URL             string              `json:"url"`
	RedirectOnError *bool               `json:"redirectOnError,omitempty"`
	Visitor         *SiteVisitorPayload `json:"visitor,omitempty"`
}

// PublishedContentRedirect is a look-up that leads elsewhere: target content (a redirect of the
// site, or a site space's root), external (a visitor-auth site's sign-in).
type PublishedContentRedirect struct {
	Target   string `json:"target"`
	Redirect string `json:"redirect"`
}

// PublishedSiteContent is what a published URL shows: the contract's PublishedSiteContent.
type PublishedSiteContent struct {
	Site         string  `json:"site"`
	SiteSection  *string `json:"siteSection,omitempty"`
	SiteSpace    string  `json:"siteSpace"`
	Space        string  `json:"space"`
	Pathname     string  `json:"pathname"`
	BasePath     string  `json:"basePath"`
	SiteBasePath string  `json:"siteBasePath"`
	APIToken     string  `json:"apiToken"`
	Organization string  `json:"organization"`
	ShareKey     *string `json:"shareKey,omitempty"`
	Complete     bool    `json:"complete"`
	CanonicalURL string  `json:"canonicalUrl"`
}

// PublishedContentLookup is the answer of a published URL look-up: a redirect or the content.
// Its JSON is the one it holds (the contract's PublishedSiteContentLookup).
type PublishedContentLookup struct {
	Redirect *PublishedContentRedirect `json:"redirect,omitempty"`
	Content  *PublishedSiteContent     `json:"content,omitempty"`
}

// MarshalJSON encodes the lookup as the contract's oneOf: the redirect or the content.
func (l PublishedContentLookup) MarshalJSON() ([]byte, error) {
	if l.Redirect != nil {
		return json.Marshal(l.Redirect)
	}
	return json.Marshal(l.Content)
}
