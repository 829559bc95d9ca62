package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Revision is an immutable snapshot of a space's content: the state of a line (the space's, or a
// change request's) at a sequence number. See View.
type Revision struct {
	bun.BaseModel `bun:"table:revisions,alias:r"`

	ID              string `bun:"id,pk"`
	OrganizationID  string
	SpaceID         string
	Line            string // the space id, or the change request id
	Seq             int64
	BaseSeq         *int64 // change request revisions: the space sequence they are layered on
	Type            string // edits, merge, update
	Parents         string // JSON array of revision ids
	ChangeRequestID *string
	MergedFrom      *string // merge revisions: the change request merged
	CreatedBy       *string
	Git             *string // JSON: the Git commit the revision was imported from or exported to
	CreatedAt       time.Time
}

// PageContent is a markdown body, stored once and shared by every page version that holds it.
type PageContent struct {
	bun.BaseModel `bun:"table:page_contents,alias:pc"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	Markdown       string
	CreatedAt      time.Time
	// Refs are what the body points at, stored with it (the API layer extracts them).
	Refs []*ContentRef `bun:"-"`
}

// ContentRef is one reference of a markdown body, as written: a URL, a relative path or an
// anchor. Node is the key of the document node holding it.
type ContentRef struct {
	bun.BaseModel `bun:"table:content_refs,alias:cref"`

	ContentID      string `bun:"content_id,pk"`
	Ord            int    `bun:"ord,pk"`
	OrganizationID string
	Node           string
	Type           string
	Target         string
}

// Span places a version on a line: visible from FromSeq until ToSeq (exclusive; nil while
// current).
type Span struct {
	ID             string `bun:"id,pk"`
	OrganizationID string
	SpaceID        string
	Line           string
	FromSeq        int64
	ToSeq          *int64
	OriginID       *string // change request lines: the space version this one was derived from
	Deleted        bool    // change request lines: the item is removed
}

// PageVersion is one version of a page on a line, visible from FromSeq until ToSeq.
type PageVersion struct {
	bun.BaseModel `bun:"table:page_versions,alias:pv"`

	Span
	PageID        string
	ParentID      *string
	Position      float64
	Type          string // document, group, link
	Title         string
	Slug          string
	Emoji         *string
	Icon          *string
	Description   *string
	Hidden        bool
	NoIndex       bool
	NoRobotsIndex bool
	Layout        *string // JSON
	Cover         *string // JSON
	Variables     *string // JSON
	LinkTarget    *string // JSON content reference
	Git           *string // JSON
	ContentID     *string
	Computed      *string // JSON: what an API-reference page is generated from (nil for others)
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// FileVersion is one version of an uploaded file on a line; the bytes live in the blob store.
type FileVersion struct {
	bun.BaseModel `bun:"table:file_versions,alias:fv"`

	Span
	FileID      string
	Name        string
	ContentType string
	Size        int64
	Width       *int
	Height      *int
	BlobKey     string
	Git         *string // JSON {oid, path}: the Git blob the file was imported from
	CreatedAt   time.Time
}

// View is what one revision shows: the space's line at BaseSeq, overlaid, for a change request,
// by the change request's line at Seq (its versions, tombstones included, win over the space's).
type View struct {
	SpaceID         string
	BaseSeq         int64
	ChangeRequestID string
	Seq             int64
}

// ViewOf is the content a revision shows.
func ViewOf(r *Revision) View {
	if r.ChangeRequestID == nil && (r.Line == r.SpaceID || r.Line == "") {
		return View{SpaceID: r.SpaceID, BaseSeq: r.Seq}
	}
	// A change request's line, or a standalone revision's own line (gitsync.go): an overlay.
	v := View{SpaceID: r.SpaceID, ChangeRequestID: r.Line, Seq: r.Seq}
	if r.BaseSeq != nil {
		v.BaseSeq = *r.BaseSeq
	}
	return v
}

// versionTable names a versioned table and the column holding the versioned item's id.
type versionTable struct{ table, alias, key string }

var (
	pageVersions = versionTable{"page_versions", "pv", "page_id"}
	fileVersions = versionTable{"file_versions", "fv", "file_id"}
)

// visibleAt is the condition selecting the versions of line current at seq. "Current" is
// written COALESCE(to_seq, 0) = 0 (sequences start at 1) rather than to_seq IS NULL: SQLite
// would otherwise walk the (line, to_seq) index, every current version of the line, at each step
// of a recursive read, instead of the (line, page_id) or (line, parent_id) one.
func visibleAt(alias string) string {
	return fmt.Sprintf("%[1]s.line = ? AND %[1]s.from_seq <= ? AND (COALESCE(%[1]s.to_seq, 0) = 0 OR %[1]s.to_seq > ?)", alias)
}

// where is the condition selecting, under alias, the versions the view shows, tombstones
// included: one indexed condition, so any revision is read in one statement.
func (v View) where(t versionTable, alias string) (string, []any) {
	if v.ChangeRequestID == "" {
		return visibleAt(alias), []any{v.SpaceID, v.BaseSeq, v.BaseSeq}
	}
	cond := fmt.Sprintf("((%[1]s) OR (%[2]s AND NOT EXISTS (SELECT 1 FROM %[3]s o WHERE o.%[4]s = %[5]s.%[4]s AND %[6]s)))",
		visibleAt(alias), visibleAt(alias), t.table, t.key, alias, visibleAt("o"))
	return cond, []any{v.ChangeRequestID, v.Seq, v.Seq, v.SpaceID, v.BaseSeq, v.BaseSeq, v.ChangeRequestID, v.Seq, v.Seq}
}

// pagesQuery selects the live pages of a view.
func pagesQuery(db bun.IDB, v View, rows any) *bun.SelectQuery {
	cond, args := v.where(pageVersions, "pv")
	return db.NewSelect().Model(rows).Where(cond, args...).Where("NOT pv.deleted")
}

// PagesOf returns every page of a view, ordered by position within each parent: one statement.
func (s *Store) PagesOf(ctx context.Context, v View) ([]*PageVersion, error) {
	return pagesOf(ctx, s.rdb, v)
}

func pagesOf(ctx context.Context, db bun.IDB, v View) ([]*PageVersion, error) {
	var rows []*PageVersion
	if err := pagesQuery(db, v, &rows).OrderExpr("pv.position ASC, pv.page_id ASC").Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return rows, nil
}

// PageOf returns one page of a view. Errors: ErrNotFound.
func (s *Store) PageOf(ctx context.Context, v View, pageID string) (*PageVersion, error) {
	return pageOf(ctx, s.rdb, v, pageID)
}

func pageOf(ctx context.Context, db bun.IDB, v View, pageID string) (*PageVersion, error) {
	row := new(PageVersion)
	if err := pagesQuery(db, v, row).Where("pv.page_id = ?", pageID).Limit(1).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return row, nil
}

// PageWithAncestors returns a page of a view and its ancestors, nearest first, in one statement
// (a recursive query): paths are derived from the ancestors' slugs. Errors: ErrNotFound.
func (s *Store) PageWithAncestors(ctx context.Context, v View, pageID string) ([]*PageVersion, error) {
	condA, argsA := v.where(pageVersions, "pv")
	condR, argsR := v.where(pageVersions, "pv")
	var rows []*PageVersion
	query := fmt.Sprintf(`WITH RECURSIVE chain(version_id, depth) AS (
		SELECT pv.id, 0 FROM page_versions pv WHERE pv.page_id = ? AND %s AND NOT pv.deleted
		UNION ALL
		SELECT pv.id, chain.depth + 1 FROM chain
		JOIN page_versions child ON child.id = chain.version_id
		JOIN page_versions pv ON pv.page_id = child.parent_id
		WHERE %s AND NOT pv.deleted AND chain.depth < 64
	) SELECT pv.* FROM chain JOIN page_versions pv ON pv.id = chain.version_id ORDER BY chain.depth`, condA, condR)
	args := append(append([]any{pageID}, argsA...), argsR...)
	if err := s.rdb.NewRaw(query, args...).Scan(ctx, &rows); err != nil {
		return nil, translate(err)
	}
	if len(rows) == 0 {
		return nil, ErrNotFound
	}
	return rows, nil
}

// PageMarkdown returns the markdown of content ids: one statement.
func (s *Store) PageMarkdown(ctx context.Context, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []*PageContent
	if err := s.rdb.NewSelect().Model(&rows).Where("pc.id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		out[r.ID] = r.Markdown
	}
	return out, nil
}

// filesQuery selects the live files of a view.
func filesQuery(db bun.IDB, v View, rows any) *bun.SelectQuery {
	cond, args := v.where(fileVersions, "fv")
	return db.NewSelect().Model(rows).Where(cond, args...).Where("NOT fv.deleted")
}

// FilesOf returns every file of a view, by name: one statement.
func (s *Store) FilesOf(ctx context.Context, v View) ([]*FileVersion, error) {
	var rows []*FileVersion
	if err := filesQuery(s.rdb, v, &rows).OrderExpr("fv.name ASC, fv.file_id ASC").Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return rows, nil
}

// FilePageOf pages through the files of a view, oldest first.
func (s *Store) FilePageOf(ctx context.Context, v View, page Window) (List[*FileVersion], error) {
	key := sortKey{name: "files", column: "fv.created_at", idCol: "fv.file_id", isTime: true}
	return paginate(ctx, s.rdb, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		cond, args := v.where(fileVersions, "fv")
		return q.Where(cond, args...).Where("NOT fv.deleted")
	}, func(f *FileVersion) (time.Time, string, string) { return f.CreatedAt, "", f.FileID })
}

// FileOf returns one file of a view. Errors: ErrNotFound.
func (s *Store) FileOf(ctx context.Context, v View, fileID string) (*FileVersion, error) {
	row := new(FileVersion)
	if err := filesQuery(s.rdb, v, row).Where("fv.file_id = ?", fileID).Limit(1).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return row, nil
}

// FindRevision returns a revision of a space. Errors: ErrNotFound.
func (s *Store) FindRevision(ctx context.Context, spaceID, id string) (*Revision, error) {
	r := new(Revision)
	if err := s.rdb.NewSelect().Model(r).Where("r.id = ? AND r.space_id = ?", id, spaceID).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return r, nil
}

// RevisionsByIDs returns revisions by id: one statement.
func (s *Store) RevisionsByIDs(ctx context.Context, ids []string) ([]*Revision, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []*Revision
	if err := s.rdb.NewSelect().Model(&rows).Where("r.id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return rows, nil
}

// RevisionPageOf pages through a space's revisions (its own line and its change requests'),
// newest first.
func (s *Store) RevisionPageOf(ctx context.Context, spaceID string, page Window) (List[*Revision], error) {
	key := sortKey{name: "revisions", column: "r.created_at", idCol: "r.id", desc: true, isTime: true}
	return paginate(ctx, s.rdb, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("r.space_id = ?", spaceID)
	}, func(r *Revision) (time.Time, string, string) { return r.CreatedAt, "", r.ID })
}

// PageSubtree returns the live descendants of a page in a view, in one statement (a recursive
// query), each level ordered by position.
func (s *Store) PageSubtree(ctx context.Context, v View, pageID string) ([]*PageVersion, error) {
	return pageSubtree(ctx, s.rdb, v, pageID)
}

func pageSubtree(ctx context.Context, db bun.IDB, v View, pageID string) ([]*PageVersion, error) {
	cond, args := v.where(pageVersions, "pv")
	var rows []*PageVersion
	// SQLite must walk from each found page to its children through the (line, parent_id) index
	// (CROSS JOIN fixes that order; PostgreSQL reads it as a plain join), and the chain carries
	// version ids so the rows are read back by primary key: either way round, it scanned the whole
	// line once per descendant.
	query := fmt.Sprintf(`WITH RECURSIVE sub(version_id, page_id, depth) AS (
		SELECT CAST(NULL AS TEXT), CAST(? AS TEXT), 0
		UNION ALL
		SELECT pv.id, pv.page_id, sub.depth + 1 FROM sub CROSS JOIN page_versions pv
		WHERE pv.parent_id = sub.page_id AND %s AND NOT pv.deleted AND sub.depth < 64
	) SELECT pv.* FROM sub JOIN page_versions pv ON pv.id = sub.version_id
	WHERE sub.depth > 0 ORDER BY pv.position, pv.page_id`, cond)
	if err := db.NewRaw(query, append([]any{pageID}, args...)...).Scan(ctx, &rows); err != nil {
		return nil, translate(err)
	}
	return rows, nil
}

// FindFileVersion returns one version of a file, whatever line it is on. Errors: ErrNotFound.
func (s *Store) FindFileVersion(ctx context.Context, id string) (*FileVersion, error) {
	row := new(FileVersion)
	if err := s.rdb.NewSelect().Model(row).Where("fv.id = ?", id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return row, nil
}

// RefsOf returns the references of markdown bodies, by content id, in order: one statement.
func (s *Store) RefsOf(ctx context.Context, contentIDs []string) (map[string][]*ContentRef, error) {
	out := map[string][]*ContentRef{}
	if len(contentIDs) == 0 {
		return out, nil
	}
	var rows []*ContentRef
	if err := s.rdb.NewSelect().Model(&rows).Where("cref.content_id IN (?)", bun.List(contentIDs)).
		OrderExpr("cref.content_id, cref.ord").Scan(ctx); err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		out[r.ContentID] = append(out[r.ContentID], r)
	}
	return out, nil
}

// RefsIn returns the references of every live page of a view, by content id: one statement.
func (s *Store) RefsIn(ctx context.Context, v View) (map[string][]*ContentRef, error) {
	cond, args := v.where(pageVersions, "pv")
	var rows []*ContentRef
	err := s.rdb.NewSelect().Model(&rows).
		Where("cref.content_id IN (SELECT pv.content_id FROM page_versions pv WHERE "+cond+" AND NOT pv.deleted)", args...).
		OrderExpr("cref.content_id, cref.ord").Scan(ctx)
	if err != nil {
		return nil, translate(err)
	}
	out := map[string][]*ContentRef{}
	for _, r := range rows {
		out[r.ContentID] = append(out[r.ContentID], r)
	}
	return out, nil
}
