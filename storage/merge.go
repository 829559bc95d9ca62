package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// lockChangeRequest takes the space's turn for a write and reads one of its open change requests.
func (s *Store) lockChangeRequest(ctx context.Context, tx bun.Tx, spaceID, crID string) (*Space, *ChangeRequest, error) {
	space, err := s.lockSpace(ctx, tx, spaceID)
	if err != nil {
		return nil, nil, err
	}
	cr, err := openChangeRequest(ctx, tx, space.ID, crID)
	return space, cr, err
}

// overlay is what a change request changed: its line's current versions, tombstones included.
type overlay struct {
	pages    []*PageVersion
	files    []*FileVersion
	reusable []*ReusableContentVersion
	// reverted are the items changed and changed back: not changes (see readOverlay).
	revertedPages, revertedFiles, revertedReusable []string
}

// readOverlay reads what a change request changed, leaving out the versions that are back to
// the space version they started from (edited, then reverted): they change nothing, so they
// neither conflict nor overwrite what the space did since.
func readOverlay(ctx context.Context, tx bun.Tx, crID string) (overlay, error) {
	var o overlay
	if err := tx.NewSelect().Model(&o.pages).Where("pv.line = ? AND pv.to_seq IS NULL", crID).Scan(ctx); err != nil {
		return o, translate(err)
	}
	if err := tx.NewSelect().Model(&o.files).Where("fv.line = ? AND fv.to_seq IS NULL", crID).Scan(ctx); err != nil {
		return o, translate(err)
	}
	if err := tx.NewSelect().Model(&o.reusable).Where("rcv.line = ? AND rcv.to_seq IS NULL", crID).Scan(ctx); err != nil {
		return o, translate(err)
	}
	var err error
	if o.pages, o.revertedPages, err = withoutReverts(ctx, tx, o.pages, SamePageVersion); err != nil {
		return o, err
	}
	if o.files, o.revertedFiles, err = withoutReverts(ctx, tx, o.files, SameFileVersion); err != nil {
		return o, err
	}
	o.reusable, o.revertedReusable, err = withoutReverts(ctx, tx, o.reusable, SameReusableContentVersion)
	return o, err
}

// withoutReverts drops the changes equal to the version they derive from, and names them: one
// statement.
func withoutReverts[V versioned[V]](ctx context.Context, tx bun.Tx, changes []V, same func(a, b V) bool) ([]V, []string, error) {
	var ids []string
	for _, c := range changes {
		if origin := c.span().OriginID; origin != nil {
			ids = append(ids, *origin)
		}
	}
	if len(ids) == 0 {
		return changes, nil, nil
	}
	var origins []V
	if err := tx.NewSelect().Model(&origins).Where("id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, nil, translate(err)
	}
	byID := make(map[string]V, len(origins))
	for _, v := range origins {
		byID[v.span().ID] = v
	}
	var kept []V
	var reverted []string
	for _, c := range changes {
		if origin := c.span().OriginID; origin == nil || !same(c, byID[*origin]) {
			kept = append(kept, c)
		} else {
			reverted = append(reverted, c.itemID())
		}
	}
	return kept, reverted, nil
}

// MergeTx is what a merge's check reads, inside the merge's transaction: the change request's
// changes and the space's current content they would land on.
type MergeTx struct {
	tx            bun.Tx
	head          View
	Space         *Space
	ChangeRequest *ChangeRequest
	// Pages and Files are what the change request changed: its current versions, removals as
	// tombstones (Deleted), changes it undid left out.
	Pages            []*PageVersion
	Files            []*FileVersion
	ReusableContents []*ReusableContentVersion
}

// MergeCheck decides, inside a merge's (or an update's) transaction, whether the change request's
// changes still fit its space; its error aborts the write with nothing written. The graph owns
// the rules (which changes conflict); storage owns the reads and the write.
type MergeCheck func(ctx context.Context, m *MergeTx) error

// SpacePages returns, by page id, the space's current versions of pages: one statement.
func (m *MergeTx) SpacePages(ctx context.Context, ids []string) (map[string]*PageVersion, error) {
	if len(ids) == 0 {
		return map[string]*PageVersion{}, nil
	}
	return visibleVersions[*PageVersion](ctx, m.tx, m.head, pageVersions, ids)
}

