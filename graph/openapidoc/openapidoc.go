// Package openapidoc parses and validates OpenAPI documents with kin-openapi, for the
// specifications an organization stores (docs/openapi.md says what is checked).
package openapidoc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/yaml"
)

// MaxSize bounds a document's size (text sources and fetched ones alike).
const MaxSize = 5 << 20

// Doc is a valid OpenAPI document.
type Doc struct {
	T *openapi3.T
	// Hash identifies the content: the same bytes make the same hash, so storing them again
	// makes no new version.
	Hash string
	// JSON is the document as JSON (YAML converted), as content reads serve it.
	JSON []byte
}

// Problem is why a document was refused: the library's message and where it applies.
type Problem struct {
	Message  string
	Location string
}

func (p *Problem) Error() string {
	if p.Location == "" {
		return p.Message
	}
	return p.Location + ": " + p.Message
}

// Parse reads an OpenAPI 3.0 or 3.1 document, in JSON or YAML, and validates it. References to
// other files are refused: a document must be whole. Errors: *Problem.
func Parse(ctx context.Context, data []byte) (*Doc, error) {
	if len(data) > MaxSize {
		return nil, &Problem{Message: fmt.Sprintf("the document is larger than %d bytes", MaxSize)}
	}
	loader := openapi3.NewLoader()
	loader.Context = ctx
	loader.IsExternalRefsAllowed = false
	loader.ReadFromURIFunc = func(_ *openapi3.Loader, u *url.URL) ([]byte, error) {
		return nil, fmt.Errorf("references to other files (%s) are not supported: inline them", u)
	}
	t, err := loader.LoadFromData(data)
	if err != nil {
		return nil, &Problem{Message: err.Error(), Location: "document"}
	}
	switch v := t.OpenAPIMajorMinor(); v {
	case "3.0", "3.1":
	default:
		return nil, &Problem{Message: fmt.Sprintf("OpenAPI version %q is not supported: use 3.0 or 3.1", t.OpenAPI), Location: "openapi"}
	}
	if err := t.Validate(ctx, openapi3.DisableExamplesValidation()); err != nil {
		return nil, &Problem{Message: err.Error(), Location: locationOf(err)}
	}
	js, err := yaml.YAMLToJSON(data) // JSON is YAML: a JSON document passes through
	if err != nil {
		return nil, &Problem{Message: err.Error(), Location: "document"}
	}
	sum := sha256.Sum256(data)
	return &Doc{T: t, Hash: hex.EncodeToString(sum[:]), JSON: js}, nil
}

// locationOf names where a validation error applies, from kin-openapi's context wrappers:
// "paths./pets.get", "components.schemas.Pet", "info".
func locationOf(err error) string {
	var parts []string
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch w := e.(type) {
		case *openapi3.SectionValidationError:
			parts = append(parts, w.Section)
		case *openapi3.PathValidationError:
			parts = append(parts, w.Path)
		case *openapi3.OperationValidationError:
			parts = append(parts, strings.ToLower(w.Method))
		case *openapi3.ComponentValidationError:
			parts = append(parts, w.Section, w.Name)
		}
	}
	if len(parts) == 0 {
		return "document"
	}
	return strings.Join(parts, ".")
}

// Operation is one operation of a document, in document order within its tag.
type Operation struct {
	Method, Path, OperationID, Summary, Description string
	Deprecated                                      bool
}

// Tag is a group of operations, as API-reference pages show them.
type Tag struct {
	Name, Description string
	Operations        []Operation
}

// ToJSON converts a stored (already validated) document to JSON, without validating it again.
func ToJSON(data []byte) ([]byte, error) { return yaml.YAMLToJSON(data) }
