package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Reviewer is a user asked to review a change request, at the revision it had then.
type Reviewer struct {
	bun.BaseModel `bun:"table:change_request_reviewers,alias:rr"`

	OrganizationID  string
	ChangeRequestID string `bun:"change_request_id,pk"`
	UserID          string `bun:"user_id,pk"`
	RequestedBy     string
	RevisionID      string
	CreatedAt       time.Time
}

// Review is a reviewer's verdict on a change request at one revision. It is outdated once the
// change request has another revision.
type Review struct {
	bun.BaseModel `bun:"table:change_request_reviews,alias:rv"`

	ID              string `bun:"id,pk"`
	OrganizationID  string
	SpaceID         string
	ChangeRequestID string
	ReviewerID      string
	RequestedBy     *string
	Status          string // approved, changes-requested
	RevisionID      string
	CommentID       *string
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// RequestReviewers asks users to review a change request (asking again renews the request at
// the current revision) and writes the fields set of cr, in one transaction.
func (s *Store) RequestReviewers(ctx context.Context, rows []*Reviewer, cr *ChangeRequest, set ChangeRequestField) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if set != 0 {
			if _, err := tx.NewUpdate().Model(cr).Column(append(columnsOf(set, changeRequestColumns), "updated_at")...).WherePK().Exec(ctx); err != nil {
				return fmt.Errorf("update change request %s: %w", cr.ID, translate(err))
			}
		}
		if len(rows) == 0 {
			return nil
		}
		_, err := upsert(tx.NewInsert().Model(&rows), "change_request_id, user_id", "requested_by", "revision_id", "created_at").Exec(ctx)
		if err != nil {
			return fmt.Errorf("request reviewers: %w", translate(err))
		}
		return nil
	})
}

// ReviewerPage pages through a change request's requested reviewers, in the order asked.
func (s *Store) ReviewerPage(ctx context.Context, changeRequestID string, page Window) (List[*Reviewer], error) {
	key := sortKey{name: "requested-reviewers", column: "rr.created_at", idCol: "rr.user_id", isTime: true}
	return paginate(ctx, s.rdb, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("rr.change_request_id = ?", changeRequestID)
	}, func(r *Reviewer) (time.Time, string, string) { return r.CreatedAt, "", r.UserID })
}

// ReviewersOf returns every requested reviewer of a change request: one statement.
func (s *Store) ReviewersOf(ctx context.Context, changeRequestID string) ([]*Reviewer, error) {
	var out []*Reviewer
	err := s.rdb.NewSelect().Model(&out).Where("rr.change_request_id = ?", changeRequestID).OrderExpr("rr.created_at, rr.user_id").Scan(ctx)
	return out, translate(err)
}

// RemoveReviewer withdraws a review request; removing one that does not exist changes nothing.
func (s *Store) RemoveReviewer(ctx context.Context, changeRequestID, userID string) error {
	return s.exec(ctx, func(ctx context.Context, db bun.IDB) error {
		_, err := db.NewDelete().Model((*Reviewer)(nil)).Where("change_request_id = ? AND user_id = ?", changeRequestID, userID).Exec(ctx)
		return translate(err)
	})
}

// SubmitReview records a review and, when comment is not nil, the comment that goes with it, in
// one transaction. The review takes its requester from the reviewer's pending request, if any.
func (s *Store) SubmitReview(ctx context.Context, rv *Review, comment *Comment) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if rv.ID == "" {
			rv.ID = NewID()
		}
		req := new(Reviewer)
		err := tx.NewSelect().Model(req).Where("rr.change_request_id = ? AND rr.user_id = ?", rv.ChangeRequestID, rv.ReviewerID).Scan(ctx)
		switch err = translate(err); {
		case err == nil:
			rv.RequestedBy = &req.RequestedBy
		case err != ErrNotFound:
			return err
		}
		if comment != nil {
			comment.ID, comment.ReviewID = NewID(), &rv.ID
			if _, err := tx.NewInsert().Model(comment).Exec(ctx); err != nil {
				return fmt.Errorf("create review comment: %w", translate(err))
			}
			rv.CommentID = &comment.ID
		}
		if _, err := tx.NewInsert().Model(rv).Exec(ctx); err != nil {
			return fmt.Errorf("submit review: %w", translate(err))
		}
		return nil
	})
}

// ReviewFilter narrows a change request's reviews. Outdated, when set, keeps the reviews made at
// another revision than Current (true) or at Current (false).
type ReviewFilter struct {
	Outdated *bool
	Current  string
}

// ReviewPage pages through a change request's reviews, newest first.
func (s *Store) ReviewPage(ctx context.Context, changeRequestID string, f ReviewFilter, page Window) (List[*Review], error) {
	key := sortKey{name: "reviews", column: "rv.created_at", idCol: "rv.id", desc: true, isTime: true}
	return paginate(ctx, s.rdb, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		q = q.Where("rv.change_request_id = ?", changeRequestID)
		switch {
		case f.Outdated == nil:
		case *f.Outdated:
			q = q.Where("rv.revision_id <> ?", f.Current)
		default:
			q = q.Where("rv.revision_id = ?", f.Current)
		}
		return q
	}, func(r *Review) (time.Time, string, string) { return r.CreatedAt, "", r.ID })
}

// ReviewsOf returns every review of a change request, oldest first: one statement.
func (s *Store) ReviewsOf(ctx context.Context, changeRequestID string) ([]*Review, error) {
	var out []*Review
	err := s.rdb.NewSelect().Model(&out).Where("rv.change_request_id = ?", changeRequestID).OrderExpr("rv.created_at, rv.id").Scan(ctx)
	return out, translate(err)
}

// FindReview returns a review of a change request. Errors: ErrNotFound.
func (s *Store) FindReview(ctx context.Context, changeRequestID, id string) (*Review, error) {
	rv := new(Review)
	err := s.rdb.NewSelect().Model(rv).Where("rv.change_request_id = ? AND rv.id = ?", changeRequestID, id).Scan(ctx)
	return rv, translate(err)
}

// CommentsByIDs returns comments by id: one statement.
func (s *Store) CommentsByIDs(ctx context.Context, ids []string) ([]*Comment, error) {
	var out []*Comment
	if len(ids) == 0 {
		return out, nil
	}
	err := s.rdb.NewSelect().Model(&out).Where("cm.id IN (?)", bun.List(ids)).Scan(ctx)
	return out, translate(err)
}
