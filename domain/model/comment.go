package model

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"time"

	"github.com/bindery/bindery/domain/apperr"
)

// CommentBody is the contract's Document: {markdown}, {document}, or {} (empty). It is both the
// body a client sends and the body a comment shows, in the format the client asked for.
type CommentBody struct {
	Markdown *string  `json:"markdown,omitempty"`
	Document Document `json:"document,omitempty"`
}

// UnmarshalJSON accepts exactly one of markdown and document, or neither; the empty variant
// allows no other property.
func (b *CommentBody) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return apperr.Invalidf("body", `must be {"markdown": …}, {"document": …} or {}`)
	}
	*b = CommentBody{}
	for k, v := range raw {
		switch k {
		case "markdown":
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return apperr.Invalidf("body.markdown", "must be a string")
			}
			b.Markdown = &s
		case "document":
			b.Document = Document(append([]byte(nil), v...))
		default:
			return apperr.Invalidf("body."+k, "is not a property of a comment body (markdown or document)")
		}
	}
	return nil
}

// Validate checks the body: one variant only, a document of the right shape, and at most 100 000
// characters of markdown. Errors: Invalid naming field.
func (b *CommentBody) Validate(field string) error {
	if b.Markdown != nil && len(b.Document) > 0 {
		return apperr.Invalidf(field, "give markdown or document, not both")
	}
	if b.Markdown != nil && len(*b.Markdown) > maxCommentBytes {
		return apperr.Invalidf(field+".markdown", "must be at most %d bytes", maxCommentBytes)
	}
	if len(b.Document) > 0 {
		if len(b.Document) > maxCommentBytes {
			return apperr.Invalidf(field+".document", "must be at most %d bytes", maxCommentBytes)
		}
		return b.Document.Validate(field + ".document")
	}
	return nil
}

// IsEmpty reports the empty variant: neither markdown nor a document.
func (b *CommentBody) IsEmpty() bool {
	return b.Markdown == nil && (len(b.Document) == 0 || bytes.Equal(b.Document, []byte("null")))
}

const maxCommentBytes = 100_000

// CommentStatus tells whether a comment is resolved.
type CommentStatus string

// Comment statuses.
const (
	CommentOpen     CommentStatus = "open"
	CommentResolved CommentStatus = "resolved"
)

var commentStatuses = []CommentStatus{CommentOpen, CommentResolved}

func (e CommentStatus) IsValid() bool             { return slices.Contains(commentStatuses, e) }
func (e CommentStatus) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *CommentStatus) UnmarshalGQL(v any) error { return unmarshalEnum(v, commentStatuses, e) }

// CommentStatusFilter narrows a comment list: all (the default), open or resolved.
type CommentStatusFilter string

// Comment status filters.
const (
	CommentFilterAll      CommentStatusFilter = "all"
	CommentFilterOpen     CommentStatusFilter = "open"
	CommentFilterResolved CommentStatusFilter = "resolved"
)

var commentStatusFilters = []CommentStatusFilter{CommentFilterAll, CommentFilterOpen, CommentFilterResolved}

func (e CommentStatusFilter) IsValid() bool          { return slices.Contains(commentStatusFilters, e) }
func (e CommentStatusFilter) MarshalGQL(w io.Writer) { marshalEnum(w, e) }
func (e *CommentStatusFilter) UnmarshalGQL(v any) error {
	return unmarshalEnum(v, commentStatusFilters, e)
}

// ReviewStatus is a reviewer's verdict.
type ReviewStatus string

// Review statuses.
const (
	ReviewApproved         ReviewStatus = "approved"
	ReviewChangesRequested ReviewStatus = "changes-requested"
)

var reviewStatuses = []ReviewStatus{ReviewApproved, ReviewChangesRequested}

func (e ReviewStatus) IsValid() bool             { return slices.Contains(reviewStatuses, e) }
func (e ReviewStatus) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *ReviewStatus) UnmarshalGQL(v any) error { return unmarshalEnum(v, reviewStatuses, e) }

