package rest_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
	"github.com/go-chi/chi/v5"
)

// Side-by-side benchmarks: Bindery and a hand-written baseline over the same database, in the
// same run, over real HTTP on loopback with concurrent clients, alternating rounds so that the
// machine's load falls on both alike. Run them with bench/sidebyside.sh; the figures and the
// machine they were taken on are in bench/results/ (2026-11-27-side-by-side.md).
//
//	BINDERY_SBS_DURATION_MS  length of one round in milliseconds (default 2000)
//	BINDERY_SBS_ROUNDS    rounds of each contender (default 3)
//	BINDERY_SBS_CLIENTS   concurrent clients (default 32)

// BenchmarkSideBySideOrg: GET /v1/orgs/{id} with a token against a chi handler that reads the
// organization row by primary key with one hand-written statement.
func BenchmarkSideBySideOrg(b *testing.B) {
	for _, d := range storagetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			s := sbsSetup(b, d)
			orgID, admin := s.env.org("Bench", "admin@bench.test")
			base := s.baseline(s.baselineOrg)
			bindery := httptest.NewServer(s.env.h)
			defer bindery.Close()
			s.compare(b, "org",
				func() *http.Request { return sbsGet(base.URL+"/orgs/"+orgID, "") },
				func() *http.Request { return sbsGet(bindery.URL+"/v1/orgs/"+orgID, admin.Token) })
		})
	}
}

// baselineOrg routes GET /orgs/{id} to the baseline: the organization row by primary key, one
// hand-written prepared statement, four fields of JSON.
func (s *sbs) baselineOrg(r chi.Router, db *sql.DB) {
	q := s.sql(`SELECT id, title, type, created_at FROM organizations WHERE id = $1`)
	r.Get("/orgs/{id}", func(w http.ResponseWriter, req *http.Request) {
		var id, title, typ string
		var created time.Time
		if err := db.QueryRowContext(req.Context(), q, chi.URLParam(req, "id")).Scan(&id, &title, &typ, &created); err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "organization", "id": id, "title": title, "type": typ, "createdAt": created})
	})
}

// BenchmarkSideBySideNested: the nested GraphQL read of issue 11 (20 sites, 10 sections each, 5
// site spaces per section: 1,000 site spaces) against one hand-written statement that builds the
// same JSON in the database (json_agg on PostgreSQL, json_group_array on SQLite): the floor.
func BenchmarkSideBySideNested(b *testing.B) {
	const query = `query($o: ID!) { organization(id: $o) { sites(first: 20) { nodes { sections(first: 10) { nodes { siteSpaces { space { id title emoji visibility createdAt } } } } } } } }`
	for _, d := range storagetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			s := sbsSetup(b, d)
			orgID, admin := s.env.org("Bench", "admin@bench.test")
			s.nestedData(b, admin.Token, orgID)
			// Statistics as a running server's autovacuum would have them: without them both sides
			// are planned for empty tables.
			if err := s.env.store.Analyze(context.Background()); err != nil {
				b.Fatal(err)
			}
			floor := nestedFloorSQL(d)
			base := s.baseline(func(r chi.Router, db *sql.DB) {
				r.Get("/nested/{id}", func(w http.ResponseWriter, req *http.Request) {
					var doc string
					if err := db.QueryRowContext(req.Context(), floor, chi.URLParam(req, "id")).Scan(&doc); err != nil {
						http.Error(w, err.Error(), http.StatusInternalServerError)
						return
					}
					w.Header().Set("Content-Type", "application/json")
					io.WriteString(w, doc)
				})
			})
			bindery := httptest.NewServer(s.env.h)
			defer bindery.Close()
			body, _ := json.Marshal(map[string]any{"query": query, "variables": map[string]any{"o": orgID}})
			// Both answer the same shape: 20 sites × 10 sections × 5 site spaces.
			for _, req := range []*http.Request{sbsGet(base.URL+"/nested/"+orgID, ""), sbsPost(bindery.URL+"/graphql", admin.Token, body)} {
				if n := countSpaces(b, req); n != 1000 {
					b.Fatalf("%s answered %d site spaces, want 1000", req.URL, n)
				}
			}
			s.compare(b, "nested",
				func() *http.Request { return sbsGet(base.URL+"/nested/"+orgID, "") },
				func() *http.Request { return sbsPost(bindery.URL+"/graphql", admin.Token, body) })
		})
	}
}

