package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bindery/bindery/storage/storagetest"
)

// BenchmarkSpaceGrowth: an organization of 100, 1,000 and 10,000 spaces (see scaleOf: 10,000
// spaces in 1,000 collections, 500 teams, 2,000 members), read by an edit member in three teams,
// over real HTTP on loopback with concurrent clients, on both databases. For each size it
// reports the p50 and p99 latency of listing the first 100 spaces and of reading one space,
// through REST and GraphQL. Flat figures across sizes are the point
// (bench/results/2026-11-27-growth.md).
//
//	go test ./rest/ -run '^$' -bench SpaceGrowth -benchtime 1x
//
//	BINDERY_GROWTH_SIZES        sizes to build (default 100,1000,10000)
//	BINDERY_SBS_DURATION_MS     length of one measurement in milliseconds (default 2000)
//	BINDERY_SBS_CLIENTS         concurrent clients (default 32)
func BenchmarkSpaceGrowth(b *testing.B) {
	sizes := []int{100, 1000, 10000}
	if testing.Short() { // the 10,000-space organization takes minutes to build
		sizes = sizes[:2]
	}
	if v := os.Getenv("BINDERY_GROWTH_SIZES"); v != "" {
		sizes = nil
		for _, f := range strings.Split(v, ",") {
			var n int
			if _, err := fmt.Sscan(f, &n); err == nil && n > 0 {
				sizes = append(sizes, n)
			}
		}
	}
	for _, d := range storagetest.Dialects {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("%s/spaces=%d", d, n), func(b *testing.B) {
				s := sbsSetup(b, d)
				db := bulkDB(b, d, s.dsn)
				start := time.Now()
				o := growOrg(b, s.env, db, "grown", n)
				db.Close()
				fmt.Fprintf(os.Stderr, "growth/%s/%d: loaded in %v\n", d, n, time.Since(start).Round(time.Millisecond))
				srv := httptest.NewServer(s.env.h)
				defer srv.Close()

				listBody, _ := json.Marshal(map[string]any{"query": growthListQuery, "variables": map[string]any{"o": o.id}})
				var next atomic.Int64
				pointID := func() string { return o.visible[int(next.Add(1))%len(o.visible)] }
				ops := []struct {
					name string
					req  func() *http.Request
				}{
					{"rest-list", func() *http.Request { return sbsGet(srv.URL+"/v1/orgs/"+o.id+"/spaces?limit=100", o.caller.Token) }},
					{"graphql-list", func() *http.Request { return sbsPost(srv.URL+"/graphql", o.caller.Token, listBody) }},
					{"rest-get", func() *http.Request { return sbsGet(srv.URL+"/v1/spaces/"+pointID(), o.caller.Token) }},
					{"graphql-get", func() *http.Request {
						body, _ := json.Marshal(map[string]any{"query": growthSpaceQuery, "variables": map[string]any{"id": pointID()}})
						return sbsPost(srv.URL+"/graphql", o.caller.Token, body)
					}},
				}
				growthCheck(b, ops[0].req())
				duration := time.Duration(envInt("BINDERY_SBS_DURATION_MS", 2000)) * time.Millisecond
				clients := envInt("BINDERY_SBS_CLIENTS", 32)
				client := &http.Client{Transport: &http.Transport{MaxIdleConns: 2 * clients, MaxIdleConnsPerHost: 2 * clients}}
				var line []string
				for _, op := range ops {
					run(b, client, clients, 200*time.Millisecond, op.req) // warm up
					r := run(b, client, clients, duration, op.req)
					slices.Sort(r.lat)
					b.ReportMetric(float64(r.pct(0.5).Microseconds())/1000, op.name+"-p50-ms")
					b.ReportMetric(float64(r.pct(0.99).Microseconds())/1000, op.name+"-p99-ms")
					line = append(line, fmt.Sprintf("%s %.0f req/s p50 %v p99 %v", op.name, r.rate(), r.pct(0.5).Round(10*time.Microsecond), r.pct(0.99).Round(10*time.Microsecond)))
				}
				fmt.Fprintf(os.Stderr, "growth/%s/%d: %s\n", d, n, strings.Join(line, "; "))
			})
		}
	}
}

// growthCheck fails unless a list request answers a page of 90 to 100 spaces (one collection in
// ten is closed to the caller).
func growthCheck(b *testing.B, req *http.Request) {
	b.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var l spaceList
	if err := json.NewDecoder(res.Body).Decode(&l); err != nil || res.StatusCode != http.StatusOK || len(l.Items) < 90 {
		b.Fatalf("list: status %d, %d spaces (%v), want 90 to 100", res.StatusCode, len(l.Items), err)
	}
}
