package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/bindery/bindery/domain/apperr"
)

// Document is a rich-text document ({"object":"document","data":{…},"nodes":[…]}) kept as the
// JSON a client sent, after Validate. It is the GraphQL scalar Document.
type Document json.RawMessage

// EmptyDocument is a document with no content.
func EmptyDocument() Document { return Document(`{"object":"document","data":{},"nodes":[]}`) }

// The encodings are JSON's: a document is a JSON value that Validate has checked.

func (d Document) MarshalJSON() ([]byte, error)  { return JSON(d).MarshalJSON() }
func (d *Document) UnmarshalJSON(b []byte) error { return (*JSON)(d).UnmarshalJSON(b) }
func (d Document) MarshalGQL(w io.Writer)        { JSON(d).MarshalGQL(w) }
func (d *Document) UnmarshalGQL(v any) error     { return (*JSON)(d).UnmarshalGQL(v) }

type documentShape struct {
	Object string           `json:"object"`
	Data   *json.RawMessage `json:"data"`
	Nodes  []struct {
		Object string `json:"object"`
		Type   string `json:"type"`
	} `json:"nodes"`
}

// Validate checks the document's outer shape: object "document", an object data, and top-level
// block nodes each with a type. Errors: Invalid naming field.
func (d Document) Validate(field string) error {
	if len(d) == 0 || bytes.Equal(d, []byte("null")) {
		return apperr.Invalidf(field, "a document is required")
	}
	var doc documentShape
	if err := json.Unmarshal(d, &doc); err != nil {
		return apperr.Invalidf(field, "must be a document object ({\"object\":\"document\",\"data\":{},\"nodes\":[]})")
	}
	if doc.Object != "document" {
		return apperr.Invalidf(field, `object must be "document"`)
	}
	if doc.Data == nil || !bytes.HasPrefix(bytes.TrimSpace(*doc.Data), []byte("{")) {
		return apperr.Invalidf(field, "data must be an object")
	}
	if doc.Nodes == nil {
		return apperr.Invalidf(field, "nodes must be an array")
	}
	for i, n := range doc.Nodes {
		if n.Object != "block" || n.Type == "" {
			return apperr.Invalidf(fmt.Sprintf("%s.nodes[%d]", field, i), `must be a block node with "object":"block" and a type`)
		}
	}
	return nil
}

// emptyListsKept replaces the nil slices GraphQL literals decode to ("nodes: []") with empty ones,
// so they encode as [] rather than null.
func emptyListsKept(v any) any {
	switch x := v.(type) {
	case []any:
		if x == nil {
			return []any{}
		}
		for i := range x {
			x[i] = emptyListsKept(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = emptyListsKept(x[k])
		}
	}
	return v
}
