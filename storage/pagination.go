package storage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bindery/bindery/storage/paging"
	"github.com/uptrace/bun"
)

// Window and List are paging's: storage's lists page as every list does.
type (
	Window      = paging.Window
	List[T any] = paging.List[T]
)

// sortKey describes a keyset order: a column, a tie-breaking unique column and the direction.
// Cursors carry the list's name so that a token from another list or order is refused.
type sortKey struct {
	name   string
	column string
	idCol  string
	desc   bool
	isTime bool
}

// encodeCursor and decodeCursor are paging's page tokens.
var (
	encodeCursor = paging.EncodeCursor
	decodeCursor = paging.DecodeCursor
)

// formatKeyTime is the cursor form of a time key: exact to the microsecond the databases keep.
func formatKeyTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// paginate runs one page of a keyset list: filter is applied to both the page query and the
// count query, so the total ignores the cursor. Two statements per page, whatever its size (one
// with page.NoTotal).
// keyOf returns a row's sort value (a time for time keys, else a string) and its id.
func paginate[T any](ctx context.Context, db bun.IDB, key sortKey, page Window, filter func(*bun.SelectQuery) *bun.SelectQuery, keyOf func(*T) (time.Time, string, string)) (List[*T], error) {
	out, err := keysetPage(ctx, db, key, page, filter, keyOf)
	if err != nil {
		return out, err
	}
	if page.NoTotal {
		return out, nil
	}
	total, err := filter(db.NewSelect().Model((*T)(nil))).Count(ctx)
	if err != nil {
		return out, translate(err)
	}
	out.Total = int(total)
	return out, nil
}

// keysetPage reads one page of a keyset list without its total: one statement.
func keysetPage[T any](ctx context.Context, db bun.IDB, key sortKey, page Window, filter func(*bun.SelectQuery) *bun.SelectQuery, keyOf func(*T) (time.Time, string, string)) (List[*T], error) {
	var out List[*T]
	var rows []*T
	q := filter(db.NewSelect().Model(&rows))
	if page.After != "" {
		value, id, err := decodeCursor(key.name, page.After)
		if err != nil {
			return out, err
		}
		var v any = value
		if key.isTime {
			t, err := time.Parse(time.RFC3339Nano, value)
			if err != nil {
				return out, ErrInvalidCursor
			}
			v = t
		}
		op := ">"
		if key.desc {
			op = "<"
		}
		q = q.Where(fmt.Sprintf("(%s, %s) %s (?, ?)", key.column, key.idCol, op), v, id)
	}
	dir := " ASC"
	if key.desc {
		dir = " DESC"
	}
	if err := q.OrderExpr(key.column + dir).OrderExpr(key.idCol + dir).Limit(int64(page.Limit + 1)).Scan(ctx); err != nil {
		return out, translate(err)
	}
	if len(rows) > page.Limit {
		rows, out.HasMore = rows[:page.Limit], true
	}
	out.Items = rows
	out.Cursors = make([]string, len(rows))
	for i, r := range rows {
		t, s, id := keyOf(r)
		value := s
		if key.isTime {
			value = formatKeyTime(t)
		}
		out.Cursors[i] = encodeCursor(key.name, value, id)
	}
	return out, nil
}

// MaxBatch bounds how many keys one batched lookup sends in a single IN list.
const MaxBatch = 1000

// fold is how text is compared case-insensitively, the same on every database.
func fold(s string) string { return strings.ToLower(s) }

// containsPattern is a LIKE pattern (escaped with a backslash) matching values that contain folded s.
func containsPattern(s string) string { return "%" + likeEscaper.Replace(fold(s)) + "%" }

func userSearchKey(displayName, email string) string { return fold(displayName + "\n" + email) }

// paginateEach is paginate for several parents at once (the replies of each of a page of
// comments, the teams of each of a page of members): the same page of each parent's rows, in two
// statements whatever the number of parents, the second only when the totals are wanted. part is
// the SQL expression of a row's parent, which filter's rows are partitioned by; parentOf reads it
// back from a row. filter must select the columns (it is wrapped in a window query).
//
// A page after a cursor is a per-parent page (a cursor names a row of one parent) and is read
// with paginate.
func paginateEach[T any](ctx context.Context, db bun.IDB, key sortKey, page Window, part string, parents []string,
	filter func(*bun.SelectQuery) *bun.SelectQuery, keyOf func(*T) (time.Time, string, string), parentOf func(*T) string,
) (map[string]List[*T], error) {
	out := make(map[string]List[*T], len(parents))
	if page.After != "" || len(parents) == 1 {
		for _, p := range parents {
			list, err := paginate(ctx, db, key, page, func(q *bun.SelectQuery) *bun.SelectQuery { return filter(q).Where(part+" = ?", p) }, keyOf)
			if err != nil {
				return nil, err
			}
			out[p] = list
		}
		return out, nil
	}
	if len(parents) == 0 {
		return out, nil
	}
	dir := " ASC"
	if key.desc {
		dir = " DESC"
	}
	inner := filter(db.NewSelect().Model((*T)(nil))).Where(part+" IN (?)", bun.List(parents)).
		ColumnExpr(fmt.Sprintf("ROW_NUMBER() OVER (PARTITION BY %s ORDER BY %s%s, %s%s) AS _rn", part, key.column, dir, key.idCol, dir))
	// Columns whose names start with "_" are not scanned: _rn orders and cuts, and stays out.
	var rows []*T
	if err := db.NewSelect().TableExpr("(?) AS sub", inner).ColumnExpr("sub.*").Where("sub._rn <= ?", page.Limit+1).
		OrderExpr("sub._rn").Scan(ctx, &rows); err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		p := parentOf(r)
		list := out[p]
		if len(list.Items) == page.Limit {
			list.HasMore = true
		} else {
			t, s, id := keyOf(r)
			value := s
			if key.isTime {
				value = formatKeyTime(t)
			}
			list.Items, list.Cursors = append(list.Items, r), append(list.Cursors, encodeCursor(key.name, value, id))
		}
		out[p] = list
	}
	if page.NoTotal {
		return out, nil
	}
	var totals []parentTotal
	counted := filter(db.NewSelect().Model((*T)(nil))).Where(part+" IN (?)", bun.List(parents)).ColumnExpr(part + " AS _parent")
	if err := db.NewSelect().TableExpr("(?) AS sub", counted).ColumnExpr("sub._parent AS parent, COUNT(*) AS n").
		GroupExpr("sub._parent").Scan(ctx, &totals); err != nil {
		return nil, translate(err)
	}
	for _, t := range totals {
		list := out[t.Parent]
		list.Total = t.N
		out[t.Parent] = list
	}
	return out, nil
}

// parentTotal is one parent's number of rows.
type parentTotal struct {
	Parent string
	N      int
}
