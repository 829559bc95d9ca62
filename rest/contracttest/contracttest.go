// Package contracttest validates REST responses against GitBook's public
// OpenAPI spec (@gitbook/api@0.146.0), the contract the /v1 door must speak.
//
// It is a test helper: import it only from _test.go files. The spec is not
// vendored; .ci/fetch-contract downloads it into .cache/ at the module root.
package contracttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// SpecEnv overrides the location of the spec file.
const SpecEnv = "BINDERY_CONTRACT_SPEC"

// specRelPath is where .ci/fetch-contract puts the spec, relative to the module root.
const specRelPath = ".cache/gitbook-api-0.146.0/openapi.json"

var (
	once      sync.Once
	loaded    *spec
	validated atomic.Int64
)

// spec is a loaded contract, or the reason it could not be loaded.
type spec struct {
	path     string
	doc      *openapi3.T
	router   routers.Router
	errorSch *openapi3.Schema // components.schemas.Error
	missing  bool             // the file does not exist: skip (or fail under CI)
	err      error            // missing or unusable spec
	warnOnce sync.Once
	warnTo   io.Writer // where the missing-spec banner goes; os.Stderr
	// opts replaces schemaOptions when set: an OpenAPI 3.1 document (the newer contract) is
	// validated as JSON Schema 2020-12, whose errors cannot be shortened.
	opts []openapi3.SchemaValidationOption
}

func (s *spec) schemaOptions() []openapi3.SchemaValidationOption {
	if s.opts != nil {
		return s.opts
	}
	return schemaOptions
}

// Spec returns the process-wide contract, loading it once on first use from
// $BINDERY_CONTRACT_SPEC, else <module root>/.cache/gitbook-api-0.146.0/openapi.json
// (the module root is the nearest directory above the working directory
// holding go.mod). It returns nil when the spec is not Available. The
// document is shared: do not modify it.
func Spec() *openapi3.T {
	return get().doc
}

// Available reports whether the spec was loaded.
func Available() bool {
	return get().err == nil
}

// Validated returns how many exchanges this process has validated against the spec.
func Validated() int64 {
	return validated.Load()
}

// Validate checks one exchange against the contract: req (method, path
// under /v1 and query) selects the operation; status, header and body are
// checked against that operation's declared response. Mismatches, and
// requests matching no operation of the contract, are reported with
// t.Errorf. Request bodies are not validated.
//
// Error statuses the operation does not declare are checked against
// components.schemas.Error; 204 is accepted for any DELETE.
//
// A missing spec fails the test via t.Fatalf when CI=true; otherwise it is
// reported once per process on stderr and validation is skipped.
func Validate(t testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	get().validate(t, req, status, header, body)
}

func get() *spec {
	once.Do(func() { loaded = load(specPath()) })
	return loaded
}

func specPath() string {
	if p := os.Getenv(SpecEnv); p != "" {
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		return specRelPath
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, specRelPath)
		}
		if filepath.Dir(d) == d {
			return filepath.Join(dir, specRelPath) // no module root: report the path tried
		}
	}
}

func load(path string) *spec {
	s := &spec{path: path, warnTo: os.Stderr}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		s.missing, s.err = true, err
		return s
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromFile(path)
	if err != nil {
		s.err = fmt.Errorf("load %s: %w", path, err)
		return s
	}
	// The spec's only server is "{host}/v1" with an https://api.gitbook.com
	// default; route on the bare path prefix instead so test requests match.
	doc.Servers = openapi3.Servers{{URL: "/v1"}}
	plainObjectTyped(doc)
	computedOrNot(doc)
	tableValuesOneOf(doc)
	pageEditedAttributes(doc)
	redirectSourcePattern(doc)
	// gorillamux (unlike legacy, which also takes "/v1" for "/v1/") tries
	// literal paths before templated ones (Paths.InMatchingOrder), so a literal
	// segment wins over a template at the same position, and it matches on the
	// escaped path, so a %2F inside {pagePath} stays one segment.
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		s.err = fmt.Errorf("route %s: %w", path, err)
		return s
	}
	ref := doc.Components.Schemas["Error"]
	if ref == nil || ref.Value == nil {
		s.err = fmt.Errorf("%s: components.schemas.Error is missing", path)
		return s
	}
	// No nullable workaround is needed: the spec's null pattern
	// (MemberRoleOrGuest: oneOf[MemberRole, {type: string, nullable: true,
	// enum: [null]}]) validates as intended, since kin-openapi accepts null
	// for a nullable schema before checking its enum (see TestMemberRoleNull).
	s.doc, s.router, s.errorSch = doc, router, ref.Value
	return s
}

