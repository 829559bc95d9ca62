package storage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// ErrChangeRequestClosed: the change request is merged or archived and takes no more edits.
var ErrChangeRequestClosed = errors.New("change request is closed")

// Edit is one change to a line's content. Pages and Files are complete new versions (only the
// item id and the content fields need be set) that replace the current versions of the same
// ids; removed ids disappear. Contents are the new markdown bodies the pages refer to.
type Edit struct {
	Pages        []*PageVersion
	RemovedPages []string
	Files        []*FileVersion
	RemovedFiles []string
	// ReusableContents are written by Git imports (change requests do not edit them).
	ReusableContents        []*ReusableContentVersion
	RemovedReusableContents []string
	// IncludedMarkdown is the markdown of the reusable contents the edit's pages may include, by
	// the name pages include them by, for search (WithSearchTextIncluding). Git imports, which
	// write reusable contents, set it; when nil, the index reads the space's reusable contents.
	IncludedMarkdown map[string]string
	Contents         []*PageContent
}

// Empty reports whether the edit changes nothing.
func (e *Edit) Empty() bool {
	return e == nil || len(e.Pages)+len(e.RemovedPages)+len(e.Files)+len(e.RemovedFiles)+
		len(e.ReusableContents)+len(e.RemovedReusableContents) == 0
}

// EditTarget names the line an edit goes to: the space's own, or a change request's.
type EditTarget struct {
	SpaceID         string
	ChangeRequestID string
}

// ContentTx reads the current content of the line being edited, inside the editing transaction.
type ContentTx struct {
	tx             bun.Tx
	View           View
	OrganizationID string
	// Now is the time of the edit, read once the line is locked, so that revisions follow
	// their parents in time.
	Now time.Time
}

// Page returns a live page. Errors: ErrNotFound.
func (c *ContentTx) Page(ctx context.Context, id string) (*PageVersion, error) {
	return pageOf(ctx, c.tx, c.View, id)
}

// Children returns the live pages under parent (nil: the root), by position.
func (c *ContentTx) Children(ctx context.Context, parent *string) ([]*PageVersion, error) {
	var rows []*PageVersion
	q := pagesQuery(c.tx, c.View, &rows)
	if parent == nil {
		q = q.Where("pv.parent_id IS NULL")
	} else {
		q = q.Where("pv.parent_id = ?", *parent)
	}
	if err := q.OrderExpr("pv.position ASC, pv.page_id ASC").Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return rows, nil
}

// Descendants returns the live pages under a page, at any depth: one statement.
func (c *ContentTx) Descendants(ctx context.Context, id string) ([]*PageVersion, error) {
	return pageSubtree(ctx, c.tx, c.View, id)
}

// Pages returns every live page of the line.
func (c *ContentTx) Pages(ctx context.Context) ([]*PageVersion, error) {
	return pagesOf(ctx, c.tx, c.View)
}

// File returns a live file. Errors: ErrNotFound.
func (c *ContentTx) File(ctx context.Context, id string) (*FileVersion, error) {
	row := new(FileVersion)
	if err := filesQuery(c.tx, c.View, row).Where("fv.file_id = ?", id).Limit(1).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return row, nil
}

// EditContent applies, in one transaction, the edit fn computes from the line's current content,
// as a new revision of the line. Only the changed versions are written. An empty edit writes
// nothing and returns the current revision. Errors: ErrNotFound, ErrChangeRequestClosed, and
// fn's own.
func (s *Store) EditContent(ctx context.Context, t EditTarget, author string, clock func() time.Time, fn func(ctx context.Context, c *ContentTx) (*Edit, error)) (*Revision, error) {
	var rev *Revision
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		space, err := s.lockSpace(ctx, tx, t.SpaceID)
		if err != nil {
			return err
		}
		line := newLineState(space)
		if t.ChangeRequestID != "" {
			cr, err := openChangeRequest(ctx, tx, space.ID, t.ChangeRequestID)
			if err != nil {
				return err
			}
			line = changeRequestLine(space, cr)
		}
		now := clock()
		edit, err := fn(ctx, &ContentTx{tx: tx, View: line.view, OrganizationID: space.OrganizationID, Now: now})
		if err != nil {
			return err
		}
		if edit.Empty() {
			rev, err = findRevision(ctx, tx, line.revisionID)
			return err
		}
		rev, err = s.commitEdit(ctx, tx, line, edit, &Revision{Type: "edits", CreatedBy: authorOf(author)}, now)
		return err
	})
	return rev, err
}

// lineState is where a line stands before a write: its view, head sequence and revision.
type lineState struct {
	space      *Space
	cr         *ChangeRequest // nil for the space's line
	line       string
	view       View
	seq        int64
	revisionID string
}

func newLineState(space *Space) lineState {
	return lineState{space: space, line: space.ID, view: View{SpaceID: space.ID, BaseSeq: space.RevisionSeq}, seq: space.RevisionSeq, revisionID: space.RevisionID}
}

