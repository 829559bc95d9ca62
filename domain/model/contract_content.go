package model

import (
	"encoding/json"
	"time"
)

// ChangeRequestContributor is a person who changed a change request (actionType edit: its author
// and whoever edited its content) or only commented on it (comment), how many times and when last.
type ChangeRequestContributor struct {
	User       *User     `json:"user"`
	Count      int       `json:"count"`
	UpdatedAt  time.Time `json:"updatedAt"`
	ActionType string    `json:"actionType"`
}

// RevisionSemanticChanges is what changed in a revision or a change request, page by page.
type RevisionSemanticChanges struct {
	// MergedFrom is the change request a merge revision merged.
	MergedFrom *ChangeRequest    `json:"mergedFrom,omitempty"`
	Changes    []*SemanticChange `json:"changes"`
	// More is how many changes the limit left out.
	More int `json:"more,omitempty"`
}

// SemanticChange is one page created, deleted, moved or edited (Type page_created, page_deleted,
// page_moved, page_edited).
type SemanticChange struct {
	Type string       `json:"type"`
	Page *ChangedPage `json:"page"`
	// Parent is where a moved page was and is now (nil: at the top).
	Parent *ChangedParent `json:"parent,omitempty"`
	// Attributes are an edited page's changed attributes.
	Attributes []*AttributeChange `json:"-"`
}

// ChangedPage names a page in a change.
type ChangedPage struct {
	ID    string `json:"id"`
	Type  string `json:"type"` // document, group, link or computed
	Title string `json:"title"`
}

// ChangedParent is a moved page's parent before and after.
type ChangedParent struct {
	Before *ChangedPage `json:"before,omitempty"`
	After  *ChangedPage `json:"after,omitempty"`
}

// AttributeChange is one attribute of an edited page, before and after (nil: unset). Document is
// the page's content as markdown.
type AttributeChange struct {
	Name   string  `json:"-"`
	Before *string `json:"before,omitempty"`
	After  *string `json:"after,omitempty"`
}

// MarshalJSON writes the contract's shape: an edited page's attributes as an object keyed by name.
func (c *SemanticChange) MarshalJSON() ([]byte, error) {
	type plain SemanticChange
	out := struct {
		*plain
		Attributes map[string]*AttributeChange `json:"attributes,omitempty"`
	}{plain: (*plain)(c)}
	if c.Type == "page_edited" {
		out.Attributes = make(map[string]*AttributeChange, len(c.Attributes))
		for _, a := range c.Attributes {
			out.Attributes[a.Name] = a
		}
	}
	return json.Marshal(out)
}