// ci reports whether we run under CI, where a missing spec must fail loudly.
func ci() bool {
	v, _ := strconv.ParseBool(os.Getenv("CI"))
	return v
}

const fetchHint = "run .ci/fetch-contract (or set " + SpecEnv + ")"

// warnMissing prints, once per spec, a banner that contract checks are skipped.
// It goes to stderr rather than t.Log so that it shows without -v (though go
// test still hides the output of passing packages given as patterns, e.g. ./...).
func (s *spec) warnMissing() {
	s.warnOnce.Do(func() {
		fmt.Fprintf(s.warnTo, "\n"+
			"!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n"+
			"!!! CONTRACT VALIDATION SKIPPED: spec %s not found\n"+
			"!!! %s\n"+
			"!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\n",
			s.path, fetchHint)
	})
}

func (s *spec) validate(t testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	if s.err != nil {
		switch {
		case !s.missing:
			t.Fatalf("contract: unusable spec: %v", s.err)
		case ci():
			t.Fatalf("contract: spec %s is missing and CI=true: %s", s.path, fetchHint)
		default:
			s.warnMissing()
		}
		return
	}

	// Route on method, escaped path and query only: the host of a real
	// client request must not influence matching.
	rreq := &http.Request{
		Method: req.Method,
		URL:    &url.URL{Path: req.URL.Path, RawPath: req.URL.RawPath, RawQuery: req.URL.RawQuery},
		Header: http.Header{},
	}
	route, params, err := s.router.FindRoute(rreq)
	if err != nil {
		if one := pagePathAsOneSegment(rreq); one != nil {
			route, params, err = s.router.FindRoute(one)
		}
	}
	if err != nil {
		t.Errorf("contract: %s %s is not in the contract: %v", req.Method, req.URL.Path, err)
		return
	}
	validated.Add(1)

	op := fmt.Sprintf("%s %s (%s)", route.Method, "/v1"+route.Path, route.Operation.OperationID)
	if err := s.check(rreq, route, params, status, header, body); err != nil {
		t.Errorf("contract: %s -> %d: %v\nbody: %s", op, status, err, truncate(body, 2048))
	}
}

// pagePathAsOneSegment is req with the rest of its path after "/path/" escaped into one segment:
// the contract's {pagePath} (getPageByPath and its revision and change-request forms) holds a
// page's slugs joined by "/", which GitBook's client sends unescaped, while the router matches a
// parameter within one segment. Nil when the path has no "/path/".
func pagePathAsOneSegment(req *http.Request) *http.Request {
	i := strings.Index(req.URL.Path, "/path/")
	if i < 0 {
		return nil
	}
	head, rest := req.URL.Path[:i+len("/path/")], req.URL.Path[i+len("/path/"):]
	u := *req.URL
	u.Path = head + rest
	u.RawPath = strings.ReplaceAll(url.PathEscape(head), "%2F", "/") + url.PathEscape(rest)
	one := *req
	one.URL = &u
	return &one
}

func (s *spec) check(req *http.Request, route *routers.Route, params map[string]string, status int, header http.Header, body []byte) error {
	if (status == http.StatusNoContent || status == http.StatusResetContent) && len(body) > 0 {
		return fmt.Errorf("status %d must have an empty body, got %d bytes", status, len(body))
	}
	responses := route.Operation.Responses
	declared := responses.Status(status) != nil || responses.Default() != nil
	switch {
	case declared:
		// Fall through to kin-openapi below.
	case status == http.StatusNoContent && req.Method == http.MethodDelete:
		// Bindery answers every successful DELETE with 204, even where
		// GitBook documents 205.
		return nil
	case status >= 400:
		// GitBook documents few error statuses per operation, yet every
		// error it returns has the shape of components.schemas.Error.
		return s.checkError(header, body)
	default:
		return fmt.Errorf("status %d is not declared by the operation", status)
	}

	if mt, _, _ := mime.ParseMediaType(header.Get("Content-Type")); mt == "text/event-stream" {
		return checkEvents(responses.Status(status), body)
	}
	return openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request:    req,
			PathParams: params,
			Route:      route,
		},
		Status: status,
		Header: header,
		Body:   io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{
			IncludeResponseStatus:   true,
			MultiError:              true,
			AuthenticationFunc:      openapi3filter.NoopAuthenticationFunc,
			SchemaValidationOptions: s.schemaOptions(),
		},
	})
}

