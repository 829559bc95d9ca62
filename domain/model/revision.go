package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/bindery/bindery/domain/document"
)

// JSON is a free-form JSON value (variables, content references, covers): the GraphQL scalar
// JSON, written as is in REST.
type JSON json.RawMessage

// MarshalJSON writes the value as is.
func (j JSON) MarshalJSON() ([]byte, error) {
	if len(j) == 0 {
		return []byte("null"), nil
	}
	return j, nil
}

// UnmarshalJSON keeps a copy of the raw JSON.
func (j *JSON) UnmarshalJSON(b []byte) error {
	*j = append((*j)[:0], b...)
	return nil
}

// MarshalGQL writes the value as JSON.
func (j JSON) MarshalGQL(w io.Writer) {
	b, _ := j.MarshalJSON()
	w.Write(b) //nolint:errcheck // gqlgen's writer API has no error path
}

// UnmarshalGQL accepts any GraphQL input value and keeps it as JSON.
func (j *JSON) UnmarshalGQL(v any) error {
	b, err := json.Marshal(emptyListsKept(v))
	if err != nil {
		return fmt.Errorf("must be a JSON value")
	}
	*j = b
	return nil
}

// IsNull reports whether the value is absent or null.
func (j JSON) IsNull() bool { return len(j) == 0 || bytes.Equal(j, []byte("null")) }

// PageType is the kind of a page in a revision's tree.
type PageType string

// Page types.
const (
	PageTypeDocument PageType = "document"
	PageTypeGroup    PageType = "group"
	PageTypeLink     PageType = "link"
)

var pageTypes = []PageType{PageTypeDocument, PageTypeGroup, PageTypeLink}

func (e PageType) IsValid() bool             { return slices.Contains(pageTypes, e) }
func (e PageType) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *PageType) UnmarshalGQL(v any) error { return unmarshalEnum(v, pageTypes, e) }

// deprecatedKinds are the contract's required, deprecated `kind` of each page type.
var deprecatedKinds = map[PageType]string{PageTypeDocument: "sheet", PageTypeGroup: "group", PageTypeLink: "link"}

// PageLayout is a document page's layout options.
type PageLayout struct {
	Width           string `json:"width"`
	Cover           bool   `json:"cover"`
	CoverSize       string `json:"coverSize"`
	Title           bool   `json:"title"`
	Description     bool   `json:"description"`
	TableOfContents bool   `json:"tableOfContents"`
	Outline         bool   `json:"outline"`
	Pagination      bool   `json:"pagination"`
	Metadata        bool   `json:"metadata"`
}

// DefaultPageLayout is the layout of a page that chose none.
func DefaultPageLayout() PageLayout {
	return PageLayout{Width: "default", Cover: true, CoverSize: "hero", Title: true, Description: true, TableOfContents: true, Outline: true, Pagination: true, Metadata: true}
}

// AppURLs is the {app} object.
type AppURLs struct {
	App string `json:"app"`
}

// RevisionPage is a page of a revision: a document, a group or a link, with its child pages.
// Its JSON is the contract's variant for its type.
type RevisionPage struct {
	ID            string
	Title         string
	Emoji         *string
	Icon          *string
	CreatedAt     *time.Time
	UpdatedAt     *time.Time
	Type          PageType
	URLs          AppURLs
	Slug          string
	Path          string
	Description   *string
	Pages         []*RevisionPage
	Layout        PageLayout
	Cover         JSON
	Variables     JSON
	Hidden        bool
	NoIndex       bool
	NoRobotsIndex bool
	Target        JSON // link pages: the content reference
	Href          *string
	Git           JSON
	// DocumentID names the page's content, shared by every revision holding it unchanged.
	DocumentID *string
	// Computed is what an API-reference page is generated from (the contract's
	// ComputedContentSourceDocument) and ComputedSeed its seed; nil for other pages.
	Computed     JSON
	ComputedSeed *string
	// Markdown or Document carry the content when asked for (format).
	Markdown *string
	Document *document.Document

	// Parent is the id of the page holding this one (nil at the root): for GraphQL and paths.
	Parent *string
	// Content names the content the page was read from, for its GraphQL fields: the graph keeps
	// the content itself for the request.
	Content ContentKey
}