// SpaceFiles returns, by file id, the space's current versions of files: one statement.
func (m *MergeTx) SpaceFiles(ctx context.Context, ids []string) (map[string]*FileVersion, error) {
	if len(ids) == 0 {
		return map[string]*FileVersion{}, nil
	}
	return visibleVersions[*FileVersion](ctx, m.tx, m.head, fileVersions, ids)
}

// SpaceReusableContents returns, by id, the space's current versions of reusable contents: one
// statement.
func (m *MergeTx) SpaceReusableContents(ctx context.Context, ids []string) (map[string]*ReusableContentVersion, error) {
	if len(ids) == 0 {
		return map[string]*ReusableContentVersion{}, nil
	}
	return visibleVersions[*ReusableContentVersion](ctx, m.tx, m.head, reusableContentVersions, ids)
}

// SpaceChildren returns the space's live pages under any of parents: one statement.
func (m *MergeTx) SpaceChildren(ctx context.Context, parents []string) ([]*PageVersion, error) {
	var rows []*PageVersion
	if err := pagesQuery(m.tx, m.head, &rows).Where("pv.parent_id IN (?)", bun.List(parents)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return rows, nil
}

// SpacePagesWithSlugs returns the space's live pages, links excepted, whose slug is one of
// slugs: one statement.
func (m *MergeTx) SpacePagesWithSlugs(ctx context.Context, slugs []string) ([]*PageVersion, error) {
	var rows []*PageVersion
	if err := pagesQuery(m.tx, m.head, &rows).Where("pv.slug IN (?)", bun.List(slugs)).Where("pv.type <> 'link'").Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return rows, nil
}

// check runs a merge's check over what the change request changed.
func (o overlay) check(ctx context.Context, tx bun.Tx, space *Space, cr *ChangeRequest, check MergeCheck) error {
	if check == nil {
		return nil
	}
	return check(ctx, &MergeTx{
		tx: tx, head: View{SpaceID: space.ID, BaseSeq: space.RevisionSeq},
		Space: space, ChangeRequest: cr, Pages: o.pages, Files: o.files, ReusableContents: o.reusable,
	})
}

// MergeChangeRequest writes a change request's changes into its space as a new space revision,
// page by page: only the pages and files it changed are written, so merging costs what changed.
// check decides first whether the changes still fit the space; when it fails nothing is written.
// Merges of one space take turns. Errors: ErrNotFound, ErrChangeRequestClosed, check's own.
func (s *Store) MergeChangeRequest(ctx context.Context, spaceID, crID, author string, clock func() time.Time, check MergeCheck) (*Revision, *ChangeRequest, error) {
	var rev *Revision
	cr, err := s.inChangeRequestTurn(ctx, spaceID, crID, clock, func(ctx context.Context, tx bun.Tx, space *Space, cr *ChangeRequest, now time.Time) error {
		o, err := checkedOverlay(ctx, tx, space, cr, check)
		if err != nil {
			return err
		}
		edit := &Edit{}
		for _, p := range o.pages {
			if p.Deleted {
				edit.RemovedPages = append(edit.RemovedPages, p.PageID)
			} else {
				edit.Pages = append(edit.Pages, p.clone())
			}
		}
		for _, f := range o.files {
			if f.Deleted {
				edit.RemovedFiles = append(edit.RemovedFiles, f.FileID)
			} else {
				edit.Files = append(edit.Files, f.clone())
			}
		}
		for _, v := range o.reusable {
			if v.Deleted {
				edit.RemovedReusableContents = append(edit.RemovedReusableContents, v.ReusableContentID)
			} else {
				edit.ReusableContents = append(edit.ReusableContents, v.clone())
			}
		}
		if edit.Empty() {
			rev, err = findRevision(ctx, tx, space.RevisionID)
		} else {
			rev, err = s.commitEdit(ctx, tx, newLineState(space), edit, &Revision{
				Type: "merge", CreatedBy: authorOf(author), MergedFrom: &cr.ID,
				Parents: jsonList(space.RevisionID, cr.RevisionID),
			}, now)
		}
		if err != nil {
			return err
		}
		ancestor, err := lineRevisionID(ctx, tx, space.ID, cr.BaseSeq)
		if err != nil {
			return err
		}
		cr.Status, cr.RevisionMerged, cr.RevisionMergedAncestor, cr.UpdatedAt = "merged", &rev.ID, &ancestor, now
		_, err = tx.NewUpdate().Model(cr).Column("status", "revision_merged", "revision_merged_ancestor", "updated_at").WherePK().Exec(ctx)
		return translate(err)
	})
	if err != nil {
		return nil, nil, err
	}
	return rev, cr, nil
}

// UpdateChangeRequestFromSpace layers a change request over its space's current content (a
// rebase): nothing is copied, its base moves to the space's head. Its changes that the space has
// since made too are dropped from it. check decides first whether its changes still fit the
// space; when it fails nothing is written. Errors: ErrNotFound, ErrChangeRequestClosed, check's
// own.
func (s *Store) UpdateChangeRequestFromSpace(ctx context.Context, spaceID, crID, author string, clock func() time.Time, check MergeCheck) (*ChangeRequest, error) {
	return s.inChangeRequestTurn(ctx, spaceID, crID, clock, func(ctx context.Context, tx bun.Tx, space *Space, cr *ChangeRequest, now time.Time) error {
		if cr.BaseSeq == space.RevisionSeq {
			return nil
		}
		o, err := checkedOverlay(ctx, tx, space, cr, check)
		if err != nil {
			return err
		}
		l := changeRequestLine(space, cr)
		seq := l.seq + 1
		if err := dropApplied(ctx, tx, space, cr.ID, seq, o); err != nil {
			return err
		}
		rev := &Revision{Type: "update", CreatedBy: authorOf(author), BaseSeq: &space.RevisionSeq, Parents: jsonList(cr.RevisionID, space.RevisionID)}
		l.stamp(rev, seq, now)
		if err := moveHead(ctx, tx, l, rev, now); err != nil {
			return err
		}
		cr.RevisionID, cr.HeadSeq, cr.BaseSeq, cr.UpdatedAt = rev.ID, seq, space.RevisionSeq, now
		return nil
	})
}

// inChangeRequestTurn runs fn in a transaction holding the space's turn for a write to one of
// its open change requests, with the space and the change request as locked and the time the
// write is stamped with, read after the lock: a revision is never older than its parent.
// It answers the change request as fn left it.
func (s *Store) inChangeRequestTurn(ctx context.Context, spaceID, crID string, clock func() time.Time,
	fn func(ctx context.Context, tx bun.Tx, space *Space, cr *ChangeRequest, now time.Time) error) (*ChangeRequest, error) {
	var cr *ChangeRequest
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		space, open, err := s.lockChangeRequest(ctx, tx, spaceID, crID)
		if err != nil {
			return err
		}
		cr = open
		return fn(ctx, tx, space, cr, clock())
	})
	if err != nil {
		return nil, err
	}
	return cr, nil
}