// nestedFloorSQL returns the one statement that answers the nested read from the database.
func nestedFloorSQL(d storage.Dialect) string {
	if d == storage.Postgres {
		return `SELECT json_build_object('data', json_build_object('organization', json_build_object('sites', json_build_object('nodes', COALESCE((
  SELECT json_agg(json_build_object('sections', json_build_object('nodes', COALESCE((
    SELECT json_agg(json_build_object('siteSpaces', COALESCE((
      SELECT json_agg(json_build_object('space', json_build_object('id', sp.id, 'title', sp.title, 'emoji', sp.emoji, 'visibility', 'PRIVATE', 'createdAt', sp.created_at)) ORDER BY ss.position)
      FROM site_spaces ss JOIN spaces sp ON sp.id = ss.space_id AND sp.deleted_at IS NULL WHERE ss.section_id = sec.id), '[]'::json)) ORDER BY sec.position)
    FROM (SELECT * FROM site_sections WHERE site_id = si.id ORDER BY position LIMIT 10) sec), '[]'::json))) ORDER BY si.created_at DESC, si.id DESC)
  FROM (SELECT * FROM sites WHERE organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT 20) si), '[]'::json)))))::text`
	}
	return `SELECT json_object('data', json_object('organization', json_object('sites', json_object('nodes', COALESCE((
  SELECT json_group_array(json(site)) FROM (SELECT json_object('sections', json_object('nodes', COALESCE((
    SELECT json_group_array(json(section)) FROM (SELECT json_object('siteSpaces', COALESCE((
      SELECT json_group_array(json(item)) FROM (SELECT json_object('space', json_object('id', sp.id, 'title', sp.title, 'emoji', sp.emoji, 'visibility', 'PRIVATE', 'createdAt', sp.created_at)) AS item
      FROM site_spaces ss JOIN spaces sp ON sp.id = ss.space_id AND sp.deleted_at IS NULL WHERE ss.section_id = sec.id ORDER BY ss.position)), json('[]'))) AS section
    FROM (SELECT * FROM site_sections WHERE site_id = si.id ORDER BY position LIMIT 10) sec)), json('[]')))) AS site
  FROM (SELECT * FROM sites WHERE organization_id = ?1 ORDER BY created_at DESC, id DESC LIMIT 20) si)), json('[]'))))))`
}

type sbs struct {
	env  *env
	d    storage.Dialect
	dsn  string
	stop []func()
}

// sbsSetup opens a fresh database with the production pool (not the tests' small one) and
// Bindery over it.
func sbsSetup(b *testing.B, d storage.Dialect) *sbs {
	b.Helper()
	dsn := storagetest.DSN(b, d)
	store := storagetest.OpenAt(b, dsn, storage.WithTokenCache(storage.DefaultTokenTTL), storage.WithSearchTextIncluding(document.SearchTextIncluding, domain.IncludedForSearch)) // as the server opens it
	e := newEnv(b, store)
	return &sbs{env: e, d: d, dsn: dsn}
}

// sql writes a statement's placeholders for the dialect ($1 is ?1 on SQLite).
func (s *sbs) sql(q string) string {
	if s.d == storage.SQLite {
		return strings.ReplaceAll(q, "$", "?")
	}
	return q
}

