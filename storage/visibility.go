package storage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// Visibility decided in SQL. The permission engine (domain/authz/access.go) decides a user's role
// on one space from the collections above it, the user's grants and teams and the default
// levels on the way. Listing an organization's spaces asks "which spaces can this user read?",
// and answering that by running the engine over every space grows with the organization. The
// statements below answer it in the database with the engine's rules (docs/permissions.md,
// "Deciding in SQL"), for the page being read:
//
//   - an organization admin reads every live space;
//   - a member with a role reads a space that is open to members (open_to_members: its nearest
//     default level that is not "inherit" is a role, or there is none up to the root), and a
//     space that a grant of theirs or of their teams reaches: a grant on the space itself, or on
//     a collection above it with nothing but "inherit" in between (a nearer default level
//     decides before a farther grant);
//   - a guest reads only what their grants reach, through any default level.
//
// open_to_members is the one materialized value. It depends only on default levels and on the
// collection tree, so refreshOpen keeps it in step in the transaction of every change to them
// (creating content, changing a default level, deleting a collection); grants, team
// memberships and roles change nothing materialized: they are joined when a list is read.

// openCase is a node's open_to_members from its own default level and, when it inherits, from
// parent (an SQL expression).
func openCase(alias, parent string) string {
	return fmt.Sprintf("CASE WHEN %[1]sdefault_level = 'inherit' THEN %[2]s WHEN %[1]sdefault_level IS NULL THEN FALSE ELSE TRUE END", alias, parent)
}

// refreshOpen recomputes open_to_members of the collections named (and of everything beneath
// them) and of the spaces named, in db (the caller's transaction). The collections must not
// hold one another: siblings, or a single one. Three statements at most, each bounded by the
// subtrees refreshed.
func refreshOpen(ctx context.Context, db bun.IDB, collectionIDs, spaceIDs []string) error {
	spaceOpen := openCase("", "COALESCE((SELECT c.open_to_members FROM collections c WHERE c.id = spaces.collection_id), TRUE)")
	if len(collectionIDs) > 0 {
		_, err := db.NewRaw(`WITH RECURSIVE tree (id, is_open) AS (
				SELECT c.id, `+openCase("c.", "COALESCE((SELECT p.open_to_members FROM collections p WHERE p.id = c.parent_id), TRUE)")+`
				FROM collections c WHERE c.id IN (?)
				UNION
				SELECT c.id, `+openCase("c.", "t.is_open")+`
				FROM collections c JOIN tree t ON c.parent_id = t.id
			)
			UPDATE collections SET open_to_members = (SELECT t.is_open FROM tree t WHERE t.id = collections.id)
			WHERE id IN (SELECT id FROM tree)`, bun.List(collectionIDs)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("refresh collections' visibility: %w", translate(err))
		}
		_, err = db.NewRaw(`WITH RECURSIVE tree (id) AS (
				SELECT id FROM collections WHERE id IN (?)
				UNION
				SELECT c.id FROM collections c JOIN tree t ON c.parent_id = t.id
			)
			UPDATE spaces SET open_to_members = `+spaceOpen+`
			WHERE collection_id IN (SELECT id FROM tree)`, bun.List(collectionIDs)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("refresh the visibility of spaces in collections: %w", translate(err))
		}
	}
	if len(spaceIDs) > 0 {
		_, err := db.NewRaw(`UPDATE spaces SET open_to_members = `+spaceOpen+` WHERE id IN (?)`, bun.List(spaceIDs)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("refresh spaces' visibility: %w", translate(err))
		}
	}
	return nil
}

// RebuildVisibility recomputes what storage keeps materialized for access decisions
// (open_to_members, space_counts) for a whole organization, from its default levels and collection tree. The
// writes that change them keep it in step themselves; this is for data written around them (bulk
// loads) and for tests that check the two agree.
func (s *Store) RebuildVisibility(ctx context.Context, orgID string) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		var roots []string
		if err := tx.NewSelect().Model((*Collection)(nil)).Column("c.id").Where("c.organization_id = ? AND c.parent_id IS NULL", orgID).Scan(ctx, &roots); err != nil {
			return translate(err)
		}
		if err := refreshOpen(ctx, tx, roots, nil); err != nil {
			return err
		}
		if _, err := tx.NewRaw(`UPDATE spaces SET open_to_members = `+openCase("", "TRUE")+` WHERE organization_id = ? AND collection_id IS NULL`, orgID).Exec(ctx); err != nil {
			return translate(err)
		}
		// The triggers keep the counts; recounting here repairs a count written around them.
		_, err := tx.NewRaw(`UPDATE space_counts SET
			live = (SELECT COUNT(*) FROM spaces s WHERE s.organization_id = ? AND s.deleted_at IS NULL),
			open_live = (SELECT COUNT(*) FROM spaces s WHERE s.organization_id = ? AND s.deleted_at IS NULL AND s.open_to_members = TRUE)
			WHERE organization_id = ?`, orgID, orgID, orgID).Exec(ctx)
		return translate(err)
	})
}

