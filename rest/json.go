package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/textinput"
)

// maxBodyBytes bounds a request body.
const maxBodyBytes = 1 << 20

// jsonBuffers hold answers while they are encoded (an error must be known before the status is
// written); buffers that grew past maxPooledJSON are left to the collector.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledJSON = 64 << 10

// jsonContentType is the Content-Type header's value, shared read-only by every answer (as
// net/http does for its own defaults) so that setting it allocates nothing.
var jsonContentType = []string{"application/json; charset=utf-8"}

func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooledJSON {
			jsonBuffers.Put(buf)
		}
	}()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false) // API clients read JSON, not HTML: keep <, > and & as they are
	b := []byte(`{"error":{"code":500,"message":"Internal error"}}`)
	if err := enc.Encode(v); err != nil {
		slog.Error("encode response", "err", err)
		status = http.StatusInternalServerError
	} else {
		b = buf.Bytes()
	}
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(status)
	w.Write(b) //nolint:errcheck // the client went away; nothing to do
}

// decodeBody reads a JSON object into dst. Malformed JSON, a wrong type or an unknown shape
// answer Invalid naming the field, before anything is written.
func decodeBody(w http.ResponseWriter, r *http.Request, dst any) error {
	return decode(w, r, dst, false)
}

// decodeOptionalBody is decodeBody for operations whose body may be left out entirely.
func decodeOptionalBody(w http.ResponseWriter, r *http.Request, dst any) error {
	return decode(w, r, dst, true)
}

func decode(w http.ResponseWriter, r *http.Request, dst any, optional bool) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return apperr.Invalidf("body", "larger than %d bytes", maxBodyBytes)
		}
		return apperr.Invalidf("body", "could not be read")
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		if optional {
			return nil
		}
		return apperr.Invalidf("body", "a JSON object is required")
	}
	if string(bytes.TrimSpace(body)) == "null" {
		// json.Unmarshal leaves dst as it was: without this a null body would be an empty one.
		return apperr.Invalidf("body", "must be a JSON object, not null")
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return jsonError(err)
	}
	return checkText(body)
}

// checkText refuses a body holding a string that is not text (see textinput.FindBadJSON),
// naming the field.
func checkText(body []byte) error {
	if field, problem := textinput.FindBadJSON(body); problem != "" {
		if field == "" {
			field = "body"
		}
		return textinput.Error(field, problem)
	}
	return nil
}

func jsonError(err error) error {
	var (
		syntax *json.SyntaxError
		typ    *json.UnmarshalTypeError
		app    *apperr.Error
	)
	switch {
	case errors.As(err, &app): // a type's own decoder already named the field
		return app
	case errors.As(err, &syntax):
		return apperr.Invalidf("body", "malformed JSON at offset %d", syntax.Offset)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return apperr.Invalidf(field, "must be %s, not %s", jsonTypeName(typ.Type.Kind().String()), typ.Value)
	}
	return apperr.Invalidf("body", "invalid JSON: %s", err.Error())
}

func jsonTypeName(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "struct", "map", "ptr":
		return "an object"
	case "int", "int64", "int32", "float64", "float32":
		return "a number"
	}
	return "of another type"
}

// maxPageToken bounds a page token: those this server issues (in next.page) are far shorter;
// the longest, a search's, carries its query of at most 512 characters.
const maxPageToken = 4096

// readList reads the query parameters every list takes, checked the same way on every list:
// limit, a whole number from 0 to 1000 written in digits; page, a token from next.page (whether it
// belongs to this list is checked where it is read); and order, "asc" or "desc", on the lists
// that take one (ordered). On a list that has no order, order is refused rather than ignored: the
// caller would get another order than the one asked for. Errors: Invalid naming the parameter.
func readList(r *http.Request, ordered bool) (first *int, after *string, order *model.ListOrder, err error) {
	q := r.URL.Query()
	if v, ok := q["limit"]; ok {
		n, convErr := strconv.Atoi(v[0])
		if convErr != nil || strings.Trim(v[0], "0123456789") != "" || n > model.MaxPageSize {
			return nil, nil, nil, apperr.Invalidf("limit", "must be a whole number from 0 to %d, written in digits", model.MaxPageSize)
		}
		first = &n
	}
	if v, ok := q["page"]; ok {
		if len(v[0]) > maxPageToken {
			return nil, nil, nil, apperr.Invalidf("page", "must be at most %d characters (a token from next.page)", maxPageToken)
		}
		after = &v[0]
	}
	if v, ok := q["order"]; ok {
		o := model.ListOrder(v[0])
		switch {
		case !ordered:
			return nil, nil, nil, apperr.Invalidf("order", "this list has one order and takes no order parameter")
		case !o.IsValid():
			return nil, nil, nil, apperr.Invalidf("order", `must be "asc" or "desc"`)
		}
		order = &o
	}
	return first, after, order, nil
}

// listArgs reads a list's paging parameters (readList) for a list that takes no order.
func listArgs(r *http.Request) (first *int, after *string, err error) {
	first, after, _, err = readList(r, false)
	return first, after, err
}

// optionalQuery returns the query parameter as a pointer, nil when absent.
func optionalQuery[T ~string](r *http.Request, name string) *T {
	if v, ok := r.URL.Query()[name]; ok {
		t := T(v[0])
		return &t
	}
	return nil
}

// listEnvelope is the contract's list shape: items, the total count, and next.page when another
// page exists.
type listEnvelope[T any] struct {
	Items []T       `json:"items"`
	Count int       `json:"count"`
	Next  *nextPage `json:"next,omitempty"`
}

type nextPage struct {
	Page string `json:"page"`
}

func envelope[T any](c *model.Connection[T]) listEnvelope[T] {
	out := listEnvelope[T]{Items: c.Nodes, Count: c.TotalCount}
	if c.PageInfo.HasNextPage && c.PageInfo.EndCursor != nil {
		out.Next = &nextPage{Page: *c.PageInfo.EndCursor}
	}
	return out
}

// singlePageArgs checks the paging parameters (readList) of a list that the contract gives no
// paging: it answers every item at once, so a valid limit changes nothing, and a page token is
// refused, since the list never gives one.
func singlePageArgs(r *http.Request) error {
	_, after, err := listArgs(r)
	if err == nil && after != nil && *after != "" {
		return apperr.Invalidf("page", "this list answers every item at once: it has no next page")
	}
	return err
}

// nestedList answers a list that hangs from a parent resource: it reads the paging arguments,
// loads the parent (which decides whether the caller sees it), then lists.
func nestedList[P, T any](r *http.Request, parent func(*http.Request) (P, error), list func(P, *int, *string) (*model.Connection[T], error)) (int, any, error) {
	return nestedOrderedList(r, false, parent, func(p P, first *int, after *string, _ *model.ListOrder) (*model.Connection[T], error) {
		return list(p, first, after)
	})
}

// nestedOrderedList is nestedList for a list that takes an order when ordered.
func nestedOrderedList[P, T any](r *http.Request, ordered bool, parent func(*http.Request) (P, error), list func(P, *int, *string, *model.ListOrder) (*model.Connection[T], error)) (int, any, error) {
	first, after, order, err := readList(r, ordered)
	if err != nil {
		return 0, nil, err
	}
	p, err := parent(r)
	if err != nil {
		return 0, nil, err
	}
	c, err := list(p, first, after, order)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(c), nil)
}