// baseline serves routes over its own database/sql pool of the same database, sized like
// Bindery's.
func (s *sbs) baseline(routes func(chi.Router, *sql.DB)) *httptest.Server {
	driver, dsn := "pgx", s.dsn
	if s.d == storage.SQLite {
		driver, dsn = "sqlite", "file:"+s.dsn+"?_pragma=busy_timeout(10000)&_pragma=query_only(1)"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		panic(err)
	}
	db.SetMaxOpenConns(storage.DefaultMaxConns())
	db.SetMaxIdleConns(storage.DefaultMaxConns())
	r := chi.NewRouter()
	routes(r, db)
	srv := httptest.NewServer(r)
	s.stop = append(s.stop, func() { srv.Close(); db.Close() })
	return srv
}

// nestedData builds 20 sites of 10 sections with 5 site spaces each, over 50 spaces.
func (s *sbs) nestedData(b *testing.B, token, orgID string) {
	spaces := make([]string, 50)
	for i := range spaces {
		spaces[i] = s.env.call(token, "POST", "/orgs/"+orgID+"/spaces", fmt.Sprintf(`{"title":"Space %d"}`, i)).want(http.StatusCreated).object()["id"].(string)
	}
	for i := range 20 {
		site := s.env.call(token, "POST", "/orgs/"+orgID+"/sites", fmt.Sprintf(`{"title":"Site %d"}`, i)).want(http.StatusCreated).object()["id"].(string)
		for j := range 10 {
			sec := s.env.call(token, "POST", "/orgs/"+orgID+"/sites/"+site+"/sections", fmt.Sprintf(`{"spaceId":%q,"title":"Section %d"}`, spaces[j*5], j)).want(http.StatusCreated).object()["id"].(string)
			for k := 1; k < 5; k++ {
				s.env.call(token, "POST", "/orgs/"+orgID+"/sites/"+site+"/site-spaces", fmt.Sprintf(`{"spaceId":%q,"sectionId":%q}`, spaces[j*5+k], sec)).want(http.StatusCreated)
			}
		}
	}
}

func sbsGet(url, token string) *http.Request {
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}

func sbsPost(url, token string, body []byte) *http.Request {
	req, _ := http.NewRequest("POST", url, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}

var spaceKey = regexp.MustCompile(`"space"\s*:\s*\{`)

// countSpaces counts the "space" objects in an answer.
func countSpaces(b *testing.B, req *http.Request) int {
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		b.Fatalf("%s: %d %s", req.URL, res.StatusCode, body)
	}
	return len(spaceKey.FindAllIndex(body, -1))
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// result is one round of one contender.
type result struct {
	n        int
	duration time.Duration
	lat      []time.Duration
}

func (r result) rate() float64 { return float64(r.n) / r.duration.Seconds() }

func (r result) pct(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	return r.lat[min(len(r.lat)-1, int(p*float64(len(r.lat))))]
}

// compare runs baseline and Bindery in alternating rounds and reports their rates, the ratio and
// the latencies.
func (s *sbs) compare(b *testing.B, name string, baseline, bindery func() *http.Request) {
	defer func() {
		for _, f := range s.stop {
			f()
		}
	}()
	duration := time.Duration(envInt("BINDERY_SBS_DURATION_MS", 2000)) * time.Millisecond
	rounds, clients := envInt("BINDERY_SBS_ROUNDS", 3), envInt("BINDERY_SBS_CLIENTS", 32)
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 2 * clients, MaxIdleConnsPerHost: 2 * clients}}
	run(b, client, clients, 300*time.Millisecond, baseline) // warm both up
	run(b, client, clients, 300*time.Millisecond, bindery)
	var base, bin result
	for range rounds {
		r := run(b, client, clients, duration, baseline)
		base.n, base.duration, base.lat = base.n+r.n, base.duration+r.duration, append(base.lat, r.lat...)
		r = run(b, client, clients, duration, bindery)
		bin.n, bin.duration, bin.lat = bin.n+r.n, bin.duration+r.duration, append(bin.lat, r.lat...)
	}
	slices.Sort(base.lat)
	slices.Sort(bin.lat)
	b.ReportMetric(base.rate(), "baseline-req/s")
	b.ReportMetric(bin.rate(), "bindery-req/s")
	b.ReportMetric(bin.rate()/base.rate(), "ratio")
	b.ReportMetric(float64(bin.pct(0.99).Microseconds())/1000, "bindery-p99-ms")
	b.ReportMetric(float64(base.pct(0.99).Microseconds())/1000, "baseline-p99-ms")
	fmt.Fprintf(os.Stderr, "%s/%s: baseline %.0f req/s (p50 %v, p99 %v); bindery %.0f req/s (p50 %v, p99 %v); ratio %.2f×\n",
		name, s.d, base.rate(), base.pct(0.5).Round(10*time.Microsecond), base.pct(0.99).Round(10*time.Microsecond),
		bin.rate(), bin.pct(0.5).Round(10*time.Microsecond), bin.pct(0.99).Round(10*time.Microsecond), bin.rate()/base.rate())
}