// MarshalJSON writes the contract's variant for the page's type.
func (p *RevisionPage) MarshalJSON() ([]byte, error) {
	pages := p.Pages
	if pages == nil {
		pages = []*RevisionPage{}
	}
	base := pageBase{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Icon: p.Icon, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt, Kind: deprecatedKinds[p.Type], Type: p.Type}
	switch p.Type {
	case PageTypeGroup:
		return json.Marshal(struct {
			pageBase
			Slug          string          `json:"slug"`
			Path          string          `json:"path"`
			Hidden        bool            `json:"hidden"`
			NoIndex       bool            `json:"noIndex"`
			NoRobotsIndex bool            `json:"noRobotsIndex"`
			Pages         []*RevisionPage `json:"pages"`
		}{base, p.Slug, p.Path, p.Hidden, p.NoIndex, p.NoRobotsIndex, pages})
	case PageTypeLink:
		return json.Marshal(struct {
			pageBase
			Target JSON    `json:"target"`
			Href   *string `json:"href,omitempty"`
			Hidden bool    `json:"hidden"`
		}{base, p.Target, p.Href, p.Hidden})
	}
	// A document is either computed (with its seed) or has its own content (documentId): the
	// contract's oneOf.
	documentID, computed, seed := p.DocumentID, JSON(nil), (*string)(nil)
	if !p.Computed.IsNull() {
		documentID, computed, seed = nil, p.Computed, p.ComputedSeed
	}
	return json.Marshal(struct {
		pageBase
		URLs          AppURLs            `json:"urls"`
		Slug          string             `json:"slug"`
		Path          string             `json:"path"`
		Description   *string            `json:"description,omitempty"`
		Pages         []*RevisionPage    `json:"pages"`
		Git           JSON               `json:"git,omitempty"`
		Layout        PageLayout         `json:"layout"`
		Cover         JSON               `json:"cover,omitempty"`
		Variables     JSON               `json:"variables,omitempty"`
		Hidden        bool               `json:"hidden"`
		NoIndex       bool               `json:"noIndex"`
		NoRobotsIndex bool               `json:"noRobotsIndex"`
		DocumentID    *string            `json:"documentId,omitempty"`
		Computed      JSON               `json:"computed,omitempty"`
		ComputedSeed  *string            `json:"computedSeed,omitempty"`
		Markdown      *string            `json:"markdown,omitempty"`
		Document      *document.Document `json:"document,omitempty"`
	}{base, p.URLs, p.Slug, p.Path, p.Description, pages, p.Git, p.Layout, p.Cover, p.Variables, p.Hidden, p.NoIndex, p.NoRobotsIndex, documentID, computed, seed, p.Markdown, p.Document})
}

type pageBase struct {
	ID        string     `json:"id"`
	Title     string     `json:"title"`
	Emoji     *string    `json:"emoji,omitempty"`
	Icon      *string    `json:"icon,omitempty"`
	CreatedAt *time.Time `json:"createdAt,omitempty"`
	UpdatedAt *time.Time `json:"updatedAt,omitempty"`
	Kind      string     `json:"kind"`
	Type      PageType   `json:"type"`
}

// RevisionFile is an uploaded file of a revision.
type RevisionFile struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	ContentType string          `json:"contentType"`
	DownloadURL string          `json:"downloadURL"`
	Size        int             `json:"size"`
	Dimensions  *FileDimensions `json:"dimensions,omitempty"`
	Git         *GitSyncBlob    `json:"git,omitempty"`
}

// FileDimensions are an image's size in pixels.
type FileDimensions struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// RevisionType is how a revision came to be.
type RevisionType string

var revisionTypes = []RevisionType{"edits", "merge", "rollback", "update", "computed"}

func (e RevisionType) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *RevisionType) UnmarshalGQL(v any) error { return unmarshalEnum(v, revisionTypes, e) }

// Revision is an immutable state of a space's content (or of a change request's).
type Revision struct {
	Object           string                     `json:"object"`
	ID               string                     `json:"id"`
	Parents          []string                   `json:"parents"`
	Pages            []*RevisionPage            `json:"pages"`
	Files            []*RevisionFile            `json:"files"`
	ReusableContents []*RevisionReusableContent `json:"reusableContents"`
	Variables        map[string]string          `json:"variables,omitempty"`
	CreatedAt        time.Time                  `json:"createdAt"`
	URLs             AppURLs                    `json:"urls"`
	Type             RevisionType               `json:"type"`
	MergedFrom       *ChangeRequest             `json:"mergedFrom,omitempty"`
	Git              *GitSyncCommit             `json:"git,omitempty"`

	SpaceID         string  `json:"-"`
	ChangeRequestID *string `json:"-"`
	MergedFromID    *string `json:"-"`
	// Content names the content the revision shows, for its GraphQL fields.
	Content ContentKey `json:"-"`
}

// ContentKey names content read in a request: a revision of a space seen on a line (a change
// request's, or the space's own when ChangeRequestID is empty), as a member reads it or as a
// published site shows it. The graph finds what it read of that content by this key.
type ContentKey struct {
	SpaceID, ChangeRequestID, RevisionID string
	Published                            bool
}

