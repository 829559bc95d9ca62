// Package openapidoc parses and validates OpenAPI documents with kin-openapi, for the
// specifications an organization stores (docs/openapi.md says what is checked).
package openapidoc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/yaml"
)

// MaxSize bounds a document's size (text sources and fetched ones alike).
const MaxSize = 5 << 20

// MaxFiles bounds how many other files a document fetched from a URL may reference (their
// bytes count toward MaxSize, with the document's).
const MaxFiles = 50

// Doc is a valid OpenAPI document.
type Doc struct {
	T *openapi3.T
	// Hash identifies the content: the same bytes (document and referenced files) make the same
	// hash, so storing them again makes no new version.
	Hash string
	// JSON is the document as JSON (YAML converted), as content reads serve it.
	JSON []byte
	// Files are the other files the document references by relative $ref, by their path
	// relative to the document's directory, as fetched (nil for a single-file document).
	Files map[string][]byte
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

// RefError is a referenced file that could not be fetched (or may not be: another host, too
// many files, too many bytes). Err is the fetcher's error, when it failed.
type RefError struct {
	URL string
	Msg string
	Err error
}

func (e *RefError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("referenced file %s: %s", e.URL, e.Err.Error())
	}
	return fmt.Sprintf("referenced file %s: %s", e.URL, e.Msg)
}

func (e *RefError) Unwrap() error { return e.Err }

// Parse reads an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one (converted to OpenAPI 3.0), in
// JSON or YAML, and validates it. It has no
// location, so references to other files cannot be resolved and are refused, naming the
// reference. A document nesting deeper than MaxDepth, or costing more than MaxWork, is refused
// before it is decoded. Errors: *Problem, ctx's error.
func Parse(ctx context.Context, data []byte) (*Doc, error) {
	if len(data) > MaxSize {
		return nil, &Problem{Message: fmt.Sprintf("the document is larger than %d bytes", MaxSize)}
	}
	if _, err := checkNesting(ctx, data, "document", MaxWork); err != nil {
		return nil, err
	}
	if isSwagger2(data) {
		return parseSwagger2(ctx, data)
	}
	loader := openapi3.NewLoader()
	loader.Context = ctx
	loader.IsExternalRefsAllowed = false
	loader.ReadFromURIFunc = func(_ *openapi3.Loader, u *url.URL) ([]byte, error) {
		at := *u
		at.Fragment = ""
		return nil, fmt.Errorf("the reference to another file %q cannot be resolved: a text source must be one whole document (inline it, or give the specification's URL so its files can be fetched)", at.String())
	}
	t, err := loader.LoadFromData(data)
	if err != nil {
		return nil, &Problem{Message: err.Error(), Location: "document"}
	}
	return finish(ctx, t, data, nil)
}

// Fetch reads a referenced file by absolute URL (the safe fetcher, for specifications).
type Fetch func(ctx context.Context, url string) ([]byte, error)

// ParseURL reads a document fetched from base, with the files it references by relative $ref,
// fetched with fetch: only on base's scheme and host, at most MaxFiles files and MaxSize bytes
// in all, each file within MaxDepth and all within MaxWork. The whole is validated. Errors:
// *Problem (an invalid document or file), *RefError (a file that could not or may not be
// fetched), ctx's error.
func ParseURL(ctx context.Context, data []byte, base string, fetch Fetch) (*Doc, error) {
	if len(data) > MaxSize {
		return nil, &Problem{Message: fmt.Sprintf("the document is larger than %d bytes", MaxSize)}
	}
	work, err := checkNesting(ctx, data, "document", MaxWork)
	if err != nil {
		return nil, err
	}
	if isSwagger2(data) {
		return parseSwagger2(ctx, data)
	}
	budget := MaxWork - work
	root, err := url.Parse(base)
	if err != nil || !root.IsAbs() {
		return nil, &Problem{Message: "the document's URL is not an absolute URL", Location: "document"}
	}
	root.Fragment = ""
	files := map[string][]byte{}
	total := len(data)
	var stop error // the first file refused: the loader's own error would bury it
	loader := openapi3.NewLoader()
	loader.Context = ctx
	loader.JoinFunc = func(b, rel *url.URL) *url.URL { return b.ResolveReference(rel) }
	loader.ReadFromURIFunc = func(_ *openapi3.Loader, u *url.URL) ([]byte, error) {
		at := *u
		at.Fragment = ""
		fail := func(e error) ([]byte, error) {
			if stop == nil {
				stop = e
			}
			return nil, e
		}
		if at == *root {
			return data, nil // the document refers to itself by name
		}
		if at.Scheme != root.Scheme || at.Host != root.Host {
			return fail(&RefError{URL: at.String(), Msg: "only files on the document's own host (by a relative $ref) are fetched"})
		}
		name := RelPath(root.Path, at.Path)
		if b, ok := files[name]; ok {
			return b, nil
		}
		if len(files) >= MaxFiles {
			return fail(&RefError{URL: at.String(), Msg: fmt.Sprintf("the document references more than %d files", MaxFiles)})
		}
		b, err := fetch(ctx, at.String())
		if err != nil {
			return fail(&RefError{URL: at.String(), Err: err})
		}
		if total += len(b); total > MaxSize {
			return fail(&RefError{URL: at.String(), Msg: fmt.Sprintf("the document and its files are larger than %d bytes", MaxSize)})
		}
		work, err := checkNesting(ctx, b, name, budget)
		if err != nil {
			return fail(err)
		}
		budget -= work
		files[name] = b
		return b, nil
	}
	t, err := loader.LoadFromDataWithPath(data, root)
	if stop != nil {
		return nil, stop
	}
	if err != nil {
		return nil, &Problem{Message: err.Error(), Location: "document"}
	}
	for name, b := range files {
		if _, err := yaml.YAMLToJSON(b); err != nil {
			return nil, &Problem{Message: err.Error(), Location: name}
		}
	}
	return finish(ctx, t, data, files)
}