// answered reports whether a body holds an answer: JSON data with no GraphQL "errors" and no
// contract error object.
func answered(body []byte) bool {
	return len(body) > 0 && !bytes.Contains(body, []byte(`"errors":`)) && !bytes.HasPrefix(body, []byte(`{"error":`))
}

// run keeps clients requests in flight for d and returns what they did.
func run(b *testing.B, client *http.Client, clients int, d time.Duration, next func() *http.Request) result {
	var (
		mu  sync.Mutex
		all result
		wg  sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(d)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			var body bytes.Buffer
			for time.Now().Before(deadline) {
				t := time.Now()
				res, err := client.Do(next())
				if err != nil {
					b.Error(err)
					return
				}
				body.Reset()
				_, err = body.ReadFrom(res.Body)
				res.Body.Close()
				took := time.Since(t)
				// An answer counts only when it is one: a 200 whose body is data, not a GraphQL
				// error list or the contract's error object.
				if err != nil || res.StatusCode != http.StatusOK || !answered(body.Bytes()) {
					b.Errorf("status %d (%v): %.300s", res.StatusCode, err, body.Bytes())
					return
				}
				lat = append(lat, took)
			}
			mu.Lock()
			all.n += len(lat)
			all.lat = append(all.lat, lat...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	all.duration = time.Since(start)
	return all
}

// BenchmarkOrgInProcess: one request at a time, in process (no HTTP connection), Bindery's
// GET /v1/orgs/{id} and the side-by-side baseline's handler: the CPU and allocations of one
// request, steadier than the concurrent figures on a shared machine, for profiling.
func BenchmarkOrgInProcess(b *testing.B) {
	for _, d := range storagetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			s := sbsSetup(b, d)
			orgID, admin := s.env.org("Bench", "admin@bench.test")
			var base http.Handler
			srv := s.baseline(func(r chi.Router, db *sql.DB) {
				s.baselineOrg(r, db)
				base = r
			})
			defer func() {
				for _, f := range s.stop {
					f()
				}
			}()
			_ = srv
			for _, c := range []struct {
				name string
				h    http.Handler
				req  func() *http.Request
			}{
				{"baseline", base, func() *http.Request { return httptest.NewRequest("GET", "/orgs/"+orgID, nil) }},
				{"bindery", s.env.h, func() *http.Request {
					req := httptest.NewRequest("GET", "/v1/orgs/"+orgID, nil)
					req.Header.Set("Authorization", "Bearer "+admin.Token)
					return req
				}},
			} {
				b.Run(c.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						rec := httptest.NewRecorder()
						c.h.ServeHTTP(rec, c.req())
						if rec.Code != http.StatusOK {
							b.Fatalf("status %d: %s", rec.Code, rec.Body)
						}
					}
				})
			}
		})
	}
}
