// Package apperr holds the application's typed errors. Each door maps a Kind once: REST to an
// HTTP status and the contract's error body, GraphQL to extensions.code.
package apperr

import (
	"errors"
	"fmt"
)

// Kind classifies an error by what the client should do about it.
type Kind string

// The kinds of error, named as GraphQL's extensions.code shows them.
const (
	Invalid         Kind = "INVALID"
	Unauthenticated Kind = "UNAUTHENTICATED"
	Forbidden       Kind = "FORBIDDEN"
	NotFound        Kind = "NOT_FOUND"
	Conflict        Kind = "CONFLICT"
	Internal        Kind = "INTERNAL"
)

// Error is an error a client may see: Msg is safe to show, Field names the offending input.
type Error struct {
	Kind  Kind
	Msg   string
	Field string
	Err   error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// Invalidf reports bad input in field (empty when it is not one field's fault).
func Invalidf(field, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	return &Error{Kind: Invalid, Field: field, Msg: msg}
}

// NotFoundf reports something absent, or invisible to the caller: the two must look the same.
func NotFoundf(format string, args ...any) *Error {
	return &Error{Kind: NotFound, Msg: fmt.Sprintf(format, args...)}
}

// Forbiddenf reports a write the caller may see but not make.
func Forbiddenf(format string, args ...any) *Error {
	return &Error{Kind: Forbidden, Msg: fmt.Sprintf(format, args...)}
}

// Conflictf reports a write refused by the current state.
func Conflictf(format string, args ...any) *Error {
	return &Error{Kind: Conflict, Msg: fmt.Sprintf(format, args...)}
}

// ErrUnauthenticated is returned when no valid token came with the request.
var ErrUnauthenticated = &Error{Kind: Unauthenticated, Msg: "a valid API token is required (Authorization: Bearer <token>)"}

// Classified is an error from a layer below (storage's ErrNotFound, ErrConflict,
// ErrInvalidCursor) that names its own class and public message. apperr recognises it by these
// methods rather than by importing storage, so the graph's model and authz packages do not link
// the database drivers.
type Classified interface {
	error
	ErrorKind() string     // one of the Kinds, e.g. "NOT_FOUND"
	PublicMessage() string // safe to show a client
}

// KindOf classifies any error; unknown errors are Internal.
func KindOf(err error) Kind {
	var e *Error
	var c Classified
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Kind
	case errors.As(err, &c):
		return Kind(c.ErrorKind())
	}
	return Internal
}

// Message is what a client may be shown for err: the typed message, a generic one for known
// storage errors, and never the text of an internal error.
func Message(err error) string {
	var e *Error
	var c Classified
	switch {
	case errors.As(err, &e):
		return e.Msg
	case errors.As(err, &c):
		return c.PublicMessage()
	}
	return "Internal error"
}
