package model

import (
	"fmt"

	"github.com/bindery/bindery/domain/apperr"
)

// PostCommentInput posts a comment, optionally anchored to a page, a node of it, or a cell of a
// table node.
type PostCommentInput struct {
	Body      *CommentBody     `json:"body"`
	Page      *string          `json:"page"`
	Node      *string          `json:"node"`
	TableCell *TableCellTarget `json:"tableCell"`
}

// Validate checks the body and the anchor: a node needs its page, a cell its node. Errors:
// Invalid.
func (in *PostCommentInput) Validate() error {
	if in.Body == nil {
		return apperr.Invalidf("body", "is required ({} for an empty comment)")
	}
	if err := in.Body.Validate("body"); err != nil {
		return err
	}
	for field, v := range map[string]*string{"page": in.Page, "node": in.Node} {
		if v != nil {
			if err := length(field, *v, 1, 100); err != nil {
				return err
			}
		}
	}
	if in.Node != nil && in.Page == nil {
		return apperr.Invalidf("node", "needs the page that holds it")
	}
	if in.TableCell != nil {
		if in.Node == nil {
			return apperr.Invalidf("tableCell", "needs the node of its table")
		}
		if err := length("tableCell.record", in.TableCell.Record, 1, 100); err != nil {
			return err
		}
		if err := length("tableCell.definition", in.TableCell.Definition, 1, 100); err != nil {
			return err
		}
	}
	return nil
}

// PostCommentReplyInput answers a comment.
type PostCommentReplyInput struct {
	Body *CommentBody `json:"body"`
}

// Validate checks the body. Errors: Invalid.
func (in *PostCommentReplyInput) Validate() error {
	if in.Body == nil {
		return apperr.Invalidf("body", "is required ({} for an empty reply)")
	}
	return in.Body.Validate("body")
}

// UpdateCommentInput changes a comment; absent fields stay as they are.
type UpdateCommentInput struct {
	Body             *CommentBody `json:"body"`
	Resolved         *bool        `json:"resolved"`
	AddedReactions   []string     `json:"addedReactions"`
	RemovedReactions []string     `json:"removedReactions"`
}

// Validate checks the body and the emoji. Errors: Invalid.
func (in *UpdateCommentInput) Validate() error {
	if in.Body != nil {
		if err := in.Body.Validate("body"); err != nil {
			return err
		}
	}
	if err := validEmoji("addedReactions", in.AddedReactions); err != nil {
		return err
	}
	return validEmoji("removedReactions", in.RemovedReactions)
}

// UpdateCommentReplyInput changes a reply; absent fields stay as they are.
type UpdateCommentReplyInput struct {
	Body             *CommentBody `json:"body"`
	AddedReactions   []string     `json:"addedReactions"`
	RemovedReactions []string     `json:"removedReactions"`
}

// Validate checks the body and the emoji. Errors: Invalid.
func (in *UpdateCommentReplyInput) Validate() error {
	u := UpdateCommentInput{Body: in.Body, AddedReactions: in.AddedReactions, RemovedReactions: in.RemovedReactions}
	return u.Validate()
}

// maxReactions bounds the emoji one update may add or remove.
const maxReactions = 50

// validEmoji checks a list of emoji: each 1 to 50 characters (the contract's Emoji), at most 50.
func validEmoji(field string, list []string) error {
	if len(list) > maxReactions {
		return apperr.Invalidf(field, "at most %d emoji per update", maxReactions)
	}
	for i, e := range list {
		if err := length(fmt.Sprintf("%s[%d]", field, i), e, 1, 50); err != nil {
			return err
		}
	}
	return nil
}

// RequestReviewersInput asks users to review a change request, optionally changing its subject
// and description at the same time.
type RequestReviewersInput struct {
	Users       []string `json:"users"`
	Subject     *string  `json:"subject"`
	Description Document `json:"description"`
}

// maxReviewers bounds the users one request names.
const maxReviewers = 100

// Validate checks the users and the change request fields. Errors: Invalid.
func (in *RequestReviewersInput) Validate() error {
	if in.Users == nil {
		return apperr.Invalidf("users", "is required")
	}
	if len(in.Users) > maxReviewers {
		return apperr.Invalidf("users", "at most %d users per request", maxReviewers)
	}
	for i, u := range in.Users {
		if err := length(fmt.Sprintf("users[%d]", i), u, 1, 100); err != nil {
			return err
		}
	}
	if in.Subject != nil {
		if err := length("subject", *in.Subject, 0, 100); err != nil {
			return err
		}
	}
	if len(in.Description) > 0 {
		return in.Description.Validate("description")
	}
	return nil
}

// SubmitReviewInput is a reviewer's verdict, with an optional comment.
type SubmitReviewInput struct {
	Status  ReviewStatus `json:"status"`
	Comment *CommentBody `json:"comment"`
}

// Validate checks the status and the comment. Errors: Invalid.
func (in *SubmitReviewInput) Validate() error {
	if !in.Status.IsValid() {
		return apperr.Invalidf("status", `must be "approved" or "changes-requested"`)
	}
	if in.Comment != nil {
		return in.Comment.Validate("comment")
	}
	return nil
}
