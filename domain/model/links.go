package model

import "io"

// ContentLocation is a place in content: a page (possibly an anchor in it), a file, a space or a
// URL. Its JSON is the contract's variant for its kind.
type ContentLocation struct {
	Kind             string            `json:"kind"`
	URL              string            `json:"url,omitempty"`
	Organization     *Organization     `json:"organization,omitempty"`
	Space            *Space            `json:"space,omitempty"`
	Page             *RevisionPage     `json:"page,omitempty"`
	File             *RevisionFile     `json:"file,omitempty"`
	InternalLocation *InternalLocation `json:"internalLocation,omitempty"`
}

// InternalLocation is where in a page a location points: an anchor or a node.
type InternalLocation struct {
	Type   string `json:"type"`
	Anchor string `json:"anchor,omitempty"`
	Node   string `json:"node,omitempty"`
}

// LinkStatus tells whether a link's target exists.
type LinkStatus string

// Link statuses: the target exists, is missing from the revision, or is a URL of the app.
const (
	LinkOK     LinkStatus = "ok"
	LinkBroken LinkStatus = "broken"
	LinkInApp  LinkStatus = "in-app"
)

// LinkItem is one reference a page makes, with where it is made.
type LinkItem struct {
	Status             LinkStatus         `json:"status"`
	Relation           string             `json:"relation"`
	TargetReference    *ContentLocation   `json:"targetReference,omitempty"`
	LocationReferences []*ContentLocation `json:"locationReferences"`

	// Target is the reference as written; Node the document node holding it.
	Target string `json:"-"`
	Node   string `json:"-"`
}

// LinkStats counts a page's links and the broken ones; in a change request, ChangeRequest
// counts the broken links the change request introduced.
type LinkStats struct {
	Total  int         `json:"total"`
	Broken BrokenLinks `json:"broken"`
}

// BrokenLinks counts broken links.
type BrokenLinks struct {
	Total         int  `json:"total"`
	ChangeRequest *int `json:"changeRequest,omitempty"`
}

func (e LinkStatus) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *LinkStatus) UnmarshalGQL(v any) error { return unmarshalEnum(v, linkStatuses, e) }

var linkStatuses = []LinkStatus{LinkOK, LinkBroken, LinkInApp}

// TargetPage is the page a link resolves to, if any.
func (l *LinkItem) TargetPage() *RevisionPage {
	if l.TargetReference != nil && l.TargetReference.Kind == "page" {
		return l.TargetReference.Page
	}
	return nil
}

// TargetFile is the file a link resolves to, if any.
func (l *LinkItem) TargetFile() *RevisionFile {
	if l.TargetReference != nil && l.TargetReference.Kind == "file" {
		return l.TargetReference.File
	}
	return nil
}

// URL is the URL a link leads to when it is not a page or file of the revision.
func (l *LinkItem) URL() *string {
	if l.TargetReference != nil && l.TargetReference.Kind == "url" {
		return &l.TargetReference.URL
	}
	return nil
}
