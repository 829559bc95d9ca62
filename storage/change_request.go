package storage

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/uptrace/bun"
)

// ChangeRequestField is a field of a ChangeRequest that UpdateChangeRequest and
// RequestReviewers write.
type ChangeRequestField uint32

// The change request fields.
const (
	ChangeRequestSubject ChangeRequestField = 1 << iota
	ChangeRequestDescription
	ChangeRequestStatus
)

var changeRequestColumns = map[ChangeRequestField][]string{
	ChangeRequestSubject: {"subject"}, ChangeRequestDescription: {"description"}, ChangeRequestStatus: {"status"},
}

// ChangeRequest is a line of edits layered over a space's content at BaseSeq, merged back into
// the space when ready.
type ChangeRequest struct {
	bun.BaseModel `bun:"table:change_requests,alias:cr"`

	ID                     string `bun:"id,pk"`
	OrganizationID         string
	SpaceID                string
	Number                 int64
	Status                 string // draft, open, archived, merged
	Subject                string
	Description            *string // JSON document
	CreatedBy              string
	BaseSeq                int64
	HeadSeq                int64 // 0 until the first edit
	RevisionID             string
	RevisionInitialID      string
	RevisionMergedAncestor *string
	RevisionMerged         *string
	CreatedAt              time.Time
	UpdatedAt              time.Time
}

// Open reports whether the change request still takes edits.
func (cr *ChangeRequest) Open() bool { return cr.Status == "draft" || cr.Status == "open" }

// CreateChangeRequest opens a change request on the space's current content. It copies nothing:
// the change request shows the space's line at its current sequence until it is edited. The
// number is the next one of the space. Errors: ErrNotFound.
func (s *Store) CreateChangeRequest(ctx context.Context, cr *ChangeRequest) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		space, err := s.lockSpace(ctx, tx, cr.SpaceID)
		if err != nil {
			return err
		}
		var last int64
		if err := tx.NewSelect().Model((*ChangeRequest)(nil)).ColumnExpr("COALESCE(MAX(cr.number), 0)").
			Where("cr.space_id = ?", space.ID).Scan(ctx, &last); err != nil {
			return translate(err)
		}
		if cr.ID == "" {
			cr.ID = NewID()
		}
		cr.OrganizationID, cr.Number = space.OrganizationID, last+1
		cr.BaseSeq, cr.HeadSeq = space.RevisionSeq, 0
		cr.RevisionID, cr.RevisionInitialID = space.RevisionID, space.RevisionID
		if _, err := tx.NewInsert().Model(cr).Exec(ctx); err != nil {
			return fmt.Errorf("create change request: %w", translate(err))
		}
		return nil
	})
}

// FindChangeRequest returns a change request of a space by id or by its number in the space.
// Errors: ErrNotFound.
func (s *Store) FindChangeRequest(ctx context.Context, spaceID, idOrNumber string) (*ChangeRequest, error) {
	return findChangeRequest(ctx, s.rdb, spaceID, idOrNumber)
}

// ChangeRequestsByIDs returns change requests by id, keyed by id: one statement.
func (s *Store) ChangeRequestsByIDs(ctx context.Context, ids []string) (map[string]*ChangeRequest, error) {
	out := make(map[string]*ChangeRequest, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []*ChangeRequest
	if err := s.rdb.NewSelect().Model(&rows).Where("cr.id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	for _, cr := range rows {
		out[cr.ID] = cr
	}
	return out, nil
}

func findChangeRequest(ctx context.Context, db bun.IDB, spaceID, idOrNumber string) (*ChangeRequest, error) {
	cr := new(ChangeRequest)
	q := db.NewSelect().Model(cr).Where("cr.space_id = ?", spaceID)
	if n, err := strconv.ParseInt(idOrNumber, 10, 64); err == nil && n > 0 {
		q = q.Where("(cr.id = ? OR cr.number = ?)", idOrNumber, n)
	} else {
		q = q.Where("cr.id = ?", idOrNumber)
	}
	if err := q.Limit(1).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return cr, nil
}

// openChangeRequest reads a change request that takes edits. Errors: ErrNotFound,
// ErrChangeRequestClosed.
func openChangeRequest(ctx context.Context, tx bun.Tx, spaceID, id string) (*ChangeRequest, error) {
	cr, err := findChangeRequest(ctx, tx, spaceID, id)
	if err != nil {
		return nil, err
	}
	if !cr.Open() {
		return nil, ErrChangeRequestClosed
	}
	return cr, nil
}

// ChangeRequestFilter narrows a space's change requests.
type ChangeRequestFilter struct {
	Status      string
	Creator     string
	Contributor string // a user who authored a revision of the change request
	// RequestedReviewer keeps the change requests that user is asked to review.
	RequestedReviewer string
}

// ChangeRequestPage pages through a space's change requests, newest first.
func (s *Store) ChangeRequestPage(ctx context.Context, spaceID string, f ChangeRequestFilter, page Window) (List[*ChangeRequest], error) {
	key := sortKey{name: "change-requests", column: "cr.created_at", idCol: "cr.id", desc: true, isTime: true}
	return paginate(ctx, s.rdb, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		return f.apply(q.Where("cr.space_id = ?", spaceID))
	}, func(cr *ChangeRequest) (time.Time, string, string) { return cr.CreatedAt, "", cr.ID })
}