// checkedOverlay reads a change request's changes and lets check decide whether they still fit
// the space.
func checkedOverlay(ctx context.Context, tx bun.Tx, space *Space, cr *ChangeRequest, check MergeCheck) (overlay, error) {
	o, err := readOverlay(ctx, tx, cr.ID)
	if err != nil {
		return o, err
	}
	return o, o.check(ctx, tx, space, cr, check)
}

// dropApplied ends, at seq, the change request's versions that equal the space's current ones.
func dropApplied(ctx context.Context, tx bun.Tx, space *Space, crID string, seq int64, o overlay) error {
	head := View{SpaceID: space.ID, BaseSeq: space.RevisionSeq}
	pages, err := spaceCounterparts(ctx, tx, head, pageVersions, o.pages)
	if err != nil {
		return err
	}
	files, err := spaceCounterparts(ctx, tx, head, fileVersions, o.files)
	if err != nil {
		return err
	}
	reusable, err := spaceCounterparts(ctx, tx, head, reusableContentVersions, o.reusable)
	if err != nil {
		return err
	}
	// Changes the space made too, and changes undone, leave the change request: it then shows the
	// space's versions.
	for t, ids := range map[versionTable][]string{
		pageVersions:            append(applied(o.pages, pages, SamePageVersion), o.revertedPages...),
		fileVersions:            append(applied(o.files, files, SameFileVersion), o.revertedFiles...),
		reusableContentVersions: append(applied(o.reusable, reusable, SameReusableContentVersion), o.revertedReusable...),
	} {
		if len(ids) == 0 {
			continue
		}
		if _, err := tx.NewUpdate().Table(t.table).Set("to_seq = ?", seq).
			Where("line = ? AND COALESCE(to_seq, 0) = 0", crID).Where(t.key+" IN (?)", bun.List(ids)).Exec(ctx); err != nil {
			return translate(err)
		}
	}
	return nil
}

