package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/doors"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/rest/contracttest"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/blob"
	"github.com/bindery/bindery/storage/blob/blobtest"
	"github.com/bindery/bindery/storage/storagetest"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestMain(m *testing.M) {
	// Request lines are noise here; errors (internal failures) still show.
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	code := storagetest.Run(m, storage.WithSearchTextIncluding(document.SearchTextIncluding, domain.IncludedForSearch)) // search reads markdown as the server does
	// .ci/run reads this line to prove the contract tests ran.
	fmt.Printf("contract validations: %d\n", contracttest.Validated())
	os.Exit(code)
}

// env is a full Bindery stack over one real database: the HTTP handler cmd/bindery serves, a
// clock that ticks a millisecond per reading, and helpers to call both doors.
type env struct {
	t     testing.TB
	store *storage.Store
	res   *domain.App
	h     http.Handler

	runner *jobs.Runner // background jobs, started by the first runJobs
}

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// eachDB runs fn on SQLite and on PostgreSQL, each with a fresh database and stack. Nothing is
// shared between tests, so the test runs in parallel with the others (-parallel bounds how many).
func eachDB(t *testing.T, fn func(t *testing.T, e *env)) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, s *storage.Store) { fn(t, newEnv(t, s)) })
}

// eachDBAlone is eachDB for a test that measures the whole process: its heap (no other test's
// live data may count as its own). It is not parallel, so it runs before the package's parallel
// tests are released, one database after the other. Tests that count statements use
// eachDBCounting instead: their counts do not depend on what else runs.
func eachDBAlone(t *testing.T, fn func(t *testing.T, e *env)) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) { fn(t, newEnv(t, storagetest.Open(t, d))) })
	}
}

// eachDBCounting is eachDB for a test that counts the statements a request costs. Each
// database's run is a synctest bubble, whose clock moves only when every goroutine in it is
// blocked: a loader's window or fallback ends only once every sibling that was going to join its
// batch has joined (or is blocked on something else), however slowly a loaded machine runs them.
// A count is the same on a loaded machine as on a quiet one, so these tests run in parallel with
// the others.
func eachDBCounting(t *testing.T, fn func(t *testing.T, e *env)) {
	t.Parallel()
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			dsn := storagetest.DSN(t, d)
			synctest.Test(t, func(t *testing.T) { fn(t, newEnv(t, storagetest.OpenDSN(t, d, dsn))) })
		})
	}
}

func newEnv(t testing.TB, s *storage.Store) *env {
	var mu sync.Mutex
	now := t0
	res := &domain.App{
		Store: s,
		// A single sign-on provider is configured, as organizations that require it need one
		// (signin's tests cover the refusal without one).
		Settings: domain.Settings{PublicURL: "https://bindery.test", AppURL: "https://app.bindery.test", Version: "test", Build: "go-test", SingleSignOn: "Test SSO"},
		Now: func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			now = now.Add(time.Millisecond)
			return now
		},
		// Tests ask no real DNS: a host name has no CNAME unless a test says otherwise.
		LookupCNAME: func(context.Context, string) (string, error) { return "", errors.New("no DNS in tests") },
	}
	// BINDERY_TEST_FILES=s3 keeps every test's files in a bucket of an in-process S3 server
	// instead of a directory (TestFilesInS3 does so always).
	location := t.TempDir()
	if os.Getenv("BINDERY_TEST_FILES") == "s3" {
		location = blobtest.NewS3(t).Location
	}
	blobs, err := blob.Open(context.Background(), location)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { blobs.Close() })
	res.Blobs = blobs
	return &env{t: t, store: s, res: res, h: rest.NewServerWith(res, doors.Mount(res, rest.Options{RateLimits: &suiteRateLimits}))}
}

// suiteRateLimits are rate limits no test reaches except those about them: every answer carries
// the X-RateLimit-* headers, and nothing is throttled.
var suiteRateLimits = rest.RateLimits{Token: 1 << 30, Address: 1 << 30, AuthFailures: 1 << 30, Window: time.Minute}

