package rest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// BenchmarkSearch100k searches a space of 100,000 pages (100 groups of 1,000 documents, about 60
// words each drawn from a Zipf-distributed vocabulary of 5,000 words) through the REST door, on
// each database, and reports the median and 99th-percentile latency of a mix of queries (rare
// and common words, two words, a phrase, an exclusion, OR). Generating the space takes a minute
// or two, so it runs only as a benchmark:
//
//	go test ./rest/ -run '^$' -bench Search100k -benchtime 200x
func BenchmarkSearch100k(b *testing.B) {
	for _, d := range storagetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			s := storagetest.Open(b, d)
			res := &graph.Resolver{Store: s, Settings: graph.Settings{PublicURL: "https://bindery.test", AppURL: "https://app.bindery.test"}, Now: time.Now}
			h := rest.NewServer(res)
			ctx := context.Background()
			boot, err := res.Bootstrap(ctx, graph.BootstrapInput{OrgTitle: "Bench", Email: "bench@search.test", Name: "Bench"})
			if err != nil {
				b.Fatal(err)
			}
			sp := &storage.Space{OrganizationID: boot.OrganizationID, Title: "Big", EditMode: "live", MergeRules: `{"type":"inherit"}`, CreatedAt: time.Now(), UpdatedAt: time.Now()}
			if err := s.CreateSpace(ctx, sp, ""); err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			vocabulary := benchVocabulary(5000)
			generateSearchSpace(b, s, sp, vocabulary, 100, 1000)
			b.Logf("%s: generated 100,000 pages in %s", d, time.Since(start).Round(time.Second))

			// Word ranks: 0 is the most common.
			queries := []string{
				vocabulary[4000],                       // rare
				vocabulary[300],                        // medium
				vocabulary[5],                          // very common
				vocabulary[40] + " " + vocabulary[700], // two words
				`"` + vocabulary[0] + " " + vocabulary[1] + `"`, // a phrase
				vocabulary[60] + " -" + vocabulary[2],           // an exclusion
				vocabulary[3000] + " OR " + vocabulary[3500],    // OR
				"topic 4242", // a title
			}
			for _, door := range []struct{ name, path string }{
				{"space", "/v1/spaces/" + sp.ID + "/search"},
				{"org", "/v1/orgs/" + boot.OrganizationID + "/search"},
			} {
				b.Run(door.name, func(b *testing.B) {
					latencies := make([]time.Duration, 0, b.N)
					b.ResetTimer()
					for i := range b.N {
						q := queries[i%len(queries)]
						req := httptest.NewRequest("GET", door.path+"?limit=10&query="+url.QueryEscape(q), nil)
						req.Header.Set("Authorization", "Bearer "+boot.Token)
						rec := httptest.NewRecorder()
						t0 := time.Now()
						h.ServeHTTP(rec, req)
						latencies = append(latencies, time.Since(t0))
						if rec.Code != http.StatusOK {
							b.Fatalf("search %q: %d %s", q, rec.Code, rec.Body)
						}
					}
					b.StopTimer()
					slices.Sort(latencies)
					ms := func(p float64) float64 {
						return float64(latencies[min(len(latencies)-1, int(p*float64(len(latencies))))].Microseconds()) / 1000
					}
					b.ReportMetric(ms(0.5), "median-ms")
					b.ReportMetric(ms(0.99), "p99-ms")
				})
			}
		})
	}
}

// benchVocabulary makes n distinct pronounceable words.
func benchVocabulary(n int) []string {
	syllables := strings.Fields("ka lo mi ne ru sa ti vo ze ba de fi go hu ja ke li mo nu pa re si to vu wa xe yo zu")
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		var w strings.Builder
		for range 2 + r.IntN(3) {
			w.WriteString(syllables[r.IntN(len(syllables))])
		}
		if s := w.String(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// generateSearchSpace writes groups × perGroup document pages into a space, a group per edit.
func generateSearchSpace(b *testing.B, s *storage.Store, sp *storage.Space, vocabulary []string, groups, perGroup int) {
	b.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(vocabulary)-1))
	words := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = vocabulary[zipf.Uint64()]
		}
		return strings.Join(ws, " ")
	}
	now := time.Now()
	n := 0
	for g := range groups {
		_, err := s.EditContent(context.Background(), storage.EditTarget{SpaceID: sp.ID}, "", func() time.Time { return now }, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
			e := &storage.Edit{}
			groupID := fmt.Sprintf("group%03d", g)
			e.Pages = append(e.Pages, &storage.PageVersion{PageID: groupID, Position: float64(g), Type: "group", Title: "Group " + words(1), Slug: groupID, CreatedAt: now, UpdatedAt: now})
			for i := range perGroup {
				n++
				md := fmt.Sprintf("%s\n\n## %s\n\n%s\n\n## %s\n\n%s", words(20), words(2), words(20), words(2), words(20))
				id := storage.ContentID(sp.OrganizationID, md)
				e.Contents = append(e.Contents, &storage.PageContent{Markdown: md})
				e.Pages = append(e.Pages, &storage.PageVersion{
					PageID: fmt.Sprintf("page%06d", n), ParentID: &groupID, Position: float64(i), Type: "document",
					Title: fmt.Sprintf("Topic %d %s", n, words(2)), Slug: fmt.Sprintf("topic-%d", n), ContentID: &id, CreatedAt: now, UpdatedAt: now,
				})
			}
			return e, nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
