package rest

import (
	"log/slog"
	"net/http"

	"github.com/bindery/bindery/domain/apperr"
)

// statusOf maps each error kind to its HTTP status: the one place REST decides this.
var statusOf = map[apperr.Kind]int{
	apperr.Invalid:         http.StatusBadRequest,
	apperr.Unauthenticated: http.StatusUnauthorized,
	apperr.Forbidden:       http.StatusForbidden,
	apperr.NotFound:        http.StatusNotFound,
	apperr.Conflict:        http.StatusConflict,
	apperr.Internal:        http.StatusInternalServerError,
}

// errorBody is the contract's error shape: {"error":{"code":<status>,"message":"…"}}.
type errorBody struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// writeError answers with err's status and message. Internal errors are logged with the request
// id and shown only as "Internal error".
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	kind := apperr.KindOf(err)
	status := statusOf[kind]
	if kind == apperr.Internal {
		slog.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	writeErrorStatus(w, status, apperr.Message(err))
}

func writeErrorStatus(w http.ResponseWriter, status int, message string) {
	var body errorBody
	body.Error.Code, body.Error.Message = status, message
	writeJSON(w, status, body)
}

// errorBodyOf is the contract's error body for status and message.
func errorBodyOf(status int, message string) errorBody {
	var body errorBody
	body.Error.Code, body.Error.Message = status, message
	return body
}
