package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// CommentField is a field of a comment or reply that UpdateComment writes.
type CommentField uint32

// The comment fields. CommentBody is the body with its kind and when it was edited;
// CommentStatus is the status with who resolved it and when.
const (
	CommentBody CommentField = 1 << iota
	CommentStatus
)

var commentColumns = map[CommentField][]string{
	CommentBody: {"body_kind", "body", "edited_at"}, CommentStatus: {"status", "resolved_at", "resolved_by"},
}

// Comment is a comment on a space or on one of its change requests, or (with ParentID) a reply
// to one. Body holds markdown, a JSON document, or nothing, as BodyKind says.
type Comment struct {
	bun.BaseModel `bun:"table:comments,alias:cm"`

	ID              string `bun:"id,pk"`
	OrganizationID  string
	SpaceID         string
	ChangeRequestID *string
	ParentID        *string
	ReviewID        *string
	RevisionID      string
	PageID          *string
	NodeID          *string
	TableRecord     *string
	TableDefinition *string
	BodyKind        string // BodyMarkdown, BodyDocument or BodyEmpty
	Body            string
	PostedBy        string
	PostedAt        time.Time
	EditedAt        *time.Time
	Status          string // open or resolved; replies stay open
	ResolvedAt      *time.Time
	ResolvedBy      *string
}

// The kinds of comment bodies.
const (
	BodyMarkdown = "markdown"
	BodyDocument = "document"
	BodyEmpty    = "empty"
)

// Reaction is one user's emoji on a comment or reply.
type Reaction struct {
	bun.BaseModel `bun:"table:comment_reactions,alias:rc"`

	OrganizationID string
	CommentID      string `bun:"comment_id,pk"`
	UserID         string `bun:"user_id,pk"`
	Emoji          string `bun:"emoji,pk"`
	ReactedAt      time.Time
}

// Thread names a discussion: a space's own, or one change request's (ChangeRequestID set).
type Thread struct {
	SpaceID         string
	ChangeRequestID string
}

func (t Thread) where(q *bun.SelectQuery) *bun.SelectQuery {
	q = q.Where("cm.space_id = ?", t.SpaceID)
	if t.ChangeRequestID == "" {
		return q.Where("cm.change_request_id IS NULL")
	}
	return q.Where("cm.change_request_id = ?", t.ChangeRequestID)
}

// CommentFilter narrows a thread's comments.
type CommentFilter struct {
	Status    string // open or resolved; empty for all
	PageID    string
	Authors   []string
	Ascending bool
}

// CreateComment inserts a comment or a reply.
func (s *Store) CreateComment(ctx context.Context, c *Comment) error {
	return s.exec(ctx, func(ctx context.Context, db bun.IDB) error {
		if c.ID == "" {
			c.ID = NewID()
		}
		if _, err := db.NewInsert().Model(c).Exec(ctx); err != nil {
			return fmt.Errorf("create comment: %w", translate(err))
		}
		return nil
	})
}

// FindComment returns a comment (not a reply) of a thread. Errors: ErrNotFound.
func (s *Store) FindComment(ctx context.Context, t Thread, id string) (*Comment, error) {
	c := new(Comment)
	err := t.where(s.rdb.NewSelect().Model(c)).Where("cm.id = ? AND cm.parent_id IS NULL", id).Scan(ctx)
	return c, translate(err)
}

// FindReply returns a reply to a comment. Errors: ErrNotFound.
func (s *Store) FindReply(ctx context.Context, parentID, id string) (*Comment, error) {
	c := new(Comment)
	err := s.rdb.NewSelect().Model(c).Where("cm.id = ? AND cm.parent_id = ?", id, parentID).Scan(ctx)
	return c, translate(err)
}

// CommentPage pages through a thread's comments, newest first unless ascending: two statements.
// Errors: ErrInvalidCursor.
func (s *Store) CommentPage(ctx context.Context, t Thread, f CommentFilter, page Window) (List[*Comment], error) {
	key := sortKey{name: "comments", column: "cm.posted_at", idCol: "cm.id", desc: !f.Ascending, isTime: true}
	if f.Ascending {
		key.name += ".asc"
	}
	return paginate(ctx, s.rdb, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		q = t.where(q).Where("cm.parent_id IS NULL")
		if f.Status != "" {
			q = q.Where("cm.status = ?", f.Status)
		}
		if f.PageID != "" {
			q = q.Where("cm.page_id = ?", f.PageID)
		}
		if len(f.Authors) > 0 {
			q = q.Where("cm.posted_by IN (?)", bun.List(f.Authors))
		}
		return q
	}, func(c *Comment) (time.Time, string, string) { return c.PostedAt, "", c.ID })
}

// ReplyPage pages through a comment's replies, oldest first (the order of the conversation).
func (s *Store) ReplyPage(ctx context.Context, parentID string, page Window) (List[*Comment], error) {
	key := sortKey{name: "replies", column: "cm.posted_at", idCol: "cm.id", isTime: true}
	return paginate(ctx, s.rdb, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("cm.parent_id = ?", parentID)
	}, func(c *Comment) (time.Time, string, string) { return c.PostedAt, "", c.ID })
}

