package storage

import (
	"database/sql"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Errors every Store method may return, translated from driver errors in one place.
var (
	// ErrNotFound: no row matched (or none the caller may see).
	ErrNotFound = errors.New("not found")
	// ErrConflict: a unique constraint refused the write.
	ErrConflict = errors.New("conflict")
	// ErrInvalidCursor: a page token that this server did not issue for this list.
	ErrInvalidCursor = errors.New("invalid page cursor")
	// ErrCycle: a section group would move into itself or one of its own groups.
	ErrCycle = errors.New("a section group cannot move into itself")
)

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