// SpaceReader is who reads an organization's spaces, for lists whose visibility the database
// decides. Its fields come from the caller's membership and token; the rules are the engine's.
type SpaceReader struct {
	OrganizationID string
	UserID         string
	// Admin reads every live space (organization admins).
	Admin bool
	// Member has a role in the organization: spaces open to members are theirs, and their grants
	// reach down through content that inherits. Neither Admin nor Member is a guest: they reach
	// what their grants reach, through any default level.
	Member bool
	// Only confines the reader to these spaces (nil: not confined), for tokens confined to an
	// installation's spaces.
	Only []string
}

// base is the condition every listed space meets whoever reads: the organization's, live, and
// within the reader's confinement.
func (r SpaceReader) base() (string, []any) {
	cond, args := "s.organization_id = ? AND s.deleted_at IS NULL", []any{r.OrganizationID}
	if r.Only != nil {
		cond, args = cond+" AND s.id IN (?)", append(args, bun.List(r.Only))
	}
	return cond, args
}

// granted selects the targets of the reader's grants (their own and their teams'): two lookups
// of the (organization, principal kind, principal) index; an OR of the two would read every
// grant of the organization.
func (r SpaceReader) granted() (string, []any) {
	return `SELECT g.target_id FROM content_grants g WHERE g.organization_id = ? AND g.principal_kind = 'user' AND g.principal_id = ?
		UNION ALL
		SELECT g.target_id FROM content_grants g WHERE g.organization_id = ? AND g.principal_kind = 'team' AND g.principal_id IN (
			SELECT tm.team_id FROM team_members tm WHERE tm.organization_id = ? AND tm.user_id = ?)`,
		[]any{r.OrganizationID, r.UserID, r.OrganizationID, r.OrganizationID, r.UserID}
}

// reach selects the collections whose grants count for a space in them: the granted ones, and,
// going down, those that inherit from them (for a guest, every collection beneath); and the
// condition a space in one of them must meet (members: that it inherits), with %s for the
// collection ids. (COALESCE keeps SQLite from building an index on default_level at each step
// instead of following collections_parent.)
func (r SpaceReader) reach() (reach string, args []any, spaceIn string) {
	granted, args := r.granted()
	through, spaceIn := "", "s.collection_id IN (%s)"
	if r.Member {
		through, spaceIn = " WHERE COALESCE(c.default_level, '') = 'inherit'", "(s.default_level = 'inherit' AND s.collection_id IN (%s))"
	}
	return `WITH RECURSIVE reach (id) AS (
			SELECT c.id FROM collections c WHERE c.id IN (` + granted + `)
			UNION
			SELECT c.id FROM collections c JOIN reach ON c.parent_id = reach.id` + through + `
		) SELECT id FROM reach`, args, spaceIn
}

// reached is the condition that a grant of the reader's reaches a space: a grant on the space,
// or on a collection above it, through "inherit" only for members. Its two subqueries run once
// per statement (hashed), and their size follows the reader's grants, not the organization.
func (r SpaceReader) reached() (string, []any) {
	granted, args := r.granted()
	reach, reachArgs, spaceIn := r.reach()
	return "(s.id IN (" + granted + ") OR " + fmt.Sprintf(spaceIn, reach) + ")", append(args, reachArgs...)
}

// reachedIDs selects the ids of the spaces the reader's grants reach (reached), driven by the
// grants: the granted ids, and the spaces of the reached collections through their
// spaces_collection index, whose cost follows what the grants reach, never the organization's
// other spaces. PostgreSQL is handed the collections as an array (= ANY (ARRAY(…))), which it
// looks up in the index; as a semi-join it hashed them and read every space of the organization.
func (r SpaceReader) reachedIDs(d Dialect) (string, []any) {
	granted, args := r.granted()
	reach, reachArgs, spaceIn := r.reach()
	if d == Postgres {
		spaceIn = strings.Replace(spaceIn, "IN (%s)", "= ANY (ARRAY(%s))", 1)
	}
	return granted + " UNION SELECT s.id FROM spaces s WHERE " + fmt.Sprintf(spaceIn, reach), append(args, reachArgs...)
}

// visible is the condition that the reader reads a space. A member's page walks the
// organization's spaces newest first and stops at the page's end: most spaces are open to
// members, so that is about the page's size.
func (r SpaceReader) visible() (string, []any) {
	base, args := r.base()
	if r.Admin {
		return base, args
	}
	reached, more := r.reached()
	if r.Member {
		return base + " AND (s.open_to_members OR " + reached + ")", append(args, more...)
	}
	return base + " AND " + reached, append(args, more...)
}