// Comment is a comment on a space or a change request, seen by one caller.
type Comment struct {
	Object      string             `json:"object"`
	ID          string             `json:"id"`
	PostedBy    *User              `json:"postedBy"`
	PostedAt    time.Time          `json:"postedAt"`
	EditedAt    *time.Time         `json:"editedAt,omitempty"`
	Reactions   []*EmojiReaction   `json:"reactions"`
	Replies     int                `json:"replies"`
	Repliers    []*UserContributor `json:"repliers"`
	Body        CommentBody        `json:"body"`
	Target      CommentTarget      `json:"target"`
	URLs        LocationURLs       `json:"urls"`
	Permissions CommentPermissions `json:"permissions"`
	Status      CommentStatus      `json:"status"`
	ResolvedAt  *time.Time         `json:"resolvedAt,omitempty"`
	ResolvedBy  *User              `json:"resolvedBy,omitempty"`
	// ViewerRole is the caller's role on the comment's space, kept by the read that authorized
	// the comment, so that reading its replies need not authorize it again. Not shown.
	ViewerRole *MemberRole `json:"-"`
}

// CommentReply answers a comment.
type CommentReply struct {
	Object      string             `json:"object"`
	ID          string             `json:"id"`
	PostedBy    *User              `json:"postedBy"`
	PostedAt    time.Time          `json:"postedAt"`
	EditedAt    *time.Time         `json:"editedAt,omitempty"`
	Reactions   []*EmojiReaction   `json:"reactions"`
	Body        CommentBody        `json:"body"`
	URLs        LocationURLs       `json:"urls"`
	Permissions CommentPermissions `json:"permissions"`

	// CommentID is the comment answered.
	CommentID string `json:"-"`
}

// CommentTarget is where a comment is anchored.
type CommentTarget struct {
	Space         string           `json:"space"`
	Revision      string           `json:"revision"`
	ChangeRequest *string          `json:"changeRequest,omitempty"`
	Review        *string          `json:"review,omitempty"`
	Page          *IDRef           `json:"page,omitempty"`
	Node          *IDRef           `json:"node,omitempty"`
	TableCell     *TableCellTarget `json:"tableCell,omitempty"`
}

// IDRef is the {id} object that points at a page or a node.
type IDRef struct {
	ID string `json:"id"`
}

// TableCellTarget is a cell of a table block: a record (row) and a definition (column).
type TableCellTarget struct {
	Record     string `json:"record"`
	Definition string `json:"definition"`
}

// CommentPermissions are what the caller may do with a comment or a reply.
type CommentPermissions struct {
	View   bool `json:"view"`
	Edit   bool `json:"edit"`
	Reply  bool `json:"reply"`
	Delete bool `json:"delete"`
}

// EmojiReaction is one emoji on a comment: who gave it and when.
type EmojiReaction struct {
	Emoji string            `json:"emoji"`
	Count int               `json:"count"`
	Users []*ReactionAuthor `json:"users"`
}

// ReactionAuthor is a user who reacted.
type ReactionAuthor struct {
	User      *User     `json:"user"`
	ReactedAt time.Time `json:"reactedAt"`
}

// UserContributor is a user who replied to a comment: how often, and when last.
type UserContributor struct {
	UpdatedAt time.Time `json:"updatedAt"`
	Count     int       `json:"count"`
	User      *User     `json:"user"`
}

// RequestedReviewer is a user asked to review a change request.
type RequestedReviewer struct {
	Object      string    `json:"object"`
	Revision    string    `json:"revision"`
	RequestedBy *User     `json:"requestedBy"`
	CreatedAt   time.Time `json:"createdAt"`
	Kind        string    `json:"kind"`
	User        *User     `json:"user"`
}

// RequestReviewersResult lists the requests a call made.
type RequestReviewersResult struct {
	Users []*RequestedReviewer `json:"users"`
}

// Review is a reviewer's verdict on a change request at one of its revisions.
type Review struct {
	Object      string       `json:"object"`
	ID          string       `json:"id"`
	Revision    string       `json:"revision"`
	Reviewer    *User        `json:"reviewer"`
	RequestedBy *User        `json:"requestedBy,omitempty"`
	Status      ReviewStatus `json:"status"`
	Outdated    bool         `json:"outdated"`
	Comment     *Comment     `json:"comment,omitempty"`
	CreatedAt   time.Time    `json:"createdAt"`
	UpdatedAt   time.Time    `json:"updatedAt"`
	URLs        LocationURLs `json:"urls"`
}

// The connections of review and discussion.
type (
	CommentConnection           = Connection[*Comment]
	CommentEdge                 = Edge[*Comment]
	CommentReplyConnection      = Connection[*CommentReply]
	CommentReplyEdge            = Edge[*CommentReply]
	RequestedReviewerConnection = Connection[*RequestedReviewer]
	RequestedReviewerEdge       = Edge[*RequestedReviewer]
	ReviewConnection            = Connection[*Review]
	ReviewEdge                  = Edge[*Review]
)