// checkEvents validates a server-sent event stream: the operation must declare
// text/event-stream, and each event's data is one JSON value of its schema (an "error" event
// carries the contract's error body instead).
func checkEvents(resp *openapi3.ResponseRef, body []byte) error {
	if resp == nil || resp.Value == nil || resp.Value.Content.Get("text/event-stream") == nil {
		return fmt.Errorf("the operation does not declare text/event-stream")
	}
	schema := resp.Value.Content.Get("text/event-stream").Schema.Value
	for i, event := range strings.Split(strings.TrimSpace(string(body)), "\n\n") {
		if strings.TrimSpace(event) == "" {
			continue
		}
		name, data := "", ""
		for line := range strings.SplitSeq(event, "\n") {
			if v, ok := strings.CutPrefix(line, "event:"); ok {
				name = strings.TrimSpace(v)
			} else if v, ok := strings.CutPrefix(line, "data:"); ok {
				data += strings.TrimSpace(v)
			}
		}
		var v any
		if err := json.Unmarshal([]byte(data), &v); err != nil {
			return fmt.Errorf("event %d: data is not JSON: %w", i, err)
		}
		sch := schema
		if name == "error" {
			sch = get().errorSch
		}
		if err := sch.VisitJSON(v, append(schemaOptions, openapi3.VisitAsResponse())...); err != nil {
			return fmt.Errorf("event %d: %w", i, err)
		}
	}
	return nil
}

// checkError validates an error response the operation does not document.
func (s *spec) checkError(header http.Header, body []byte) error {
	if mt, _, err := mime.ParseMediaType(header.Get("Content-Type")); err != nil || mt != "application/json" {
		return fmt.Errorf("undeclared error status: Content-Type %q, want application/json", header.Get("Content-Type"))
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("undeclared error status: body is not JSON: %w", err)
	}
	if err := s.errorSch.VisitJSON(v, append(s.schemaOptions(), openapi3.VisitAsResponse())...); err != nil {
		return fmt.Errorf("undeclared error status: body doesn't match components.schemas.Error: %w", err)
	}
	return nil
}

// schemaOptions tunes kin-openapi's schema checks for this spec.
//
// Formats: kin-openapi checks date-time, date, byte and int32/int64 out of
// the box, and silently accepts formats it has no validator for (the spec's
// GitBook-specific "emoji" and "icon"). It has no "uri" validator, so one
// is added here, scoped to these validations rather than registered globally.
var schemaOptions = []openapi3.SchemaValidationOption{
	// Report the failing JSON path and reason, not a dump of the (often
	// huge) schema and value.
	openapi3.DisableSchemaErrorDetails(),
	openapi3.WithStringFormatValidator("uri", openapi3.NewCallbackValidator(validateURI)),
}

// validateURI accepts absolute URIs (RFC 3986 "URI", which requires a scheme).
func validateURI(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if !u.IsAbs() {
		return errors.New("not an absolute URI")
	}
	return nil
}

func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…(truncated)"
}

// plainObjectTyped gives the contract's PlainObject the type it means, object. It has no type,
// and its additionalProperties are oneOf [PlainObject, …]: kin-openapi's Schema.IsEmpty, which
// every validation calls, then recurses through it without end (a stack overflow) as soon as a
// response reaches it (a computed page's ComputedContentSourceIntegration variant does). With
// a type, IsEmpty answers at once; objects validate exactly as before.
func plainObjectTyped(doc *openapi3.T) {
	if ref := doc.Components.Schemas["PlainObject"]; ref != nil && ref.Value != nil && ref.Value.Type == nil {
		ref.Value.Type = &openapi3.Types{openapi3.TypeObject}
	}
}

// tableValuesOneOf reads the contract's table record values as they mean it. A value is oneOf
// [number, string, boolean, strings, ContentRef, DocumentTableImageRecord], and the image record
// is itself oneOf [ContentRefFile, ContentRefURL, {ref, objectFit?, alt?}]: a card's target or an
// image column's URL or file reference matches both ContentRef and the image record and fails
// oneOf. The image record's branch is read as "not a bare content reference" (no kind); values
// that are not content references validate exactly as before.
func tableValuesOneOf(doc *openapi3.T) {
	ref := doc.Components.Schemas["DocumentTableRecord"]
	if ref == nil || ref.Value == nil || ref.Value.Properties["values"] == nil {
		return
	}
	values := ref.Value.Properties["values"].Value
	if values == nil || values.AdditionalProperties.Schema == nil || values.AdditionalProperties.Schema.Value == nil {
		return
	}
	for _, branch := range values.AdditionalProperties.Schema.Value.OneOf {
		if branch != nil && strings.HasSuffix(branch.Ref, "/DocumentTableImageRecord") {
			image := *branch.Value
			image.Not = &openapi3.SchemaRef{Value: &openapi3.Schema{Required: []string{"kind"}}}
			branch.Ref, branch.Value = "", &image
		}
	}
}

