// Package paging is how every list of Bindery is read a page at a time: the window a caller asks
// for, the page it gets back, and the opaque tokens that name where the next page starts. It is
// a leaf, so that storage and the packages beside it (search) page the same way.
package paging

import (
	"encoding/base64"
	"encoding/json"
)

// Window asks for one page of a list. After is an opaque cursor from a previous page (empty for
// the first page); Limit is at least 1. NoTotal leaves List.Total at 0 and saves the statement
// that counts the matches, for a reader that does not show it.
type Window struct {
	Limit   int
	After   string
	NoTotal bool
}

// List is one page of a list: the items, each item's cursor (the REST page token and the GraphQL
// edge cursor are the same value), the total number of matches, and whether more follow.
type List[T any] struct {
	Items   []T
	Cursors []string
	Total   int
	HasMore bool
}

// ErrInvalidCursor is a page token that this server did not issue for this list.
var ErrInvalidCursor error = invalidCursor{}

// invalidCursor says what class of error it is and what a client may be shown, as storage's
// sentinel errors do, so that the graph's apperr classifies it without importing this package.
type invalidCursor struct{}

func (invalidCursor) Error() string         { return "invalid page cursor" }
func (invalidCursor) ErrorKind() string     { return "INVALID" }
func (invalidCursor) PublicMessage() string { return "page: not a valid page cursor" }

// EncodeCursor produces the opaque page token for one row of the named list. Tokens carry the
// list's name so that a token from another list or order is refused.
func EncodeCursor(list, value, id string) string {
	b, _ := json.Marshal([]string{list, value, id})
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor reads a page token issued by EncodeCursor for the named list.
// Errors: ErrInvalidCursor.
func DecodeCursor(list, cursor string) (value, id string, err error) {
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