// runJobs starts the background job workers (once per env, stopped when the test ends) and waits
// until every queued job has run. Tests call it after an operation that queues work.
func (e *env) runJobs() {
	e.t.Helper()
	if e.runner == nil {
		runner, err := e.res.StartJobs(context.Background(), jobs.Config{PollInterval: 20 * time.Millisecond})
		if err != nil {
			e.t.Fatalf("start jobs: %v", err)
		}
		e.t.Cleanup(func() { runner.Stop(context.Background()) })
		e.runner = runner
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := e.runner.WaitIdle(ctx); err != nil {
		e.t.Fatalf("wait for jobs: %v", err)
	}
}

// stopJobs stops the background job workers, so that queued jobs wait until the next runJobs.
func (e *env) stopJobs() {
	e.t.Helper()
	if e.runner != nil {
		if err := e.runner.Stop(context.Background()); err != nil {
			e.t.Fatalf("stop jobs: %v", err)
		}
		e.runner = nil
	}
}

// account is a user with a token.
type account struct {
	ID, Email, Token string
}

// org bootstraps an organization and returns its id and admin.
func (e *env) org(title, adminEmail string) (string, account) {
	e.t.Helper()
	c, err := e.res.Bootstrap(context.Background(), domain.BootstrapInput{OrgTitle: title, Email: adminEmail, Name: "Admin " + title})
	if err != nil {
		e.t.Fatalf("bootstrap %s: %v", title, err)
	}
	return c.OrganizationID, account{ID: c.UserID, Email: adminEmail, Token: c.Token}
}

// member creates a user and, when orgID is set, adds them with role ("guest" for none).
func (e *env) member(orgID, email, role string) account {
	e.t.Helper()
	c, err := e.res.CreateUser(context.Background(), domain.CreateUserInput{Email: email, Name: strings.Split(email, "@")[0], OrganizationID: orgID, Role: role})
	if err != nil {
		e.t.Fatalf("create user %s: %v", email, err)
	}
	return account{ID: c.UserID, Email: email, Token: c.Token}
}

// response is one REST answer.
type response struct {
	t      testing.TB
	Status int
	Header http.Header
	Body   []byte
}

// decode unmarshals the body into v.
func (r response) decode(v any) {
	r.t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		r.t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// object decodes the body as a JSON object.
func (r response) object() map[string]any {
	r.t.Helper()
	var m map[string]any
	r.decode(&m)
	return m
}

// want fails unless the status is status.
func (r response) want(status int) response {
	r.t.Helper()
	if r.Status != status {
		r.t.Fatalf("status = %d, want %d; body %s", r.Status, status, r.Body)
	}
	return r
}

// wantError fails unless the answer is the contract's error body with that status, and returns
// its message.
func (r response) wantError(status int) string {
	r.t.Helper()
	r.want(status)
	var body struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	r.decode(&body)
	if body.Error.Code != status || body.Error.Message == "" {
		r.t.Fatalf("error body = %s, want code %d and a message", r.Body, status)
	}
	return body.Error.Message
}

// call sends a REST request and validates the answer against the public contract.
func (e *env) call(token, method, path string, body any) response {
	e.t.Helper()
	return e.callCounted(token, method, path, body, nil)
}

// callCounted is call that also counts the SQL statements the request ran.
func (e *env) callCounted(token, method, path string, body any, statements *atomic.Int64) response {
	e.t.Helper()
	var reader *bytes.Reader
	switch b := body.(type) {
	case nil:
		reader = bytes.NewReader(nil)
	case string:
		reader = bytes.NewReader([]byte(b))
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		reader = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, "/v1"+path, reader)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req, rec := e.serve(req, token, statements)
	res := response{t: e.t, Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
	if !rest.IsExtensionRequest(method, strings.SplitN(path, "?", 2)[0]) {
		contracttest.Validate(e.t, req, res.Status, res.Header, res.Body)
	}
	return res
}

// serve runs req as token, counting its SQL statements into statements when that is not nil.
func (e *env) serve(req *http.Request, token string, statements *atomic.Int64) (*http.Request, *httptest.ResponseRecorder) {
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if statements != nil {
		req = req.WithContext(storage.WithQueryCounter(req.Context(), statements))
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return req, rec
}

// gqlResult is one GraphQL answer.
type gqlResult struct {
	t      testing.TB
	Status int
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

// ok fails on any error and decodes data into v (when v is not nil).
func (g gqlResult) ok(v any) {
	g.t.Helper()
	if len(g.Errors) > 0 {
		g.t.Fatalf("GraphQL errors: %+v", g.Errors)
	}
	if v != nil {
		if err := json.Unmarshal(g.Data, v); err != nil {
			g.t.Fatalf("decode data %s: %v", g.Data, err)
		}
	}
}

// code returns the extensions.code of the first error, failing when there is none.
func (g gqlResult) code() string {
	g.t.Helper()
	if len(g.Errors) == 0 {
		g.t.Fatalf("want a GraphQL error, got data %s", g.Data)
	}
	c, _ := g.Errors[0].Extensions["code"].(string)
	return c
}

// gql posts a GraphQL operation.
func (e *env) gql(token, query string, vars map[string]any) gqlResult {
	e.t.Helper()
	return e.gqlCounted(token, query, vars, nil)
}

func (e *env) gqlCounted(token, query string, vars map[string]any, statements *atomic.Int64) gqlResult {
	e.t.Helper()
	raw, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	return e.gqlBody(token, raw, statements)
}

// gqlRaw sends a GraphQL request body as it is, bytes a JSON encoder would not write included.
func (e *env) gqlRaw(token, body string) gqlResult {
	e.t.Helper()
	return e.gqlBody(token, []byte(body), nil)
}

func (e *env) gqlBody(token string, raw []byte, statements *atomic.Int64) gqlResult {
	e.t.Helper()
	req := httptest.NewRequest("POST", "/graphql", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	_, rec := e.serve(req, token, statements)
	out := gqlResult{t: e.t, Status: rec.Code}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		e.t.Fatalf("GraphQL answer %d is not JSON: %s", rec.Code, rec.Body)
	}
	return out
}

var (
	idPattern   = regexp.MustCompile(`"[0-9A-Za-z]{20}"`)
	idInURL     = regexp.MustCompile(`/[0-9A-Za-z]{20}(/|")`)
	timePattern = regexp.MustCompile(`"20\d\d-\d\d-\d\dT[0-9:.]+Z"`)
)

// golden compares a JSON body with testdata/<name>.golden.json, ids and times masked; -update
// rewrites the file.
func golden(t *testing.T, name string, body []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("golden %s: %v", name, err)
	}
	pretty, _ := json.MarshalIndent(v, "", "  ")
	masked := timePattern.ReplaceAll(pretty, []byte(`"<time>"`))
	masked = idInURL.ReplaceAll(masked, []byte(`/<id>$1`))
	masked = idPattern.ReplaceAll(masked, []byte(`"<id>"`))
	path := filepath.Join("testdata", name+".golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(masked, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden %s: %v (run with -update to create it)", name, err)
	}
	if diff := cmp.Diff(strings.TrimSpace(string(want)), strings.TrimSpace(string(masked))); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}