// countSQL counts the spaces the reader reads without reading the organization's spaces: an
// admin's count is the organization's live spaces and a member's starts from those open to
// members, both kept in space_counts by triggers; to it come the closed spaces the reader's
// grants reach (reachedIDs), each looked up by primary key (SQLite: the ids first, CROSS JOIN;
// PostgreSQL: as an array, which it hashed against the organization's closed spaces when
// joined). A reader confined to given spaces counts those.
func (r SpaceReader) countSQL(d Dialect) (string, []any) {
	base, args := r.base()
	if r.Only != nil {
		cond, all := r.visible()
		return "SELECT COUNT(*) FROM spaces s WHERE " + cond, all
	}
	const counted = "COALESCE((SELECT c.%s FROM space_counts c WHERE c.organization_id = ?), 0)"
	if r.Admin {
		return "SELECT " + fmt.Sprintf(counted, "live"), []any{r.OrganizationID}
	}
	ids, more := r.reachedIDs(d)
	reached := "(SELECT COUNT(*) FROM (" + ids + ") AS r CROSS JOIN spaces s WHERE s.id = r.target_id AND " + base
	if d == Postgres {
		reached = "(SELECT COUNT(*) FROM spaces s WHERE s.id = ANY (ARRAY(" + ids + ")) AND " + base
	}
	if r.Member {
		// "= FALSE": open spaces are counted already.
		return "SELECT " + fmt.Sprintf(counted, "open_live") + " + " + reached + " AND s.open_to_members = FALSE)",
			append(append([]any{r.OrganizationID}, more...), args...)
	}
	return "SELECT " + reached + ")", append(more, args...)
}

// ReadableSpacePage pages through the live spaces of an organization that reader reads, newest
// first, with the total: two statements whose cost follows the page and the reader's grants,
// not the organization's size. list names the list in its page tokens.
// Errors: ErrInvalidCursor.
func (s *Store) ReadableSpacePage(ctx context.Context, r SpaceReader, list string, page Window) (List[*Space], error) {
	key := sortKey{name: list, column: "s.created_at", idCol: "s.id", desc: true, isTime: true}
	if r.Only != nil && len(r.Only) == 0 {
		r.Only = []string{""} // confined to nothing: an IN list needs one value
	}
	cond, args := r.visible()
	out, err := keysetPage(ctx, s.rdb, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where(cond, args...)
	}, func(sp *Space) (time.Time, string, string) { return sp.CreatedAt, "", sp.ID })
	if err != nil {
		return out, err
	}
	count, countArgs := r.countSQL(s.dialect)
	if err := s.rdb.NewRaw(count, countArgs...).Scan(ctx, &out.Total); err != nil {
		return out, fmt.Errorf("count readable spaces: %w", translate(err))
	}
	return out, nil
}

// CollectionChains returns the given collections of an organization and every collection above
// them: what deciding access to content in them needs, in one statement whatever the size of the
// organization. The walk follows primary keys (CROSS JOIN keeps SQLite from reading the
// organization's collections through their organization index instead).
func (s *Store) CollectionChains(ctx context.Context, orgID string, ids []string) ([]*Collection, error) {
	var cs []*Collection
	if len(ids) == 0 {
		return cs, nil
	}
	err := s.rdb.NewRaw(`WITH RECURSIVE up (id) AS (
			SELECT id FROM collections WHERE id IN (?)
			UNION
			SELECT p.parent_id FROM up CROSS JOIN collections p WHERE p.id = up.id AND p.parent_id IS NOT NULL
		)
		SELECT c.id, c.organization_id, c.parent_id, c.title, c.description, c.default_level, c.created_at, c.updated_at
		FROM up CROSS JOIN collections c WHERE c.id = up.id AND c.organization_id = ?`, bun.List(ids), orgID).Scan(ctx, &cs)
	return cs, translate(err)
}

// UserGrantsOn returns the grants on the given spaces and collections that reach userID, directly
// or through their teams: one statement, two index lookups (an OR of the two would read every
// grant of the organization).
func (s *Store) UserGrantsOn(ctx context.Context, orgID, userID string, targetIDs []string) ([]*Grant, error) {
	var grants []*Grant
	if len(targetIDs) == 0 {
		return grants, nil
	}
	const columns = "g.organization_id, g.target_kind, g.target_id, g.principal_kind, g.principal_id, g.role, g.created_at"
	err := s.rdb.NewRaw(`SELECT `+columns+` FROM content_grants g
		WHERE g.organization_id = ? AND g.principal_kind = 'user' AND g.principal_id = ? AND g.target_id IN (?)
		UNION ALL
		SELECT `+columns+` FROM content_grants g
		WHERE g.organization_id = ? AND g.principal_kind = 'team' AND g.target_id IN (?) AND g.principal_id IN (
			SELECT tm.team_id FROM team_members tm WHERE tm.organization_id = ? AND tm.user_id = ?)`,
		orgID, userID, bun.List(targetIDs), orgID, bun.List(targetIDs), orgID, userID).Scan(ctx, &grants)
	return grants, translate(err)
}
