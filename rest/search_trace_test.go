package rest_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/doors"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/storage"
	"github.com/uptrace/bun"
)

// traceHook writes each statement a request runs, with its duration.
type traceHook struct{ out *strings.Builder }

func (h traceHook) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context { return ctx }
func (h traceHook) AfterQuery(ctx context.Context, e *bun.QueryEvent) {
	q := e.Query
	if len(q) > 60 && os.Getenv("BINDERY_SEARCH_TRACE_SQL") == "" {
		q = q[:60]
	}
	fmt.Fprintf(h.out, "  %7.1f ms  %s\n", float64(time.Since(e.StartTime).Microseconds())/1000, q)
}

// TestSearchProbeTrace shows the statements of search requests over the benchmark's kept data
// (BenchmarkSearch100k, BINDERY_SEARCH_PROBE), each timed, to see where a query's time goes
// without a benchmark run. It runs only when asked:
//
//	BINDERY_SEARCH_PROBE=/tmp/probe BINDERY_SEARCH_TRACE=sqlite,postgres \
//	BINDERY_SEARCH_QUERIES='v5;topic 77;"v0 v1";v60 -v2' go test ./rest -run TestSearchProbeTrace -v
//
// vN is the benchmark vocabulary's word of rank N (0 the commonest); each query runs twice
// through each door. BINDERY_SEARCH_TRACE_SQL=1 prints the statements whole (for EXPLAIN).
func TestSearchProbeTrace(t *testing.T) {
	dir := os.Getenv("BINDERY_SEARCH_PROBE")
	if dir == "" || os.Getenv("BINDERY_SEARCH_TRACE") == "" {
		t.Skip("probe only")
	}
	vocabulary := benchVocabulary(5000)
	for _, d := range strings.Split(os.Getenv("BINDERY_SEARCH_TRACE"), ",") {
		s, probe := openSearchProbe(t, storage.Dialect(d), vocabulary)
		var out strings.Builder
		s.AddQueryHook(traceHook{&out})
		res := &domain.App{Store: s, Settings: domain.Settings{PublicURL: "https://bindery.test", AppURL: "https://app.bindery.test"}, Now: time.Now}
		h := rest.NewServerWith(res, doors.Mount(res, rest.Options{}))
		queries := strings.Split(os.Getenv("BINDERY_SEARCH_QUERIES"), ";")
		for _, door := range []struct{ name, path, token string }{
			{"space", "/v1/spaces/" + probe.SpaceID + "/search", probe.SpaceToken},
			{"org", "/v1/orgs/" + probe.OrgID + "/search", probe.OrgToken},
		} {
			for _, q := range queries {
				q = expandProbeQuery(q, vocabulary)
				for range 2 {
					out.Reset()
					req := httptest.NewRequest("GET", door.path+"?limit=10&query="+url.QueryEscape(q), nil)
					req.Header.Set("Authorization", "Bearer "+door.token)
					rec := httptest.NewRecorder()
					t0 := time.Now()
					h.ServeHTTP(rec, req)
					t.Logf("%s %s %q: %d in %s\n%s%.150s", d, door.name, q, rec.Code, time.Since(t0), out.String(), rec.Body.String())
				}
			}
		}
	}
}

// expandProbeQuery replaces vN with the vocabulary's word of rank N.
func expandProbeQuery(q string, vocabulary []string) string {
	f := strings.Fields(q)
	for i, w := range f {
		var n int
		pre := ""
		for len(w) > 0 && (w[0] == '"' || w[0] == '-') {
			pre, w = pre+w[:1], w[1:]
		}
		suf := ""
		if strings.HasSuffix(w, `"`) {
			w, suf = strings.TrimSuffix(w, `"`), `"`
		}
		if _, err := fmt.Sscanf(w, "v%d", &n); err == nil && strings.HasPrefix(w, "v") {
			w = vocabulary[n]
		}
		f[i] = pre + w + suf
	}
	return strings.Join(f, " ")
}