// apply narrows a query of change requests to those the filter keeps.
func (f ChangeRequestFilter) apply(q *bun.SelectQuery) *bun.SelectQuery {
	if f.Status != "" {
		q = q.Where("cr.status = ?", f.Status)
	}
	if f.Creator != "" {
		q = q.Where("cr.created_by = ?", f.Creator)
	}
	if f.Contributor != "" {
		q = q.Where("(cr.created_by = ? OR EXISTS (SELECT 1 FROM revisions r WHERE r.change_request_id = cr.id AND r.created_by = ?))", f.Contributor, f.Contributor)
	}
	if f.RequestedReviewer != "" {
		q = q.Where("EXISTS (SELECT 1 FROM change_request_reviewers rr WHERE rr.change_request_id = cr.id AND rr.user_id = ?)", f.RequestedReviewer)
	}
	return q
}

// OrganizationChangeRequestPage pages through the change requests of the organization's live
// spaces that reader reads, newest first: the database decides which spaces with the engine's
// rules (SpaceReader), so two statements whatever the number of spaces or change requests.
// Errors: ErrInvalidCursor.
func (s *Store) OrganizationChangeRequestPage(ctx context.Context, r SpaceReader, f ChangeRequestFilter, page Window) (List[*ChangeRequest], error) {
	key := sortKey{name: "org-change-requests.desc", column: "cr.created_at", idCol: "cr.id", desc: true, isTime: true}
	if r.Only != nil && len(r.Only) == 0 {
		r.Only = []string{""} // confined to nothing: an IN list needs one value
	}
	visible, args := r.visible()
	return paginate(ctx, s.rdb, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		q = q.Where("cr.organization_id = ?", r.OrganizationID).
			Where("cr.space_id IN (SELECT s.id FROM spaces s WHERE "+visible+")", args...)
		return f.apply(q)
	}, func(cr *ChangeRequest) (time.Time, string, string) { return cr.CreatedAt, "", cr.ID })
}

// UpdateChangeRequest writes the fields set of cr, and its update time. Errors: ErrNotFound.
func (s *Store) UpdateChangeRequest(ctx context.Context, cr *ChangeRequest, set ChangeRequestField) error {
	return s.exec(ctx, func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewUpdate().Model(cr).Column(append(columnsOf(set, changeRequestColumns), "updated_at")...).WherePK().Exec(ctx)
		if err != nil {
			return fmt.Errorf("update change request %s: %w", cr.ID, translate(err))
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// ChangeRequestCounts are a space's change requests by status.
type ChangeRequestCounts struct {
	SpaceID string
	Status  string
	Count   int
}

// CommentsCount is the pseudo-status under which ChangeRequestCountsOf reports a space's
// comments.
const CommentsCount = "comments"

// ChangeRequestCountsOf counts the change requests of spaces by status, and (as status
// CommentsCount) the comments on the spaces' own discussion, not counting replies: one statement
// for both, so a space's counters cost one round trip whatever the number of spaces.
func (s *Store) ChangeRequestCountsOf(ctx context.Context, spaceIDs []string) ([]ChangeRequestCounts, error) {
	if len(spaceIDs) == 0 {
		return nil, nil
	}
	var out []ChangeRequestCounts
	comments := s.rdb.NewSelect().Model((*Comment)(nil)).
		ColumnExpr("cm.space_id AS space_id, ? AS status, COUNT(*) AS count", CommentsCount).
		Where("cm.space_id IN (?) AND cm.change_request_id IS NULL AND cm.parent_id IS NULL", bun.List(spaceIDs)).
		GroupExpr("cm.space_id")
	err := s.rdb.NewSelect().Model((*ChangeRequest)(nil)).
		ColumnExpr("cr.space_id AS space_id, cr.status AS status, COUNT(*) AS count").
		Where("cr.space_id IN (?)", bun.List(spaceIDs)).GroupExpr("cr.space_id, cr.status").
		UnionAll(comments).Scan(ctx, &out)
	return out, translate(err)
}

// Contributor is a person's part in a change request: their edits (each a revision of the change
// request) or their comments on it, how many and the latest.
type Contributor struct {
	ChangeRequestID string
	UserID          string
	Action          string // edit or comment
	Count           int
	UpdatedAt       time.Time
}

// ContributorsOf returns who edited and who commented on change requests, keyed by change request
// id, busiest first: one statement whatever the number of change requests or people. Revisions
// record their author, comments their poster.
func (s *Store) ContributorsOf(ctx context.Context, ids []string) (map[string][]Contributor, error) {
	out := make(map[string][]Contributor, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []Contributor
	err := s.rdb.NewRaw(`SELECT change_request_id, user_id, action, count, updated_at FROM (
			SELECT r.change_request_id AS change_request_id, r.created_by AS user_id, 'edit' AS action, COUNT(*) AS count, MAX(r.created_at) AS updated_at
			FROM revisions r WHERE r.change_request_id IN (?) AND r.created_by IS NOT NULL GROUP BY r.change_request_id, r.created_by
			UNION ALL
			SELECT cm.change_request_id, cm.posted_by, 'comment', COUNT(*), MAX(cm.posted_at)
			FROM comments cm WHERE cm.change_request_id IN (?) GROUP BY cm.change_request_id, cm.posted_by
		) AS c ORDER BY change_request_id, count DESC, user_id, action DESC`, bun.List(ids), bun.List(ids)).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("contributors of change requests: %w", translate(err))
	}
	for _, c := range rows {
		out[c.ChangeRequestID] = append(out[c.ChangeRequestID], c)
	}
	return out, nil
}
