package model

import (
	"strings"

	"github.com/bindery/bindery/domain/apperr"
)

// RevisionReusableContent is a reusable content of a revision: content kept once in a space and
// shown wherever a page includes it (the contract's RevisionReusableContent).
type RevisionReusableContent struct {
	ID    string       `json:"id"`
	Title string       `json:"title"`
	Git   *GitSyncBlob `json:"git,omitempty"`
	// DocumentID names its content, shared by every revision holding it unchanged (the
	// contract's "document"); nil when it is empty.
	DocumentID *string `json:"document,omitempty"`

	// Content names the content it was read from, for its GraphQL fields.
	Content ContentKey `json:"-"`
}

// UpdateReusableContentInput changes a reusable content: its title, its markdown, or both.
type UpdateReusableContentInput struct {
	Title    *string `json:"title,omitempty"`
	Markdown *string `json:"markdown,omitempty"`
}

// Validate checks the input's fields: a title of 1 to 255 characters, markdown within the
// limits of a page's, and something to change.
func (in *UpdateReusableContentInput) Validate() error {
	if in.Title == nil && in.Markdown == nil {
		return apperr.Invalidf("input", "give a title, markdown or both")
	}
	return pageFields(in.Title, nil, in.Markdown, nil, nil, nil)
}

// CreateReusableContentInput creates a reusable content: its title and its markdown (empty when
// absent).
type CreateReusableContentInput struct {
	Title    string  `json:"title"`
	Markdown *string `json:"markdown,omitempty"`
}

// Validate checks the input's fields: a title of 1 to 255 characters, markdown within the
// limits of a page's.
func (in *CreateReusableContentInput) Validate() error {
	if strings.TrimSpace(in.Title) == "" {
		return apperr.Invalidf("title", "must not be empty")
	}
	return pageFields(&in.Title, nil, in.Markdown, nil, nil, nil)
}
