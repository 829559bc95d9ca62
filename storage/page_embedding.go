package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// PageEmbedding is the vector of one chunk (a section) of a page's content, for one model.
type PageEmbedding struct {
	bun.BaseModel `bun:"table:page_embeddings,alias:pe"`

	OrganizationID string
	SpaceID        string `bun:",pk"`
	PageID         string `bun:",pk"`
	Chunk          int    `bun:",pk"`
	ContentID      string
	Model          string
	Anchor         string
	Vector         string // the vector's stored form (domain/embedding.Encode)
}

// SpaceEmbeddings records the revision of a space last queued for embedding with a model.
type SpaceEmbeddings struct {
	bun.BaseModel `bun:"table:space_embeddings,alias:se"`

	SpaceID          string `bun:",pk"`
	OrganizationID   string
	Model            string
	QueuedRevision   string
	EmbeddedRevision string
}

// EmbeddablePage is a current document page of a space and its content.
type EmbeddablePage struct {
	PageID    string
	ContentID string
	Title     string
}

// QueueEmbeddings queues a job (job's) for each live space whose current revision, or the model,
// differs from what was last queued, at most limit spaces, and records them as queued, in one
// transaction. It returns how many it queued.
func (s *Store) QueueEmbeddings(ctx context.Context, model string, limit int, job func(spaceID string) JobArgs) (int, error) {
	queued := 0
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		var spaces []*Space
		if err := tx.NewSelect().Model(&spaces).Column("s.id", "s.organization_id", "s.revision_id").
			Join("LEFT JOIN space_embeddings AS se ON se.space_id = s.id").
			Where("s.deleted_at IS NULL").
			Where("(se.space_id IS NULL OR se.queued_revision <> s.revision_id OR se.model <> ?)", model).
			OrderExpr("s.id").Limit(int64(limit)).Scan(ctx); err != nil {
			return translate(err)
		}
		if len(spaces) == 0 {
			return nil
		}
		rows := make([]*SpaceEmbeddings, len(spaces))
		args := make([]JobArgs, len(spaces))
		for i, sp := range spaces {
			rows[i] = &SpaceEmbeddings{SpaceID: sp.ID, OrganizationID: sp.OrganizationID, Model: model, QueuedRevision: sp.RevisionID}
			args[i] = job(sp.ID)
		}
		if _, err := tx.NewInsert().Model(&rows).On("CONFLICT (space_id) DO UPDATE").
			Set("model = EXCLUDED.model").Set("queued_revision = EXCLUDED.queued_revision").Exec(ctx); err != nil {
			return fmt.Errorf("record queued embeddings: %w", translate(err))
		}
		queued = len(spaces)
		return s.insertJobsTx(ctx, tx, args)
	})
	return queued, err
}

// EmbeddingWork is what embedding a space starts from: its current document pages, and the
// content each page's stored vectors of model were computed from.
func (s *Store) EmbeddingWork(ctx context.Context, spaceID, model string) (orgID string, current []EmbeddablePage, stored map[string]string, err error) {
	var sp Space
	if err := s.rdb.NewSelect().Model(&sp).Column("s.organization_id").Where("s.id = ? AND s.deleted_at IS NULL", spaceID).Scan(ctx); err != nil {
		return "", nil, nil, translate(err)
	}
	if err := s.rdb.NewSelect().Table("search_pages").Column("page_id", "title").ColumnExpr("COALESCE(content_id, '') AS content_id").
		Where("space_id = ?", spaceID).OrderExpr("page_id").Scan(ctx, &current); err != nil {
		return "", nil, nil, translate(err)
	}
	var rows []struct {
		PageID    string
		ContentID string
	}
	if err := s.rdb.NewSelect().Model((*PageEmbedding)(nil)).Column("pe.page_id", "pe.content_id").Distinct().
		Where("pe.space_id = ? AND pe.model = ?", spaceID, model).Scan(ctx, &rows); err != nil {
		return "", nil, nil, translate(err)
	}
	stored = make(map[string]string, len(rows))
	for _, r := range rows {
		stored[r.PageID] = r.ContentID
	}
	return sp.OrganizationID, current, stored, nil
}

// ReplacePageEmbeddings replaces the vectors of the pages named (pageIDs) by rows, drops the
// space's vectors of other models, and records the revision last queued as embedded, in one
// transaction.
func (s *Store) ReplacePageEmbeddings(ctx context.Context, spaceID, model string, pageIDs []string, rows []*PageEmbedding) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewDelete().Model((*PageEmbedding)(nil)).Where("space_id = ? AND model <> ?", spaceID, model).Exec(ctx); err != nil {
			return translate(err)
		}
		for start := 0; start < len(pageIDs); start += 500 {
			part := pageIDs[start:min(start+500, len(pageIDs))]
			if _, err := tx.NewDelete().Model((*PageEmbedding)(nil)).Where("space_id = ? AND page_id IN (?)", spaceID, bun.List(part)).Exec(ctx); err != nil {
				return translate(err)
			}
		}
		for start := 0; start < len(rows); start += 200 {
			part := rows[start:min(start+200, len(rows))]
			if _, err := tx.NewInsert().Model(&part).Exec(ctx); err != nil {
				return fmt.Errorf("store page embeddings: %w", translate(err))
			}
		}
		_, err := tx.NewUpdate().Model((*SpaceEmbeddings)(nil)).Set("embedded_revision = queued_revision").Where("space_id = ?", spaceID).Exec(ctx)
		return translate(err)
	})
}

// ChunkVector is a stored chunk vector of a current page, for ranking.
type ChunkVector struct {
	SpaceID   string
	PageID    string
	ContentID string
	Title     string
	Anchor    string
	Vector    string
}

// ChunkVectors reads, in one statement, the vectors of model of the chunks of the current pages
// of spaceIDs: only those computed from their page's current content.
func (s *Store) ChunkVectors(ctx context.Context, spaceIDs []string, model string) ([]ChunkVector, error) {
	var out []ChunkVector
	if len(spaceIDs) == 0 {
		return out, nil
	}
	err := s.rdb.NewSelect().Model((*PageEmbedding)(nil)).
		Column("pe.space_id", "pe.page_id", "pe.content_id", "pe.anchor", "pe.vector").ColumnExpr("sp.title").
		Join("JOIN search_pages AS sp ON sp.space_id = pe.space_id AND sp.page_id = pe.page_id AND sp.content_id = pe.content_id").
		Where("pe.space_id IN (?) AND pe.model = ?", bun.List(spaceIDs), model).
		OrderExpr("pe.space_id, pe.page_id, pe.chunk").Scan(ctx, &out)
	return out, translate(err)
}

// ForgetQueuedEmbeddings clears the revision a space was queued for, so that the next sweep
// queues it again (after its job gave up).
func (s *Store) ForgetQueuedEmbeddings(ctx context.Context, spaceID string) error {
	_, err := s.db.NewUpdate().Model((*SpaceEmbeddings)(nil)).Set("queued_revision = ''").Where("space_id = ?", spaceID).Exec(ctx)
	return translate(err)
}