// PageFormat is how a page's content is returned.
type PageFormat string

// Page formats.
const (
	PageFormatDocument PageFormat = "document"
	PageFormatMarkdown PageFormat = "markdown"
)

var pageFormats = []PageFormat{PageFormatDocument, PageFormatMarkdown}

func (e PageFormat) IsValid() bool             { return slices.Contains(pageFormats, e) }
func (e PageFormat) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *PageFormat) UnmarshalGQL(v any) error { return unmarshalEnum(v, pageFormats, e) }

// ChangeRequestStatus is where a change request is in its life.
type ChangeRequestStatus string

// Change request statuses.
const (
	ChangeRequestDraft    ChangeRequestStatus = "draft"
	ChangeRequestOpen     ChangeRequestStatus = "open"
	ChangeRequestArchived ChangeRequestStatus = "archived"
	ChangeRequestMerged   ChangeRequestStatus = "merged"
)

var changeRequestStatuses = []ChangeRequestStatus{ChangeRequestDraft, ChangeRequestOpen, ChangeRequestArchived, ChangeRequestMerged}

func (e ChangeRequestStatus) IsValid() bool          { return slices.Contains(changeRequestStatuses, e) }
func (e ChangeRequestStatus) MarshalGQL(w io.Writer) { marshalEnum(w, e) }
func (e *ChangeRequestStatus) UnmarshalGQL(v any) error {
	return unmarshalEnum(v, changeRequestStatuses, e)
}

// ChangeRequest is a set of edits to a space, reviewed and merged as one.
type ChangeRequest struct {
	Object                 string              `json:"object"`
	ID                     string              `json:"id"`
	Number                 int                 `json:"number"`
	Status                 ChangeRequestStatus `json:"status"`
	Subject                string              `json:"subject"`
	Description            Document            `json:"description,omitempty"`
	CreatedBy              *User               `json:"createdBy"`
	CreatedAt              time.Time           `json:"createdAt"`
	UpdatedAt              time.Time           `json:"updatedAt"`
	Space                  string              `json:"space"`
	Revision               string              `json:"revision"`
	RevisionInitial        string              `json:"revisionInitial"`
	RevisionMergedAncestor *string             `json:"revisionMergedAncestor,omitempty"`
	RevisionMerged         *string             `json:"revisionMerged,omitempty"`
	Comments               int                 `json:"comments"`
	Outdated               bool                `json:"outdated"`
	URLs                   LocationAppURLs     `json:"urls"`

	CreatedByID string `json:"-"`
}

// ChangeRequestFilter narrows a space's change requests; Status defaults to open.
type ChangeRequestFilter struct {
	Status                     *ChangeRequestStatus
	Creator                    *string
	Contributor                *string
	RequestedReviewer          *string
	ConversationsIssuesCluster *string
}

// MergeResult is the answer to a merge or an update of a change request.
type MergeResult struct {
	Revision string `json:"revision"`
	Result   string `json:"result"`
}

// The connections of the content schema.
type (
	RevisionConnection      = Connection[*Revision]
	RevisionEdge            = Edge[*Revision]
	RevisionFileConnection  = Connection[*RevisionFile]
	RevisionFileEdge        = Edge[*RevisionFile]
	ChangeRequestConnection = Connection[*ChangeRequest]
	ChangeRequestEdge       = Edge[*ChangeRequest]
)

// Evaluation says which expressions of a page's content are evaluated when read.
type Evaluation string

// Evaluations: none (the stored content), all, or only those with deterministic inputs.
const (
	EvaluateNone          Evaluation = "false"
	EvaluateAll           Evaluation = "true"
	EvaluateDeterministic Evaluation = "deterministic-only"
)

var evaluations = []Evaluation{EvaluateNone, EvaluateAll, EvaluateDeterministic}

var evaluationNames = map[Evaluation]string{EvaluateNone: "NONE", EvaluateAll: "ALL", EvaluateDeterministic: "DETERMINISTIC_ONLY"}

func (e Evaluation) IsValid() bool { return slices.Contains(evaluations, e) }
func (e Evaluation) MarshalGQL(w io.Writer) {
	io.WriteString(w, `"`+evaluationNames[e]+`"`) //nolint:errcheck // gqlgen's writer API has no error path
}
func (e *Evaluation) UnmarshalGQL(v any) error {
	for value, name := range evaluationNames {
		if v == name {
			*e = value
			return nil
		}
	}
	return fmt.Errorf("%v is not NONE, ALL or DETERMINISTIC_ONLY", v)
}
