package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/openapidoc"
	"github.com/bindery/bindery/domain/safefetch"
	"github.com/bindery/bindery/storage"
)

// OpenAPI specifications: an organization's API descriptions, each named by a slug, with
// immutable versions. docs/openapi.md describes the rules.

// specReader returns an organization whose specifications the caller may read: members with a
// role (guests do not see them), with a token allowed to read them. Errors: NotFound, Forbidden.
func (r *App) specReader(ctx context.Context, orgID string) (*model.Organization, error) {
	org, err := r.OrganizationByID(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if org.Viewer == nil || org.Viewer.Role == nil {
		return nil, apperr.Forbiddenf("guests cannot see this organization's OpenAPI specifications")
	}
	if !authz.LimitFrom(ctx).Allows(authz.ScopeRead, authz.ScopeOpenAPIRead, authz.ScopeOpenAPIWrite) {
		return nil, apperr.Forbiddenf("this token's scopes do not allow reading OpenAPI specifications")
	}
	return org, nil
}

// specEditor returns an organization where the caller may create and change specifications:
// the create role (the contract's createOpenAPISpec permission). Errors: NotFound, Forbidden.
func (r *App) specEditor(ctx context.Context, orgID string) (*model.Organization, error) {
	org, err := r.OrganizationByID(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if !org.Permissions.CreateOpenAPISpec {
		return nil, apperr.Forbiddenf("you need the create role in this organization (and a token allowed openapi:write) to change OpenAPI specifications")
	}
	return org, nil
}

func (r *App) toSpec(org *model.Organization, s *storage.OpenAPISpec) *model.OpenAPISpec {
	out := &model.OpenAPISpec{
		Object: "openapi-spec", ID: s.ID, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, Slug: s.Slug,
		SourceURL: s.SourceURL, ProcessingState: s.ProcessingState, Visibility: "private",
		LastVersion: s.LastVersionID, LastProcessedAt: s.LastProcessedAt, LastProcessErrorCode: s.LastErrorCode,
		Permissions:    model.OpenAPISpecPermissions{View: true, Edit: org.Permissions.CreateOpenAPISpec},
		URLs:           model.OpenAPISpecURLs{Location: r.apiURL("/orgs/%s/openapi/%s", s.OrganizationID, s.Slug), App: r.Settings.AppURL + "/o/" + s.OrganizationID + "/openapi/" + s.Slug},
		OrganizationID: s.OrganizationID,
	}
	if s.LastErrors != nil {
		_ = json.Unmarshal([]byte(*s.LastErrors), &out.LastProcessedErrors)
	}
	return out
}

// OpenAPISpecs lists an organization's specifications by slug. Errors: Invalid, NotFound,
// Forbidden.
func (r *App) OpenAPISpecs(ctx context.Context, orgID string, first *int, after *string) (*model.OpenAPISpecConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	org, err := r.specReader(ctx, orgID)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.SpecPage(ctx, org.ID, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, func(s *storage.OpenAPISpec) *model.OpenAPISpec { return r.toSpec(org, s) }), nil
}

// OpenAPISpecBySlug returns a specification by slug. Errors: NotFound, Forbidden.
func (r *App) OpenAPISpecBySlug(ctx context.Context, orgID, slug string) (*model.OpenAPISpec, error) {
	org, err := r.specReader(ctx, orgID)
	if err != nil {
		return nil, err
	}
	s, err := r.Store.FindSpec(ctx, org.ID, slug)
	if err != nil {
		return nil, notFound(err, "OpenAPI specification")
	}
	return r.toSpec(org, s), nil
}

// CreateOpenAPISpec creates a specification; its slug must be free. Errors: Invalid (also a
// document the library refuses, with its message and location), NotFound, Forbidden, Conflict.
func (r *App) CreateOpenAPISpec(ctx context.Context, orgID string, in model.CreateOpenAPISpecInput) (*model.OpenAPISpec, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	spec, _, err := r.saveSpec(ctx, orgID, in.Slug, in.Source, true)
	return spec, err
}

// PutOpenAPISpec creates the specification named slug or updates its source. New content makes
// a new version; the same content makes none; a URL source is fetched again (a refresh).
// It reports whether the specification was created. Errors: Invalid, NotFound, Forbidden.
func (r *App) PutOpenAPISpec(ctx context.Context, orgID, slug string, in model.PutOpenAPISpecInput) (*model.OpenAPISpec, bool, error) {
	if err := model.ValidateSpecSlug("specSlug", slug); err != nil {
		return nil, false, err
	}
	if err := in.Validate(); err != nil {
		return nil, false, err
	}
	return r.saveSpec(ctx, orgID, slug, in.Source, false)
}

// RefreshOpenAPISpec fetches a URL-sourced specification again; a version is made only when the
// content changed. Errors: NotFound, Forbidden, Invalid (a text source).
func (r *App) RefreshOpenAPISpec(ctx context.Context, orgID, slug string) (*model.OpenAPISpec, error) {
	org, err := r.specEditor(ctx, orgID)
	if err != nil {
		return nil, err
	}
	s, err := r.Store.FindSpec(ctx, org.ID, slug)
	if err != nil {
		return nil, notFound(err, "OpenAPI specification")
	}
	if s.SourceURL == nil {
		return nil, apperr.Invalidf("specSlug", "this specification has a text source: there is nothing to fetch")
	}
	spec, _, err := r.saveSpec(ctx, orgID, slug, model.OpenAPISpecSource{URL: s.SourceURL}, false)
	return spec, err
}

func (r *App) saveSpec(ctx context.Context, orgID, slug string, src model.OpenAPISpecSource, createOnly bool) (*model.OpenAPISpec, bool, error) {
	org, err := r.specEditor(ctx, orgID)
	if err != nil {
		return nil, false, err
	}
	w := storage.SpecWrite{OrganizationID: org.ID, Slug: slug, CreateOnly: createOnly, Now: r.Now()}
	if src.Text != nil {
		doc, err := openapidoc.Parse(ctx, []byte(*src.Text))
		var p *openapidoc.Problem
		if errors.As(err, &p) {
			return nil, false, apperr.Invalidf("source.text", "%s", p.Error())
		}
		if err != nil {
			return nil, false, err // the request's context ended
		}
		w.Content, w.Hash, w.State = src.Text, doc.Hash, "complete"
	} else {
		if err := r.Settings.Fetch.Check(*src.URL); err != nil {
			return nil, false, apperr.Invalidf("source.url", "%s", err.Error())
		}
		url := *src.URL
		w.SourceURL, w.State = &url, "pending"
		w.Fetch = func(s *storage.OpenAPISpec) storage.JobArgs { return openAPIFetchArgs{SpecID: s.ID, URL: url} }
	}
	typ := EventOpenAPISpecCreated
	if !createOnly { // a put replaces the specification when the slug has one
		if _, err := r.Store.FindSpec(ctx, org.ID, slug); err == nil {
			typ = EventOpenAPISpecUpdated
		} else if !errors.Is(err, storage.ErrNotFound) {
			return nil, false, err
		}
	}
	ctx = r.emit(ctx, orgObjectEvent(typ, org.ID, "openapi-spec", slug, slug), nil)
	s, created, err := r.Store.SaveSpec(ctx, w)
	if errors.Is(err, storage.ErrConflict) {
		return nil, false, apperr.Conflictf("an OpenAPI specification with the slug %q exists already", slug)
	}
	if err != nil {
		return nil, false, err
	}
	return r.toSpec(org, s), created, nil
}

// openAPIFetchArgs asks for a specification's URL to be fetched (no secret in it: URLs with
// credentials are refused).
type openAPIFetchArgs struct {
	SpecID string `json:"specId"`
	URL    string `json:"url"`
}

func (openAPIFetchArgs) Kind() string { return "openapi_fetch" }

func init() {
	addJobKinds(func(r *App, reg *jobs.Registry) {
		jobs.Add(reg, r.workOpenAPIFetch, jobs.Timeout(2*time.Minute),
			jobs.GiveUp(func(ctx context.Context, job *jobs.Job[openAPIFetchArgs], cause error) {
				// The last attempt ended in the server's own error: the spec must not stay "progress".
				slog.ErrorContext(ctx, "OpenAPI fetch abandoned", "spec", job.Args.SpecID, "attempts", job.Attempt, "err", cause)
				if err := r.specFailed(ctx, job.Args, "FETCH_ERROR", "the fetch stopped on an internal error; fetch again", ""); err != nil {
					slog.ErrorContext(ctx, "OpenAPI fetch: recording the failure", "spec", job.Args.SpecID, "err", err)
				}
			}))
	})
}

// workOpenAPIFetch fetches a specification's URL with the safe fetcher, validates what came
// back and records a version (when the content changed) or the error on the specification.
// Failures are the resource's state, not the job's: the job does not retry them.
func (r *App) workOpenAPIFetch(ctx context.Context, job *jobs.Job[openAPIFetchArgs]) error {
	a := job.Args
	if err := r.Store.SetSpecState(ctx, a.SpecID, "progress"); err != nil {
		return err
	}
	body, err := r.Settings.Fetch.Get(ctx, a.URL)
	if err != nil {
		code := "FETCH_ERROR"
		var fe *safefetch.Error
		if errors.As(err, &fe) && fe.Timeout {
			code = "FETCH_TIMEOUT"
		}
		return r.specFailed(ctx, a, code, err.Error(), "")
	}
	// The referenced files are fetched within the same time limit as one document, so that a
	// failure is still recorded before the job's own deadline.
	fctx, cancel := context.WithTimeout(ctx, r.Settings.Fetch.FetchTimeout())
	defer cancel()
	doc, err := openapidoc.ParseURL(fctx, body, a.URL, r.Settings.Fetch.Get)
	if err != nil {
		var p *openapidoc.Problem
		var re *openapidoc.RefError
		switch {
		case errors.As(err, &p):
			return r.specFailed(ctx, a, "PARSE_ERROR", p.Message, p.Location)
		case errors.As(err, &re):
			code := "FETCH_ERROR"
			var fe *safefetch.Error
			if errors.As(err, &fe) && fe.Timeout {
				code = "FETCH_TIMEOUT"
			}
			return r.specFailed(ctx, a, code, re.Error(), "$ref")
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			return r.specFailed(ctx, a, "FETCH_TIMEOUT", "reading the document and its files took too long", "")
		}
		return err // the job's own context ended: it runs again
	}
	content := string(body)
	files, err := filesText(doc.Files)
	if err != nil {
		return err
	}
	err = r.Store.SpecFetched(ctx, a.SpecID, a.URL, &content, files, doc.Hash, "", "", r.Now())
	if errors.Is(err, storage.ErrNotFound) {
		return nil // the specification was deleted meanwhile
	}
	return err
}

// filesText is how a document's referenced files are stored: a JSON object of their texts by
// path (nil when there are none).
func filesText(files map[string][]byte) (*string, error) {
	if len(files) == 0 {
		return nil, nil
	}
	texts := make(map[string]string, len(files))
	for name, b := range files {
		texts[name] = string(b)
	}
	b, err := json.Marshal(texts)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}

// storedFiles reads a version's referenced files back.
func storedFiles(v *storage.OpenAPISpecVersion) (map[string]string, error) {
	files := map[string]string{}
	if v.Files == nil {
		return files, nil
	}
	if err := json.Unmarshal([]byte(*v.Files), &files); err != nil {
		return nil, fmt.Errorf("read the files of OpenAPI version %s: %w", v.ID, err)
	}
	return files, nil
}

// specDoc parses a stored version (with its files) to generate pages from it. It was valid when
// stored; the files are served from the version, never fetched again.
func specDoc(ctx context.Context, v *storage.OpenAPISpecVersion) (*openapidoc.Doc, error) {
	if v.Files == nil || v.SourceURL == nil {
		return openapidoc.Parse(ctx, []byte(v.Content))
	}
	files, err := storedFiles(v)
	if err != nil {
		return nil, err
	}
	root, err := url.Parse(*v.SourceURL)
	if err != nil {
		return nil, fmt.Errorf("OpenAPI version %s: %w", v.ID, err)
	}
	return openapidoc.ParseURL(ctx, []byte(v.Content), *v.SourceURL, func(_ context.Context, at string) ([]byte, error) {
		u, err := url.Parse(at)
		if err != nil {
			return nil, err
		}
		text, ok := files[openapidoc.RelPath(root.Path, u.Path)]
		if !ok {
			return nil, fmt.Errorf("the version holds no file %s", at)
		}
		return []byte(text), nil
	})
}

func (r *App) specFailed(ctx context.Context, a openAPIFetchArgs, code, message, location string) error {
	b, _ := json.Marshal([]model.OpenAPIError{{Message: message, Code: code, Location: location}})
	err := r.Store.SpecFetched(ctx, a.SpecID, a.URL, nil, nil, "", code, string(b), r.Now())
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	return err
}

// OpenAPISpecVersions lists a specification's versions, newest first. Errors: Invalid,
// NotFound, Forbidden.
func (r *App) OpenAPISpecVersions(ctx context.Context, spec *model.OpenAPISpec, first *int, after *string) (*model.OpenAPISpecVersionConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.SpecVersionPage(ctx, spec.ID, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, func(v *storage.OpenAPISpecVersion) *model.OpenAPISpecVersion { return r.toSpecVersion(spec, v) }), nil
}

// OpenAPISpecVersionByID returns one version of a specification by id, or its latest for "latest".
// Errors: NotFound.
func (r *App) OpenAPISpecVersionByID(ctx context.Context, spec *model.OpenAPISpec, id string) (*model.OpenAPISpecVersion, error) {
	v, err := r.specVersion(ctx, spec, id, false)
	if err != nil {
		return nil, err
	}
	return r.toSpecVersion(spec, v), nil
}

// OpenAPISpecVersionContent returns a version's document ("latest" for the newest) and the
// files it references, as JSON by path, with the URL it is reachable at. Errors: NotFound.
func (r *App) OpenAPISpecVersionContent(ctx context.Context, spec *model.OpenAPISpec, id string) (*model.OpenAPISpecContent, error) {
	v, err := r.specVersion(ctx, spec, id, true)
	if err != nil {
		return nil, err
	}
	doc, err := openapidoc.ToJSON([]byte(v.Content)) // valid when stored: not validated again
	if err != nil {
		return nil, err
	}
	all := map[string]json.RawMessage{specFileName(v): doc}
	files, err := storedFiles(v)
	if err != nil {
		return nil, err
	}
	for name, text := range files {
		if all[name], err = openapidoc.ToJSON([]byte(text)); err != nil {
			return nil, err
		}
	}
	fs, err := json.Marshal(all)
	if err != nil {
		return nil, err
	}
	return &model.OpenAPISpecContent{Filesystem: model.JSON(fs), URL: r.specVersionURL(spec, v)}, nil
}

func (r *App) specVersion(ctx context.Context, spec *model.OpenAPISpec, id string, withContent bool) (*storage.OpenAPISpecVersion, error) {
	if id == "latest" {
		if spec.LastVersion == nil {
			return nil, apperr.NotFoundf("this OpenAPI specification has no version yet")
		}
		id = *spec.LastVersion
	}
	v, err := r.Store.FindSpecVersion(ctx, spec.ID, id, withContent)
	if err != nil {
		return nil, notFound(err, "OpenAPI specification version")
	}
	return v, nil
}

func (r *App) toSpecVersion(spec *model.OpenAPISpec, v *storage.OpenAPISpecVersion) *model.OpenAPISpecVersion {
	return &model.OpenAPISpecVersion{Object: "openapi-spec-version", ID: v.ID, CreatedAt: v.CreatedAt, URL: r.specVersionURL(spec, v),
		URLs: model.LocationURLs{Location: r.apiURL("/orgs/%s/openapi/%s/versions/%s", spec.OrganizationID, spec.Slug, v.ID)}, Spec: spec}
}

// specVersionURL is where a version's document is reachable: its source URL when it was
// fetched, else its content in the API.
func (r *App) specVersionURL(spec *model.OpenAPISpec, v *storage.OpenAPISpecVersion) string {
	if v.SourceURL != nil {
		return *v.SourceURL
	}
	return r.apiURL("/orgs/%s/openapi/%s/versions/%s/content", spec.OrganizationID, spec.Slug, v.ID)
}

// specFileName names a version's document in its filesystem: the last segment of its URL, or
// "openapi.json" for a text source.
func specFileName(v *storage.OpenAPISpecVersion) string {
	if v.SourceURL != nil {
		if base := path.Base(strings.SplitN(*v.SourceURL, "?", 2)[0]); base != "" && base != "/" && base != "." && strings.Contains(base, ".") {
			return base
		}
	}
	return "openapi.json"
}
