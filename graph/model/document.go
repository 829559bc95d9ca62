package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/bindery/bindery/graph/apperr"
)

// Document is a rich-text document ({"object":"document","data":{…},"nodes":[…]}) kept as the
// JSON a client sent, after Validate. It is the GraphQL scalar Document.
type Document json.RawMessage

// EmptyDocument is a document with no content.
func EmptyDocument() Document { return Document(`{"object":"document","data":{},"nodes":[]}`) }

// MarshalJSON writes the document as is.
func (d Document) MarshalJSON() ([]byte, error) {
	if len(d) == 0 {
		return []byte("null"), nil
	}
	return d, nil
}

// UnmarshalJSON keeps a copy of the raw JSON; Validate checks its shape.
func (d *Document) UnmarshalJSON(b []byte) error {
	*d = append((*d)[:0], b...)
	return nil
}

// MarshalGQL writes the document as a JSON value.
func (d Document) MarshalGQL(w io.Writer) {
	b, _ := d.MarshalJSON()
	w.Write(b) //nolint:errcheck // gqlgen's writer API has no error path
}

// UnmarshalGQL accepts a GraphQL input value (an object) and keeps it as JSON.
func (d *Document) UnmarshalGQL(v any) error {
	b, err := json.Marshal(emptyListsKept(v))
	if err != nil {
		return fmt.Errorf("document must be a JSON object")
	}
	*d = b
	return nil
}

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
