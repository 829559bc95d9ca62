package model

import (
	"encoding/json"
	"regexp"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/opt"
)

// MaxMarkdownBytes bounds one page's markdown.
const MaxMarkdownBytes = 1 << 20

// ContentTarget names where an edit goes: a change request of the space, or (absent) the space
// itself, which only a space in live edit mode allows.
type ContentTarget struct {
	SpaceID         string  `json:"spaceId"`
	ChangeRequestID *string `json:"changeRequestId"`
}

// CreateChangeRequestInput opens a change request.
type CreateChangeRequestInput struct {
	Subject     *string `json:"subject"`
	AgentTaskID *string `json:"agentTaskId"`
}

// Validate checks the contract's limits. Errors: Invalid.
func (in *CreateChangeRequestInput) Validate() error {
	if in.Subject != nil {
		return length("subject", *in.Subject, 0, 100)
	}
	return nil
}

// UpdateChangeRequestInput changes a change request's subject, description or status.
type UpdateChangeRequestInput struct {
	Subject     opt.Field[*string]              `json:"subject"`
	Description opt.Field[*Document]            `json:"description"`
	Status      opt.Field[*ChangeRequestStatus] `json:"status"`
}

// Validate checks the contract's limits. Errors: Invalid.
func (in *UpdateChangeRequestInput) Validate() error {
	if v, set := in.Subject.ValueOK(); set {
		if v == nil {
			return apperr.Invalidf("subject", "cannot be null")
		}
		if err := length("subject", *v, 0, 100); err != nil {
			return err
		}
	}
	if v := in.Description.Value(); v != nil {
		if err := v.Validate("description"); err != nil {
			return err
		}
	}
	if v, set := in.Status.ValueOK(); set {
		if v == nil || *v == ChangeRequestMerged || !v.IsValid() {
			return apperr.Invalidf("status", `must be "draft", "open" or "archived"; merge through the merge operation`)
		}
	}
	return nil
}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:[-_.][a-z0-9]+)*$`)

// CreatePageInput adds a page.
type CreatePageInput struct {
	Type        *PageType   `json:"type"`
	Title       string      `json:"title"`
	Slug        *string     `json:"slug"`
	Parent      *string     `json:"parent"`
	Before      *string     `json:"before"`
	After       *string     `json:"after"`
	Markdown    *string     `json:"markdown"`
	Emoji       *string     `json:"emoji"`
	Icon        *string     `json:"icon"`
	Description *string     `json:"description"`
	Hidden      *bool       `json:"hidden"`
	NoIndex     *bool       `json:"noIndex"`
	Layout      *PageLayout `json:"layout"`
	Target      JSON        `json:"target"`
}

// PageType reports the page's type, a document unless given.
func (in *CreatePageInput) PageType() PageType {
	if in.Type == nil {
		return PageTypeDocument
	}
	return *in.Type
}

// Validate checks the input's limits. Errors: Invalid.
func (in *CreatePageInput) Validate() error {
	if in.Type != nil && !in.Type.IsValid() {
		return apperr.Invalidf("type", `must be "document", "group" or "link"`)
	}
	if err := pageFields(&in.Title, in.Slug, in.Markdown, in.Emoji, in.Icon, in.Description); err != nil {
		return err
	}
	if in.Before != nil && in.After != nil {
		return apperr.Invalidf("before", "give before or after, not both")
	}
	switch in.PageType() {
	case PageTypeLink:
		if err := validTarget(in.Target); err != nil {
			return err
		}
		if in.Markdown != nil {
			return apperr.Invalidf("markdown", "a link page has no content")
		}
	case PageTypeGroup:
		if in.Markdown != nil {
			return apperr.Invalidf("markdown", "a group has no content")
		}
	}
	if in.PageType() != PageTypeLink && !in.Target.IsNull() {
		return apperr.Invalidf("target", "only link pages have a target")
	}
	return validLayout(in.Layout)
}

// UpdatePageInput changes a page; absent fields are unchanged, null clears optional ones.
type UpdatePageInput struct {
	Title         opt.Field[*string]     `json:"title"`
	Slug          opt.Field[*string]     `json:"slug"`
	Markdown      opt.Field[*string]     `json:"markdown"`
	Emoji         opt.Field[*string]     `json:"emoji"`
	Icon          opt.Field[*string]     `json:"icon"`
	Description   opt.Field[*string]     `json:"description"`
	Hidden        opt.Field[*bool]       `json:"hidden"`
	NoIndex       opt.Field[*bool]       `json:"noIndex"`
	NoRobotsIndex opt.Field[*bool]       `json:"noRobotsIndex"`
	Layout        opt.Field[*PageLayout] `json:"layout"`
	Cover         opt.Field[JSON]        `json:"cover"`
	Variables     opt.Field[JSON]        `json:"variables"`
	Target        opt.Field[JSON]        `json:"target"`
}

// Validate checks the input's limits. Errors: Invalid.
func (in *UpdatePageInput) Validate() error {
	for field, v := range map[string]opt.Field[*string]{"title": in.Title, "slug": in.Slug, "markdown": in.Markdown} {
		if p, set := v.ValueOK(); set && p == nil {
			return apperr.Invalidf(field, "cannot be null")
		}
	}
	for field, v := range map[string]opt.Field[*bool]{"hidden": in.Hidden, "noIndex": in.NoIndex, "noRobotsIndex": in.NoRobotsIndex} {
		if p, set := v.ValueOK(); set && p == nil {
			return apperr.Invalidf(field, "cannot be null")
		}
	}
	if err := pageFields(in.Title.Value(), in.Slug.Value(), in.Markdown.Value(), in.Emoji.Value(), in.Icon.Value(), in.Description.Value()); err != nil {
		return err
	}
	if v, set := in.Target.ValueOK(); set {
		if err := validTarget(v); err != nil {
			return err
		}
	}
	if v := in.Variables.Value(); !v.IsNull() {
		var vars map[string]any
		if json.Unmarshal(v, &vars) != nil {
			return apperr.Invalidf("variables", "must be an object")
		}
	}
	if v := in.Cover.Value(); !v.IsNull() {
		var cover map[string]any
		if json.Unmarshal(v, &cover) != nil {
			return apperr.Invalidf("cover", "must be an object")
		}
	}
	return validLayout(in.Layout.Value())
}

// MovePageInput places a page under a parent (absent or null: the root), before or after a
// sibling, or last.
type MovePageInput struct {
	Parent *string `json:"parent"`
	Before *string `json:"before"`
	After  *string `json:"after"`
}

// Validate checks the input. Errors: Invalid.
func (in *MovePageInput) Validate() error {
	if in.Before != nil && in.After != nil {
		return apperr.Invalidf("before", "give before or after, not both")
	}
	return nil
}

func pageFields(title, slug, markdown, emoji, icon, description *string) error {
	if title != nil {
		if err := length("title", *title, 1, 255); err != nil {
			return err
		}
	}
	if slug != nil {
		if err := length("slug", *slug, 1, 100); err != nil {
			return err
		}
		if !slugPattern.MatchString(*slug) {
			return apperr.Invalidf("slug", "use lowercase letters, digits and single inner hyphens")
		}
	}
	if markdown != nil {
		if len(*markdown) > MaxMarkdownBytes {
			return apperr.Invalidf("markdown", "must be at most %d bytes", MaxMarkdownBytes)
		}
		if !utf8.ValidString(*markdown) {
			return apperr.Invalidf("markdown", "must be UTF-8 text")
		}
		if err := document.CheckMarkdown(*markdown); err != nil {
			return apperr.Invalidf("markdown", "too large: %s", err.Error())
		}
	}
	if emoji != nil {
		if err := length("emoji", *emoji, 0, 50); err != nil {
			return err
		}
	}
	if icon != nil {
		if err := length("icon", *icon, 0, 50); err != nil {
			return err
		}
	}
	if description != nil {
		return length("description", *description, 0, 1000)
	}
	return nil
}

// validTarget checks a link page's target: a content reference {kind: url, url} or
// {kind: page, page}.
func validTarget(target JSON) error {
	var ref struct {
		Kind string `json:"kind"`
		URL  string `json:"url"`
		Page string `json:"page"`
	}
	if target.IsNull() || json.Unmarshal(target, &ref) != nil {
		return apperr.Invalidf("target", `a link page needs a target such as {"kind":"url","url":"https://…"}`)
	}
	switch ref.Kind {
	case "url":
		return validURL("target.url", ref.URL)
	case "page":
		if ref.Page == "" {
			return apperr.Invalidf("target.page", "is required")
		}
		return nil
	}
	return apperr.Invalidf("target.kind", `must be "url" or "page"`)
}

func validLayout(l *PageLayout) error {
	if l == nil {
		return nil
	}
	if l.Width != "default" && l.Width != "wide" {
		return apperr.Invalidf("layout.width", `must be "default" or "wide"`)
	}
	if l.CoverSize != "hero" && l.CoverSize != "full" {
		return apperr.Invalidf("layout.coverSize", `must be "hero" or "full"`)
	}
	return nil
}
