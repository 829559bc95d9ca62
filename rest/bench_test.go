package rest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// Benchmarks of the hot read paths, per database: go test -bench . -run '^$' ./rest/
// The figures and the machine they were taken on are in bench/results/.

func benchEnv(b *testing.B, d storage.Dialect, members int) (*env, string, account) {
	e := newEnv(b, storagetest.Open(b, d))
	orgID, admin := e.org("Bench", "admin@bench.test")
	for i := range members {
		e.member(orgID, fmt.Sprintf("m%03d@bench.test", i), "read")
	}
	return e, orgID, admin
}

func BenchmarkListMembersREST(b *testing.B) {
	for _, d := range storagetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			e, orgID, admin := benchEnv(b, d, 100)
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("GET", "/v1/orgs/"+orgID+"/members?limit=100", nil)
				req.Header.Set("Authorization", "Bearer "+admin.Token)
				rec := httptest.NewRecorder()
				e.h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d", rec.Code)
				}
			}
		})
	}
}

func BenchmarkListMembersGraphQL(b *testing.B) {
	const query = `{"query":"{ organizations { nodes { members(first: 100) { totalCount nodes { id role joinedAt user { id displayName email } } } } } }"}`
	for _, d := range storagetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			e, _, admin := benchEnv(b, d, 100)
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/graphql", strings.NewReader(query))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+admin.Token)
				rec := httptest.NewRecorder()
				e.h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"errors"`) {
					b.Fatalf("answer %d %s", rec.Code, rec.Body)
				}
			}
		})
	}
}

func BenchmarkSpacesWithPermissionsGraphQL(b *testing.B) {
	const query = `{"query":"{ organizations(first: 1) { nodes { spaces(first: 100) { totalCount nodes { id title permissions { edit admin } teamPermissions(first: 10) { nodes { permission team { id title members } } } } } } } }"}`
	for _, d := range storagetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			e, orgID, admin := benchEnv(b, d, 10)
			reader := e.member(orgID, "reader@bench.test", "read")
			team := e.call(admin.Token, "PUT", "/orgs/"+orgID+"/teams", `{"title":"Writers","members":["`+reader.ID+`"]}`).want(http.StatusCreated).object()["id"].(string)
			for i := range 100 {
				id := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", fmt.Sprintf(`{"title":"Space %d"}`, i)).want(http.StatusCreated).object()["id"].(string)
				e.call(admin.Token, "POST", "/spaces/"+id+"/permissions", `{"role":"edit","teams":["`+team+`"]}`).want(http.StatusNoContent)
			}
			// The answer is checked once whole: the reader sees all 100 spaces, with the team's grant.
			first := e.gqlRaw(reader.Token, query)
			first.ok(nil)
			if !strings.Contains(string(first.Data), `"totalCount":100`) || !strings.Contains(string(first.Data), `"permission":"EDIT"`) {
				b.Fatalf("the reader's spaces: %.300s", first.Data)
			}
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/graphql", strings.NewReader(query))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+reader.Token)
				rec := httptest.NewRecorder()
				e.h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"errors"`) {
					b.Fatalf("answer %d %s", rec.Code, rec.Body)
				}
			}
		})
	}
}
