package storage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// Conflict is a page or file that a change request and its space both changed, differently,
// since the change request's base; or a change that no longer fits the space's page tree.
type Conflict struct {
	Kind   string // page or file
	ID     string
	Title  string
	Reason string
}

// ConflictError is returned, with nothing written, when a change request cannot be merged into
// (or updated from) its space's current content.
type ConflictError struct{ Conflicts []Conflict }

func (e *ConflictError) Error() string {
	parts := make([]string, len(e.Conflicts))
	for i, c := range e.Conflicts {
		parts[i] = fmt.Sprintf("%s %q (%s): %s", c.Kind, c.Title, c.ID, c.Reason)
	}
	return "conflicts with the space's content: " + strings.Join(parts, "; ")
}

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
	pages []*PageVersion
	files []*FileVersion
	// reverted are the items changed and changed back: not changes (see readOverlay).
	revertedPages, revertedFiles []string
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
	var err error
	if o.pages, o.revertedPages, err = withoutReverts(ctx, tx, o.pages, samePage); err != nil {
		return o, err
	}
	o.files, o.revertedFiles, err = withoutReverts(ctx, tx, o.files, sameFile)
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

// MergeChangeRequest writes a change request's changes into its space as a new space revision,
// page by page: only the pages and files it changed are written, so merging costs what changed.
// Items the space also changed since the change request's base conflict unless both sides made
// the same change; then nothing is written and the error is a *ConflictError. Merges of one space
// take turns. Errors: ErrNotFound, ErrChangeRequestClosed, *ConflictError.
func (s *Store) MergeChangeRequest(ctx context.Context, spaceID, crID, author string, clock func() time.Time) (*Revision, *ChangeRequest, error) {
	var (
		rev *Revision
		cr  *ChangeRequest
	)
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		space, open, err := s.lockChangeRequest(ctx, tx, spaceID, crID)
		if err != nil {
			return err
		}
		cr = open
		now := clock() // after the lock: a revision is never older than its parent
		o, err := readOverlay(ctx, tx, cr.ID)
		if err != nil {
			return err
		}
		if err := checkConflicts(ctx, tx, space, cr, o); err != nil {
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
// since made too are dropped from it. Errors: ErrNotFound, ErrChangeRequestClosed,
// *ConflictError (nothing written).
func (s *Store) UpdateChangeRequestFromSpace(ctx context.Context, spaceID, crID, author string, clock func() time.Time) (*ChangeRequest, error) {
	var cr *ChangeRequest
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		space, open, err := s.lockChangeRequest(ctx, tx, spaceID, crID)
		if err != nil {
			return err
		}
		cr = open
		now := clock() // after the lock: a revision is never older than its parent
		if cr.BaseSeq == space.RevisionSeq {
			return nil
		}
		o, err := readOverlay(ctx, tx, cr.ID)
		if err != nil {
			return err
		}
		if err := checkConflicts(ctx, tx, space, cr, o); err != nil {
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
	if err != nil {
		return nil, err
	}
	return cr, nil
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
	// Changes the space made too, and changes undone, leave the change request: it then shows the
	// space's versions.
	for t, ids := range map[versionTable][]string{
		pageVersions: append(applied(o.pages, pages, samePage), o.revertedPages...),
		fileVersions: append(applied(o.files, files, sameFile), o.revertedFiles...),
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

// checkConflicts refuses changes to items the space changed differently since the change
// request's base, and page changes that no longer fit the space's tree (a parent the space
// removed, or pages the space added under a page the change request removes).
func checkConflicts(ctx context.Context, tx bun.Tx, space *Space, cr *ChangeRequest, o overlay) error {
	if cr.BaseSeq == space.RevisionSeq {
		return nil // the space has not moved: the change request's edits were checked as made
	}
	head := View{SpaceID: space.ID, BaseSeq: space.RevisionSeq}
	pages, err := spaceCounterparts(ctx, tx, head, pageVersions, o.pages)
	if err != nil {
		return err
	}
	files, err := spaceCounterparts(ctx, tx, head, fileVersions, o.files)
	if err != nil {
		return err
	}
	var conflicts []Conflict
	for _, p := range o.pages {
		if !unchangedInSpace(p, pages[p.PageID]) && !samePage(p, pages[p.PageID]) {
			conflicts = append(conflicts, Conflict{Kind: "page", ID: p.PageID, Title: p.Title, Reason: "changed in the space and in the change request"})
		}
	}
	for _, f := range o.files {
		if !unchangedInSpace(f, files[f.FileID]) && !sameFile(f, files[f.FileID]) {
			conflicts = append(conflicts, Conflict{Kind: "file", ID: f.FileID, Title: f.Name, Reason: "changed in the space and in the change request"})
		}
	}
	tree, err := treeConflicts(ctx, tx, head, o.pages)
	if err != nil {
		return err
	}
	if conflicts = append(conflicts, tree...); len(conflicts) > 0 {
		return &ConflictError{Conflicts: conflicts}
	}
	return nil
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

// unchangedInSpace reports whether the space still holds the version a change derived from.
func unchangedInSpace[V versioned[V]](change V, current V) bool {
	origin := change.span().OriginID
	if current == nil {
		return origin == nil
	}
	return origin != nil && *origin == current.span().ID
}

// treeConflicts finds page changes that no longer fit the space's current tree.
func treeConflicts(ctx context.Context, tx bun.Tx, head View, changes []*PageVersion) ([]Conflict, error) {
	changed := map[string]*PageVersion{}
	for _, p := range changes {
		changed[p.PageID] = p
	}
	var parents, removed []string
	for _, p := range changes {
		if p.Deleted {
			removed = append(removed, p.PageID)
		} else if p.ParentID != nil && changed[*p.ParentID] == nil {
			parents = append(parents, *p.ParentID)
		}
	}
	var conflicts []Conflict
	if len(parents) > 0 {
		live, err := visibleVersions[*PageVersion](ctx, tx, head, pageVersions, parents)
		if err != nil {
			return nil, err
		}
		for _, p := range changes {
			if !p.Deleted && p.ParentID != nil && changed[*p.ParentID] == nil && live[*p.ParentID] == nil {
				conflicts = append(conflicts, Conflict{Kind: "page", ID: p.PageID, Title: p.Title, Reason: "its parent page was removed from the space"})
			}
		}
	}
	if len(removed) > 0 {
		var orphans []*PageVersion
		if err := pagesQuery(tx, head, &orphans).Where("pv.parent_id IN (?)", bun.List(removed)).Scan(ctx); err != nil {
			return nil, translate(err)
		}
		for _, p := range orphans {
			if changed[p.PageID] == nil {
				conflicts = append(conflicts, Conflict{Kind: "page", ID: p.PageID, Title: p.Title, Reason: "added to the space under a page the change request removes"})
			}
		}
	}
	clashes, err := slugClashes(ctx, tx, head, changes, changed)
	if err != nil {
		return nil, err
	}
	cycles, err := cycleConflicts(ctx, tx, head, changes, changed)
	if err != nil {
		return nil, err
	}
	return append(append(conflicts, clashes...), cycles...), nil
}

// cycleConflicts finds pages the change request moves under one of their own descendants in the
// space's current tree (each side moved one page under the other): merged, neither would be
// reachable. Ancestors are read a level at a time: statements grow with depth, not size.
func cycleConflicts(ctx context.Context, tx bun.Tx, head View, changes []*PageVersion, changed map[string]*PageVersion) ([]Conflict, error) {
	parentOf := map[string]*string{}
	for _, p := range changes {
		if !p.Deleted {
			parentOf[p.PageID] = p.ParentID
		}
	}
	unknown := func(ids map[string]bool, parent *string) {
		if parent != nil {
			if _, known := parentOf[*parent]; !known {
				ids[*parent] = true
			}
		}
	}
	frontier := map[string]bool{}
	for _, p := range parentOf {
		unknown(frontier, p)
	}
	for depth := 0; len(frontier) > 0 && depth < 64; depth++ {
		ids := make([]string, 0, len(frontier))
		for id := range frontier {
			ids = append(ids, id)
		}
		found, err := visibleVersions[*PageVersion](ctx, tx, head, pageVersions, ids)
		if err != nil {
			return nil, err
		}
		next := map[string]bool{}
		for _, id := range ids {
			if v := found[id]; v != nil && !v.Deleted {
				parentOf[id] = v.ParentID
			} else {
				parentOf[id] = nil
			}
			unknown(next, parentOf[id])
		}
		frontier = next
	}
	var conflicts []Conflict
	for _, p := range changes {
		if p.Deleted || changed[p.PageID] != p {
			continue
		}
		for at, steps := p.ParentID, 0; at != nil && steps < 64; at, steps = parentOf[*at], steps+1 {
			if *at == p.PageID {
				conflicts = append(conflicts, Conflict{Kind: "page", ID: p.PageID, Title: p.Title, Reason: "moved under a page the space moved under it"})
				break
			}
		}
	}
	return conflicts, nil
}

// slugClashes finds changed pages whose slug a different page now uses at the same place in the
// space: both would have one path, and one of them could not be reached by it.
func slugClashes(ctx context.Context, tx bun.Tx, head View, changes []*PageVersion, changed map[string]*PageVersion) ([]Conflict, error) {
	type place struct{ parent, slug string }
	mine := map[place]*PageVersion{}
	var slugs []string
	for _, p := range changes {
		if !p.Deleted && p.Type != "link" {
			mine[place{deref(p.ParentID), p.Slug}] = p
			slugs = append(slugs, p.Slug)
		}
	}
	if len(slugs) == 0 {
		return nil, nil
	}
	var theirs []*PageVersion
	if err := pagesQuery(tx, head, &theirs).Where("pv.slug IN (?)", bun.List(slugs)).Where("pv.type <> 'link'").Scan(ctx); err != nil {
		return nil, translate(err)
	}
	var conflicts []Conflict
	for _, t := range theirs {
		if changed[t.PageID] != nil {
			continue // the change request moves, renames or removes it
		}
		if p := mine[place{deref(t.ParentID), t.Slug}]; p != nil && p.PageID != t.PageID {
			conflicts = append(conflicts, Conflict{Kind: "page", ID: p.PageID, Title: p.Title, Reason: fmt.Sprintf("the space has another page at the path of slug %q", p.Slug)})
		}
	}
	return conflicts, nil
}

// samePage reports whether two versions show the same page (absent and removed are the same).
func samePage(a, b *PageVersion) bool {
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

// sameFile reports whether two versions hold the same file.
func sameFile(a, b *FileVersion) bool {
	if a == nil || a.Deleted || b == nil || b.Deleted {
		return (a == nil || a.Deleted) && (b == nil || b.Deleted)
	}
	return a.Name == b.Name && a.BlobKey == b.BlobKey && a.ContentType == b.ContentType
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