func changeRequestLine(space *Space, cr *ChangeRequest) lineState {
	return lineState{
		space: space, cr: cr, line: cr.ID, seq: cr.HeadSeq, revisionID: cr.RevisionID,
		view: View{SpaceID: space.ID, BaseSeq: cr.BaseSeq, ChangeRequestID: cr.ID, Seq: cr.HeadSeq},
	}
}

// commitEdit writes edit as the next revision of the line and moves the line's head to it. rev
// carries the revision's type, author and, when not just the line's head, its parents.
func (s *Store) commitEdit(ctx context.Context, tx bun.Tx, l lineState, edit *Edit, rev *Revision, now time.Time) (*Revision, error) {
	seq := l.seq + 1
	if err := insertContents(ctx, tx, l.space.OrganizationID, edit.Contents, now); err != nil {
		return nil, err
	}
	w := lineWrite{tx: tx, space: l.space, line: l.line, view: l.view, seq: seq, overlay: l.cr != nil}
	if err := writeVersions(ctx, w, pageVersions, edit.Pages, edit.RemovedPages); err != nil {
		return nil, err
	}
	if err := writeVersions(ctx, w, fileVersions, edit.Files, edit.RemovedFiles); err != nil {
		return nil, err
	}
	if err := writeVersions(ctx, w, reusableContentVersions, edit.ReusableContents, edit.RemovedReusableContents); err != nil {
		return nil, err
	}
	if err := s.indexEdit(ctx, tx, l, edit); err != nil {
		return nil, err
	}
	l.stamp(rev, seq, now)
	if err := moveHead(ctx, tx, l, rev, now); err != nil {
		return nil, err
	}
	stampRevision(ctx, rev)
	return rev, nil
}

// stamp fills in the revision that becomes the line's head at seq.
func (l lineState) stamp(rev *Revision, seq int64, now time.Time) {
	rev.ID, rev.OrganizationID, rev.SpaceID, rev.Line, rev.Seq, rev.CreatedAt = NewID(), l.space.OrganizationID, l.space.ID, l.line, seq, now
	if rev.Parents == "" {
		rev.Parents = jsonList(l.revisionID)
	}
	if l.cr != nil {
		rev.ChangeRequestID = &l.cr.ID
		if rev.BaseSeq == nil {
			rev.BaseSeq = &l.cr.BaseSeq
		}
	}
}

// insertContents stores markdown bodies. Their ids are derived from the organization and the
// text, so a body already stored is shared rather than stored again.
func insertContents(ctx context.Context, tx bun.Tx, orgID string, contents []*PageContent, now time.Time) error {
	if len(contents) == 0 {
		return nil
	}
	for _, c := range contents {
		c.ID, c.OrganizationID, c.CreatedAt = ContentID(orgID, c.Markdown), orgID, now
	}
	if _, err := insertNew(tx.NewInsert().Model(&contents), "id").Exec(ctx); err != nil {
		return fmt.Errorf("insert page contents: %w", translate(err))
	}
	var refs []*ContentRef
	for _, c := range contents {
		for i, r := range c.Refs {
			r.ContentID, r.Ord, r.OrganizationID = c.ID, i, orgID
			refs = append(refs, r)
		}
	}
	if len(refs) == 0 {
		return nil
	}
	if _, err := insertNew(tx.NewInsert().Model(&refs), "content_id, ord").Exec(ctx); err != nil {
		return fmt.Errorf("insert content references: %w", translate(err))
	}
	return nil
}