// isSwagger2 reports whether data is a Swagger 2.0 document (its top-level "swagger": "2.0").
func isSwagger2(data []byte) bool {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return false
	}
	var head struct {
		Swagger string `json:"swagger"`
	}
	return json.Unmarshal(js, &head) == nil && head.Swagger == "2.0"
}

// parseSwagger2 reads a Swagger 2.0 document as the OpenAPI 3.0 document it converts to
// (servers from host, basePath and schemes; bodies and forms as request bodies; definitions as
// component schemas). It must be one whole document: its references to other files are refused.
// The document's own bytes stay its content and hash. Errors: *Problem, ctx's error.
func parseSwagger2(ctx context.Context, data []byte) (*Doc, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, &Problem{Message: err.Error(), Location: "document"}
	}
	var doc2 openapi2.T
	if err := json.Unmarshal(js, &doc2); err != nil {
		return nil, &Problem{Message: "the Swagger 2.0 document could not be read: " + err.Error(), Location: "document"}
	}
	loader := openapi3.NewLoader()
	loader.Context = ctx
	loader.IsExternalRefsAllowed = false
	t, err := openapi2conv.ToV3WithLoader(&doc2, loader, nil)
	if err == nil {
		err = loader.ResolveRefsIn(t, nil)
	}
	switch {
	case err != nil && strings.Contains(err.Error(), "external reference"):
		return nil, &Problem{Message: "a Swagger 2.0 document must be one whole document (inline the files it references): " + err.Error(), Location: "document"}
	case err != nil:
		return nil, &Problem{Message: "the Swagger 2.0 document could not be converted to OpenAPI 3: " + err.Error(), Location: "document"}
	}
	if t.Paths == nil {
		t.Paths = openapi3.NewPaths() // a document without operations (yet)
	}
	return finish(ctx, t, data, nil)
}

// finish checks the version and validates a loaded document, and hashes it with its files.
func finish(ctx context.Context, t *openapi3.T, data []byte, files map[string][]byte) (*Doc, error) {
	if err := ctx.Err(); err != nil { // the library's decoding does not look at ctx
		return nil, err
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
	h := sha256.New()
	h.Write(data)
	if len(files) == 0 {
		files = nil // a single document hashes as its bytes alone, as before files were kept
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		h.Write([]byte{0})
		h.Write([]byte(name))
		h.Write([]byte{0})
		h.Write(files[name])
	}
	return &Doc{T: t, Hash: hex.EncodeToString(h.Sum(nil)), JSON: js, Files: files}, nil
}

// RelPath is the path of file relative to the directory of the document at root (both URL
// paths): "schemas/pet.yaml", or "../common.yaml" for a file above it.
func RelPath(root, file string) string {
	dir := strings.Split(strings.TrimSuffix(path.Dir(root), "/"), "/")
	parts := strings.Split(path.Clean(file), "/")
	i := 0
	for i < len(dir) && i < len(parts)-1 && dir[i] == parts[i] {
		i++
	}
	up := strings.Repeat("../", len(dir)-i)
	return up + strings.Join(parts[i:], "/")
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

// ToJSON converts a stored (already validated) document to JSON, without validating it again.
func ToJSON(data []byte) ([]byte, error) { return yaml.YAMLToJSON(data) }