func applied[V versioned[V]](changes []V, space map[string]V, same func(a, b V) bool) []string {
	var ids []string
	for _, c := range changes {
		if same(c, space[c.itemID()]) {
			ids = append(ids, c.itemID())
		}
	}
	return ids
}

// spaceCounterparts returns, by item id, the space's current versions of the changed items.
func spaceCounterparts[V versioned[V]](ctx context.Context, tx bun.Tx, head View, t versionTable, changes []V) (map[string]V, error) {
	if len(changes) == 0 {
		return map[string]V{}, nil
	}
	ids := make([]string, len(changes))
	for i, c := range changes {
		ids[i] = c.itemID()
	}
	return visibleVersions[V](ctx, tx, head, t, ids)
}

// SamePageVersion reports whether two versions show the same page (absent and removed are the
// same): what a change undone or made on both sides is to storage.
func SamePageVersion(a, b *PageVersion) bool {
	if a == nil || a.Deleted || b == nil || b.Deleted {
		return (a == nil || a.Deleted) && (b == nil || b.Deleted)
	}
	return eqPtr(a.ParentID, b.ParentID) && a.Position == b.Position && a.Type == b.Type &&
		a.Title == b.Title && a.Slug == b.Slug && eqPtr(a.Emoji, b.Emoji) && eqPtr(a.Icon, b.Icon) &&
		eqPtr(a.Description, b.Description) && a.Hidden == b.Hidden && a.NoIndex == b.NoIndex &&
		a.NoRobotsIndex == b.NoRobotsIndex && eqPtr(a.Layout, b.Layout) && eqPtr(a.Cover, b.Cover) &&
		eqPtr(a.Variables, b.Variables) && eqPtr(a.LinkTarget, b.LinkTarget) && eqPtr(a.ContentID, b.ContentID) &&
		eqPtr(a.Computed, b.Computed)
}

// SameFileVersion reports whether two versions hold the same file (absent and removed are the
// same).
func SameFileVersion(a, b *FileVersion) bool {
	if a == nil || a.Deleted || b == nil || b.Deleted {
		return (a == nil || a.Deleted) && (b == nil || b.Deleted)
	}
	return a.Name == b.Name && a.BlobKey == b.BlobKey && a.ContentType == b.ContentType
}

// SameReusableContentVersion reports whether two versions hold the same reusable content
// (absent and removed are the same).
func SameReusableContentVersion(a, b *ReusableContentVersion) bool {
	if a == nil || a.Deleted || b == nil || b.Deleted {
		return (a == nil || a.Deleted) && (b == nil || b.Deleted)
	}
	return a.Title == b.Title && eqPtr(a.ContentID, b.ContentID) && eqPtr(a.Git, b.Git)
}

func eqPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// lineRevisionID is the id of the revision at seq on the space's line.
func lineRevisionID(ctx context.Context, db bun.IDB, spaceID string, seq int64) (string, error) {
	var id string
	err := db.NewSelect().Model((*Revision)(nil)).Column("r.id").Where("r.line = ? AND r.seq = ?", spaceID, seq).Scan(ctx, &id)
	return id, translate(err)
}
