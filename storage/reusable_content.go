package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// ReusableContentVersion is one version of a reusable content on a line: content kept once in a
// space and shown wherever a page includes it (the contract's RevisionReusableContent: id,
// title, git, and the document its markdown gives).
type ReusableContentVersion struct {
	bun.BaseModel `bun:"table:reusable_content_versions,alias:rcv"`

	Span
	ReusableContentID string
	Title             string
	Git               *string // JSON {oid, path}: the Git blob it was imported from
	ContentID         *string // its markdown, a page content
	CreatedAt         time.Time
}

var reusableContentVersions = versionTable{"reusable_content_versions", "rcv", "reusable_content_id"}

func (v *ReusableContentVersion) span() *Span    { return &v.Span }
func (v *ReusableContentVersion) itemID() string { return v.ReusableContentID }
func (v *ReusableContentVersion) clone() *ReusableContentVersion {
	c := *v
	return &c
}
func (v *ReusableContentVersion) table() versionTable { return reusableContentVersions }

// ReusableContentsOf returns every reusable content of a view, by title: one statement.
func (s *Store) ReusableContentsOf(ctx context.Context, v View) ([]*ReusableContentVersion, error) {
	return reusableContentsOf(ctx, s.rdb, v)
}

// ReusableContents returns the reusable contents of the line being edited.
func (c *ContentTx) ReusableContents(ctx context.Context) ([]*ReusableContentVersion, error) {
	return reusableContentsOf(ctx, c.tx, c.View)
}

func reusableContentsOf(ctx context.Context, db bun.IDB, v View) ([]*ReusableContentVersion, error) {
	var rows []*ReusableContentVersion
	cond, args := v.where(reusableContentVersions, "rcv")
	if err := db.NewSelect().Model(&rows).Where(cond, args...).Where("NOT rcv.deleted").
		OrderExpr("rcv.title ASC, rcv.reusable_content_id ASC").Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return rows, nil
}

// ReusableContentOf returns one reusable content of a view. Errors: ErrNotFound.
func (s *Store) ReusableContentOf(ctx context.Context, v View, id string) (*ReusableContentVersion, error) {
	return reusableContentOf(ctx, s.rdb, v, id)
}

// ReusableContent returns one reusable content of the line being edited. Errors: ErrNotFound.
func (c *ContentTx) ReusableContent(ctx context.Context, id string) (*ReusableContentVersion, error) {
	return reusableContentOf(ctx, c.tx, c.View, id)
}

func reusableContentOf(ctx context.Context, db bun.IDB, v View, id string) (*ReusableContentVersion, error) {
	row := new(ReusableContentVersion)
	cond, args := v.where(reusableContentVersions, "rcv")
	if err := db.NewSelect().Model(row).Where(cond, args...).Where("NOT rcv.deleted").
		Where("rcv.reusable_content_id = ?", id).Limit(1).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return row, nil
}

// IncludingPages returns the line's document pages whose markdown holds the word "include", all
// that may include a reusable content: one statement.
func (c *ContentTx) IncludingPages(ctx context.Context) ([]*PageVersion, error) {
	var rows []*PageVersion
	if err := pagesQuery(c.tx, c.View, &rows).Join("JOIN page_contents AS pc ON pc.id = pv.content_id").
		Where("pv.type = 'document'").Where("pc.markdown LIKE ?", "%include%").Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return rows, nil
}
