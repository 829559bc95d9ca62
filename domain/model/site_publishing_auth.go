package model

import "github.com/bindery/bindery/domain/opt"

// SitePublishingAuth is a visitor-auth site's authentication settings: the key that signs its
// visitor tokens and where visitors without a valid one are sent.
type SitePublishingAuth struct {
	Object      string  `json:"object"`
	Backend     string  `json:"backend"`
	PrivateKey  string  `json:"privateKey"`
	FallbackURL *string `json:"fallbackURL,omitempty"`
}

// SitePublishingAuthUpdate changes a site's authentication settings: backend (custom only) and
// fallbackURL (null removes it).
type SitePublishingAuthUpdate struct {
	Backend     *string            `json:"backend"`
	FallbackURL opt.Field[*string] `json:"fallbackURL"`
}
