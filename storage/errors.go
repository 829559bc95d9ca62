package storage

import (
	"database/sql"
	"errors"
	"strings"

	"github.com/bindery/bindery/storage/paging"
	"github.com/jackc/pgx/v5/pgconn"
)

// Errors every Store method may return, translated from driver errors in one place.
var (
	// ErrNotFound: no row matched (or none the caller may see).
	ErrNotFound error = &classified{"not found", "NOT_FOUND", "Not found"}
	// ErrConflict: a unique constraint refused the write.
	ErrConflict error = &classified{"conflict", "CONFLICT", "Conflict with an existing resource"}
	// ErrInvalidCursor: a page token that this server did not issue for this list.
	ErrInvalidCursor = paging.ErrInvalidCursor
)

// classified is a sentinel error that says what class it is and what a client may be shown, so
// the graph's apperr can classify it without importing storage (and so the database drivers).
type classified struct{ msg, kind, public string }

func (e *classified) Error() string { return e.msg }

// ErrorKind is the class of the error, named as apperr's kinds are.
func (e *classified) ErrorKind() string { return e.kind }

// PublicMessage is what a client may be shown.
func (e *classified) PublicMessage() string { return e.public }

// translate maps driver errors onto the package's sentinel errors, keeping the original for logs.
func translate(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return errors.Join(ErrConflict, err)
	}
	if strings.Contains(err.Error(), "UNIQUE constraint failed") || strings.Contains(err.Error(), "constraint failed: UNIQUE") {
		return errors.Join(ErrConflict, err)
	}
	return err
}