// computedOrNot reads the contract's RevisionPageDocument as it means it. Its last part is
// oneOf [{computed, computedSeed} (both required), {documentId?}], and the second branch,
// having no required property, matches every object: a computed page (API-reference pages,
// which GitBook returns too) would match both branches and fail oneOf. The second branch is
// read as "a page that is not computed"; pages without computed validate exactly as before.
func computedOrNot(doc *openapi3.T) {
	ref := doc.Components.Schemas["RevisionPageDocument"]
	if ref == nil || ref.Value == nil {
		return
	}
	for _, part := range ref.Value.AllOf {
		if part == nil || part.Value == nil || len(part.Value.OneOf) != 2 {
			continue
		}
		computed, plain := part.Value.OneOf[0].Value, part.Value.OneOf[1].Value
		if computed == nil || plain == nil || !slices.Contains(computed.Required, "computed") || plain.Properties["documentId"] == nil || plain.Not != nil {
			continue
		}
		plain.Not = &openapi3.SchemaRef{Value: &openapi3.Schema{Required: []string{"computed"}}}
	}
}

// NewerSpecEnv overrides the location of the newer contract (@gitbook/api 0.202.0), which holds
// operations the 0.146.0 contract lacks (the audit log).
const NewerSpecEnv = "BINDERY_CONTRACT_SPEC_NEWER"

// newerRelPath is where `npm pack @gitbook/api@0.202.0` unpacked into .cache/ puts the spec.
const newerRelPath = ".cache/gitbook-api-0.202.0/package/spec/openapi.json"

var (
	newerOnce   sync.Once
	newerLoaded *spec
)

// ValidateNewer is Validate against the newer contract (@gitbook/api 0.202.0). A missing spec
// skips the check with a banner, or fails under CI, as Validate does.
func ValidateNewer(t testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	newerOnce.Do(func() {
		path := os.Getenv(NewerSpecEnv)
		if path == "" {
			path = filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(specPath()))), newerRelPath)
		}
		newerLoaded = load(path)
		newerLoaded.opts = []openapi3.SchemaValidationOption{openapi3.WithStringFormatValidator("uri", openapi3.NewCallbackValidator(validateURI))}
	})
	newerLoaded.validate(t, req, status, header, body)
}

// pageEditedAttributes reads the contract's RevisionSemanticChangePageEdited.attributes as it
// means it: oneOf [document, group, link attributes], three open objects whose properties
// overlap (title, emoji, slug) and of which at least one property is required, so every object
// matches two or three branches and fails oneOf. It is read as anyOf the three, each closed to
// its own properties: an attribute no page type has still fails.
func pageEditedAttributes(doc *openapi3.T) {
	ref := doc.Components.Schemas["RevisionSemanticChangePageEdited"]
	if ref == nil || ref.Value == nil || ref.Value.Properties["attributes"] == nil {
		return
	}
	attrs := ref.Value.Properties["attributes"].Value
	if attrs == nil || len(attrs.OneOf) == 0 {
		return
	}
	closed := false
	var branches openapi3.SchemaRefs
	for _, b := range attrs.OneOf {
		if b == nil || b.Value == nil {
			return
		}
		c := *b.Value
		c.AdditionalProperties = openapi3.AdditionalProperties{Has: &closed}
		branches = append(branches, &openapi3.SchemaRef{Value: &c})
	}
	ref.Value.Properties["attributes"] = &openapi3.SchemaRef{Value: &openapi3.Schema{AnyOf: branches}}
}

// redirectSourcePattern reads the newer contract's SiteRedirectSourcePath without its lookaheads,
// which Go's regular expressions do not have: (?!\*) and (?!.*\*.+) forbid a source starting
// with * and a * before the end, which the rest of the pattern (a first segment of at least one
// character, * only in the optional ending /* or *) already does. Same strings, RE2's syntax.
func redirectSourcePattern(doc *openapi3.T) {
	ref := doc.Components.Schemas["SiteRedirectSourcePath"]
	if ref == nil || ref.Value == nil {
		return
	}
	ref.Value.Pattern = strings.Replace(ref.Value.Pattern, `(?!\*)(?!.*\*.+)`, "", 1)
}
