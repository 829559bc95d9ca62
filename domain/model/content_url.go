package model

// ContentByURL is what a URL of this server leads to: a collection, or a space with the page
// at the URL (none: the space's home).
type ContentByURL struct {
	Collection *Collection   `json:"collection,omitempty"`
	Space      *Space        `json:"space,omitempty"`
	Page       *RevisionPage `json:"page,omitempty"`
}