// ReplyPages is ReplyPage for several comments at once (each comment's page of replies, keyed by
// comment id): two statements whatever the number of comments, one when page.NoTotal.
func (s *Store) ReplyPages(ctx context.Context, parentIDs []string, page Window) (map[string]List[*Comment], error) {
	key := sortKey{name: "replies", column: "cm.posted_at", idCol: "cm.id", isTime: true}
	return paginateEach(ctx, s.rdb, key, page, "cm.parent_id", parentIDs,
		func(q *bun.SelectQuery) *bun.SelectQuery { return q.ColumnExpr("cm.*") },
		func(c *Comment) (time.Time, string, string) { return c.PostedAt, "", c.ID },
		func(c *Comment) string { return deref(c.ParentID) })
}

// UpdateComment writes the fields set of a comment or reply. Errors: ErrNotFound.
func (s *Store) UpdateComment(ctx context.Context, c *Comment, set CommentField) error {
	return s.exec(ctx, func(ctx context.Context, db bun.IDB) error {
		if set == 0 {
			return nil
		}
		res, err := db.NewUpdate().Model(c).Column(columnsOf(set, commentColumns)...).WherePK().Exec(ctx)
		if err != nil {
			return fmt.Errorf("update comment %s: %w", c.ID, translate(err))
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// DeleteComment removes a comment or a reply, with its replies and reactions (the foreign keys
// cascade).
func (s *Store) DeleteComment(ctx context.Context, id string) error {
	return s.exec(ctx, func(ctx context.Context, db bun.IDB) error {
		_, err := db.NewDelete().Model((*Comment)(nil)).Where("id = ?", id).Exec(ctx)
		return translate(err)
	})
}

// React adds and removes one user's emoji on a comment in one transaction. Adding an emoji the
// user already gave, or removing one they never gave, changes nothing.
func (s *Store) React(ctx context.Context, orgID, commentID, userID string, added, removed []string, now time.Time) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if len(removed) > 0 {
			if _, err := tx.NewDelete().Model((*Reaction)(nil)).
				Where("comment_id = ? AND user_id = ? AND emoji IN (?)", commentID, userID, bun.List(removed)).Exec(ctx); err != nil {
				return fmt.Errorf("remove reactions: %w", translate(err))
			}
		}
		if len(added) == 0 {
			return nil
		}
		rows := make([]*Reaction, len(added))
		for i, e := range added {
			rows[i] = &Reaction{OrganizationID: orgID, CommentID: commentID, UserID: userID, Emoji: e, ReactedAt: now}
		}
		if _, err := insertNew(tx.NewInsert().Model(&rows), "").Exec(ctx); err != nil {
			return fmt.Errorf("add reactions: %w", translate(err))
		}
		return nil
	})
}

// ReactionsOf returns the reactions on comments, oldest first: one statement.
func (s *Store) ReactionsOf(ctx context.Context, commentIDs []string) ([]*Reaction, error) {
	var out []*Reaction
	if len(commentIDs) == 0 {
		return out, nil
	}
	err := s.rdb.NewSelect().Model(&out).Where("rc.comment_id IN (?)", bun.List(commentIDs)).
		OrderExpr("rc.reacted_at, rc.user_id, rc.emoji").Scan(ctx)
	return out, translate(err)
}

// ReplyAuthor is who wrote one reply, and when: what reply counts and repliers are built from.
type ReplyAuthor struct {
	ParentID string
	PostedBy string
	PostedAt time.Time
}

// ReplyAuthorsOf lists who replied to comments and when, oldest first: one statement.
func (s *Store) ReplyAuthorsOf(ctx context.Context, commentIDs []string) ([]ReplyAuthor, error) {
	var out []ReplyAuthor
	if len(commentIDs) == 0 {
		return out, nil
	}
	err := s.rdb.NewSelect().Model((*Comment)(nil)).Column("cm.parent_id", "cm.posted_by", "cm.posted_at").
		Where("cm.parent_id IN (?)", bun.List(commentIDs)).OrderExpr("cm.posted_at, cm.id").Scan(ctx, &out)
	return out, translate(err)
}

// CommentCountsOfChangeRequests counts the comments (not replies) of change requests: one
// statement.
func (s *Store) CommentCountsOfChangeRequests(ctx context.Context, ids []string) (map[string]int, error) {
	out := map[string]int{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ChangeRequestID string
		Count           int
	}
	err := s.rdb.NewSelect().Model((*Comment)(nil)).ColumnExpr("cm.change_request_id AS change_request_id, COUNT(*) AS count").
		Where("cm.change_request_id IN (?) AND cm.parent_id IS NULL", bun.List(ids)).GroupExpr("cm.change_request_id").Scan(ctx, &rows)
	for _, r := range rows {
		out[r.ChangeRequestID] = r.Count
	}
	return out, translate(err)
}

// commenters selects the users who wrote a comment or a reply in a thread.
func (t Thread) commenters(db bun.IDB) *bun.SelectQuery {
	return t.where(db.NewSelect().Model((*Comment)(nil)).Column("cm.posted_by"))
}
