package domain

import (
	"context"
	"fmt"
	"strings"

	"github.com/bindery/bindery/storage"
)

// Merge conflicts decide whether a change request's changes still fit its space when the space
// has moved since the change request's base. They are checked inside storage's merge (and
// update-from-space) transaction, as storage.MergeCheck, so what they read is what the write
// lands on. The merge rules (merge_rules.go) decide instead who may merge, before it.

// conflict is a page or file that a change request and its space both changed, differently,
// since the change request's base; or a change that no longer fits the space's page tree.
type conflict struct {
	kind   string // page or file
	id     string
	title  string
	reason string
}

// conflictError refuses a merge or an update, with nothing written.
type conflictError struct{ conflicts []conflict }

func (e *conflictError) Error() string {
	parts := make([]string, len(e.conflicts))
	for i, c := range e.conflicts {
		parts[i] = fmt.Sprintf("%s %q (%s): %s", c.kind, c.title, c.id, c.reason)
	}
	return "conflicts with the space's content: " + strings.Join(parts, "; ")
}

// checkConflicts refuses changes to items the space changed differently since the change
// request's base, and page changes that no longer fit the space's tree (a parent the space
// removed, pages the space added under a page the change request removes, two pages at one
// path, a page moved under its own descendant). Errors: *conflictError.
func checkConflicts(ctx context.Context, m *storage.MergeTx) error {
	if m.ChangeRequest.BaseSeq == m.Space.RevisionSeq {
		return nil // the space has not moved: the change request's edits were checked as made
	}
	pageIDs := make([]string, len(m.Pages))
	for i, p := range m.Pages {
		pageIDs[i] = p.PageID
	}
	pages, err := m.SpacePages(ctx, pageIDs)
	if err != nil {
		return err
	}
	fileIDs := make([]string, len(m.Files))
	for i, f := range m.Files {
		fileIDs[i] = f.FileID
	}
	files, err := m.SpaceFiles(ctx, fileIDs)
	if err != nil {
		return err
	}
	var conflicts []conflict
	for _, p := range m.Pages {
		if cur := pages[p.PageID]; !derivesFrom(&p.Span, pageSpan(cur)) && !storage.SamePageVersion(p, cur) {
			conflicts = append(conflicts, conflict{"page", p.PageID, p.Title, "changed in the space and in the change request"})
		}
	}
	for _, f := range m.Files {
		if cur := files[f.FileID]; !derivesFrom(&f.Span, fileSpan(cur)) && !storage.SameFileVersion(f, cur) {
			conflicts = append(conflicts, conflict{"file", f.FileID, f.Name, "changed in the space and in the change request"})
		}
	}
	reusable, err := reusableContentConflicts(ctx, m)
	if err != nil {
		return err
	}
	conflicts = append(conflicts, reusable...)
	tree, err := treeConflicts(ctx, m)
	if err != nil {
		return err
	}
	if conflicts = append(conflicts, tree...); len(conflicts) > 0 {
		return &conflictError{conflicts: conflicts}
	}
	return nil
}

// pageSpan and fileSpan are a version's span, nil for no version.
func pageSpan(v *storage.PageVersion) *storage.Span {
	if v == nil {
		return nil
	}
	return &v.Span
}

func fileSpan(v *storage.FileVersion) *storage.Span {
	if v == nil {
		return nil
	}
	return &v.Span
}

// derivesFrom reports whether a change derives from the space's current version (nil: the
// space has none), that is whether the space left the item as the change request found it.
func derivesFrom(change, current *storage.Span) bool {
	if current == nil {
		return change.OriginID == nil
	}
	return change.OriginID != nil && *change.OriginID == current.ID
}

// treeConflicts finds page changes that no longer fit the space's current tree.
func treeConflicts(ctx context.Context, m *storage.MergeTx) ([]conflict, error) {
	changed := map[string]*storage.PageVersion{}
	for _, p := range m.Pages {
		changed[p.PageID] = p
	}
	var parents, removed []string
	for _, p := range m.Pages {
		if p.Deleted {
			removed = append(removed, p.PageID)
		} else if p.ParentID != nil && changed[*p.ParentID] == nil {
			parents = append(parents, *p.ParentID)
		}
	}
	var conflicts []conflict
	if len(parents) > 0 {
		live, err := m.SpacePages(ctx, parents)
		if err != nil {
			return nil, err
		}
		for _, p := range m.Pages {
			if !p.Deleted && p.ParentID != nil && changed[*p.ParentID] == nil && live[*p.ParentID] == nil {
				conflicts = append(conflicts, conflict{"page", p.PageID, p.Title, "its parent page was removed from the space"})
			}
		}
	}
	if len(removed) > 0 {
		orphans, err := m.SpaceChildren(ctx, removed)
		if err != nil {
			return nil, err
		}
		for _, p := range orphans {
			if changed[p.PageID] == nil {
				conflicts = append(conflicts, conflict{"page", p.PageID, p.Title, "added to the space under a page the change request removes"})
			}
		}
	}
	clashes, err := slugClashes(ctx, m, changed)
	if err != nil {
		return nil, err
	}
	cycles, err := cycleConflicts(ctx, m, changed)
	if err != nil {
		return nil, err
	}
	return append(append(conflicts, clashes...), cycles...), nil
}

// cycleConflicts finds pages the change request moves under one of their own descendants in the
// space's current tree (each side moved one page under the other): merged, neither would be
// reachable. Ancestors are read a level at a time: statements grow with depth, not size.
func cycleConflicts(ctx context.Context, m *storage.MergeTx, changed map[string]*storage.PageVersion) ([]conflict, error) {
	parentOf := map[string]*string{}
	for _, p := range m.Pages {
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
		found, err := m.SpacePages(ctx, ids)
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
	var conflicts []conflict
	for _, p := range m.Pages {
		if p.Deleted || changed[p.PageID] != p {
			continue
		}
		for at, steps := p.ParentID, 0; at != nil && steps < 64; at, steps = parentOf[*at], steps+1 {
			if *at == p.PageID {
				conflicts = append(conflicts, conflict{"page", p.PageID, p.Title, "moved under a page the space moved under it"})
				break
			}
		}
	}
	return conflicts, nil
}

// slugClashes finds changed pages whose slug a different page now uses at the same place in the
// space: both would have one path, and one of them could not be reached by it.
func slugClashes(ctx context.Context, m *storage.MergeTx, changed map[string]*storage.PageVersion) ([]conflict, error) {
	type place struct{ parent, slug string }
	mine := map[place]*storage.PageVersion{}
	var slugs []string
	for _, p := range m.Pages {
		if !p.Deleted && p.Type != "link" {
			mine[place{deref(p.ParentID), p.Slug}] = p
			slugs = append(slugs, p.Slug)
		}
	}
	if len(slugs) == 0 {
		return nil, nil
	}
	theirs, err := m.SpacePagesWithSlugs(ctx, slugs)
	if err != nil {
		return nil, err
	}
	var conflicts []conflict
	for _, t := range theirs {
		if changed[t.PageID] != nil {
			continue // the change request moves, renames or removes it
		}
		if p := mine[place{deref(t.ParentID), t.Slug}]; p != nil && p.PageID != t.PageID {
			conflicts = append(conflicts, conflict{"page", p.PageID, p.Title, fmt.Sprintf("the space has another page at the path of slug %q", p.Slug)})
		}
	}
	return conflicts, nil
}
