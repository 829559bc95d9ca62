package storage

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// Page asks for one page of a keyset-paginated list. After is an opaque cursor from a previous
// page (empty for the first page); Limit is at least 1.
type Page struct {
	Limit int
	After string
}

// List is one page of a list: the items, each item's cursor (the REST page token and the GraphQL
// edge cursor are the same value), the total number of matches, and whether more follow.
type List[T any] struct {
	Items   []T
	Cursors []string
	Total   int
	HasMore bool
}

// sortKey describes a keyset order: a column, a tie-breaking unique column and the direction.
// Cursors carry the list's name so that a token from another list or order is refused.
type sortKey struct {
	name   string
	column string
	idCol  string
	desc   bool
	isTime bool
}

// encodeCursor produces the opaque page token for one row.
func encodeCursor(list, value, id string) string {
	b, _ := json.Marshal([]string{list, value, id})
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a page token issued by encodeCursor for the named list.
func decodeCursor(list, cursor string) (value, id string, err error) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return "", "", ErrInvalidCursor
	}
	var parts []string
	if json.Unmarshal(b, &parts) != nil || len(parts) != 3 || parts[0] != list {
		return "", "", ErrInvalidCursor
	}
	return parts[1], parts[2], nil
}

// formatKeyTime is the cursor form of a time key: exact to the microsecond the databases keep.
func formatKeyTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// paginate runs one page of a keyset list: filter is applied to both the page query and the
// count query, so the total ignores the cursor. Two statements per page, whatever its size.
// keyOf returns a row's sort value (a time for time keys, else a string) and its id.
func paginate[T any](ctx context.Context, db bun.IDB, key sortKey, page Page, filter func(*bun.SelectQuery) *bun.SelectQuery, keyOf func(*T) (time.Time, string, string)) (List[*T], error) {
	out, err := keysetPage(ctx, db, key, page, filter, keyOf)
	if err != nil {
		return out, err
	}
	total, err := filter(db.NewSelect().Model((*T)(nil))).Count(ctx)
	if err != nil {
		return out, translate(err)
	}
	out.Total = int(total)
	return out, nil
}

// keysetPage reads one page of a keyset list without its total: one statement.
func keysetPage[T any](ctx context.Context, db bun.IDB, key sortKey, page Page, filter func(*bun.SelectQuery) *bun.SelectQuery, keyOf func(*T) (time.Time, string, string)) (List[*T], error) {
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