// ContentID is the id a markdown body of an organization is stored under.
func ContentID(orgID, markdown string) string {
	h := sha256.New()
	h.Write([]byte(orgID))
	h.Write([]byte{0})
	h.Write([]byte(markdown))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

func authorOf(userID string) *string {
	if userID == "" {
		return nil
	}
	return &userID
}

// moveHead inserts rev and makes it the line's head revision.
func moveHead(ctx context.Context, tx bun.Tx, l lineState, rev *Revision, now time.Time) error {
	if _, err := tx.NewInsert().Model(rev).Exec(ctx); err != nil {
		return fmt.Errorf("insert revision: %w", translate(err))
	}
	if l.cr == nil {
		_, err := tx.NewUpdate().Model((*Space)(nil)).
			Set("revision_id = ?, revision_seq = ?, updated_at = ?", rev.ID, rev.Seq, now).
			Where("id = ?", l.space.ID).Exec(ctx)
		return translate(err)
	}
	_, err := tx.NewUpdate().Model((*ChangeRequest)(nil)).
		Set("revision_id = ?, head_seq = ?, base_seq = ?, updated_at = ?", rev.ID, rev.Seq, *rev.BaseSeq, now).
		Where("id = ?", l.cr.ID).Exec(ctx)
	return translate(err)
}

// versioned is what writeVersions needs of a page or file version.
type versioned[V any] interface {
	*PageVersion | *FileVersion | *ReusableContentVersion
	span() *Span
	itemID() string
	clone() V
}

func (p *PageVersion) span() *Span         { return &p.Span }
func (p *PageVersion) itemID() string      { return p.PageID }
func (p *PageVersion) clone() *PageVersion { c := *p; return &c }
func (f *FileVersion) span() *Span         { return &f.Span }
func (f *FileVersion) itemID() string      { return f.FileID }
func (f *FileVersion) clone() *FileVersion { c := *f; return &c }
func (p *PageVersion) table() versionTable { return pageVersions }
func (f *FileVersion) table() versionTable { return fileVersions }

// lineWrite is the line a write goes to and the sequence it writes at.
type lineWrite struct {
	tx      bun.Tx
	space   *Space
	line    string
	view    View // what the line showed before the write
	seq     int64
	overlay bool // a change request line: removals are tombstones, versions remember their origin
}

// writeVersions closes the current versions of the changed and removed items on the line and
// inserts their new versions at w.seq: statements per call, not per item.
func writeVersions[V versioned[V]](ctx context.Context, w lineWrite, t versionTable, changed []V, removed []string) error {
	if len(changed)+len(removed) == 0 {
		return nil
	}
	ids := make([]string, 0, len(changed)+len(removed))
	for _, v := range changed {
		ids = append(ids, v.itemID())
	}
	ids = append(ids, removed...)
	var current map[string]V
	if w.overlay {
		var err error
		if current, err = visibleVersions[V](ctx, w.tx, w.view, t, ids); err != nil {
			return err
		}
	}
	// COALESCE(to_seq, 0) = 0 means "current" (sequences start at 1) and keeps SQLite on the
	// (line, item, from_seq) index: with "to_seq IS NULL" it walks every current version of the line.
	_, err := w.tx.NewUpdate().Table(t.table).Set("to_seq = ?", w.seq).
		Where("line = ? AND COALESCE(to_seq, 0) = 0", w.line).Where(t.key+" IN (?)", bun.List(ids)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("close %s: %w", t.table, translate(err))
	}
	rows := make([]V, 0, len(ids))
	for _, v := range changed {
		sp := v.span()
		*sp = Span{ID: NewID(), OrganizationID: w.space.OrganizationID, SpaceID: w.space.ID, Line: w.line, FromSeq: w.seq}
		if w.overlay {
			sp.OriginID = originOf(current, v.itemID())
		}
		rows = append(rows, v)
	}
	if w.overlay {
		for _, id := range removed {
			cur, ok := current[id]
			if !ok {
				continue // never existed here: nothing to hide
			}
			tomb := cur.clone()
			sp := tomb.span()
			*sp = Span{ID: NewID(), OrganizationID: w.space.OrganizationID, SpaceID: w.space.ID, Line: w.line, FromSeq: w.seq, OriginID: originOf(current, id), Deleted: true}
			rows = append(rows, tomb)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	if _, err := w.tx.NewInsert().Model(&rows).Exec(ctx); err != nil {
		return fmt.Errorf("insert %s: %w", t.table, translate(err))
	}
	return nil
}

// originOf is the space version a change request's new version of id derives from: the one the
// change request showed, or that version's own origin when it was already the change request's.
func originOf[V versioned[V]](current map[string]V, id string) *string {
	cur, ok := current[id]
	if !ok {
		return nil
	}
	sp := cur.span()
	if sp.Line == sp.SpaceID {
		origin := sp.ID
		return &origin
	}
	return sp.OriginID
}

// visibleVersions returns, by item id, the versions a view shows for ids (tombstones included).
func visibleVersions[V versioned[V]](ctx context.Context, db bun.IDB, v View, t versionTable, ids []string) (map[string]V, error) {
	var rows []V
	cond, args := v.where(t, t.alias)
	if err := db.NewSelect().Model(&rows).Where(cond, args...).Where(t.alias+"."+t.key+" IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	out := make(map[string]V, len(rows))
	for _, r := range rows {
		out[r.itemID()] = r
	}
	return out, nil
}

// lockSpace reads a live space, locking its row on PostgreSQL so that writes to its content
// (edits, merges) take turns; SQLite transactions already hold the write lock from BEGIN
// IMMEDIATE. Errors: ErrNotFound.
func (s *Store) lockSpace(ctx context.Context, tx bun.Tx, id string) (*Space, error) {
	sp := new(Space)
	if err := s.forUpdate(tx.NewSelect().Model(sp).Where("s.id = ? AND s.deleted_at IS NULL", id)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return sp, nil
}

func findRevision(ctx context.Context, db bun.IDB, id string) (*Revision, error) {
	r := new(Revision)
	if err := db.NewSelect().Model(r).Where("r.id = ?", id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return r, nil
}

func jsonList(ids ...string) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

// Files returns every live file of the line being edited.
func (c *ContentTx) Files(ctx context.Context) ([]*FileVersion, error) {
	var rows []*FileVersion
	if err := filesQuery(c.tx, c.View, &rows).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return rows, nil
}
