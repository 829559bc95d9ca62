package domain

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// The request state without a database: memos, content sources by key, and what each request gets.

func TestMemoComputesOncePerOrganization(t *testing.T) {
	var m memo[string, map[string]int]
	var calls atomic.Int32
	load := func(org string) func() (map[string]int, error) {
		return func() (map[string]int, error) {
			calls.Add(1)
			return map[string]int{org: len(org)}, nil
		}
	}
	var wg sync.WaitGroup
	for range 20 { // resolvers running in parallel ask together
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v, err := m.get("acme", load("acme")); err != nil || v["acme"] != 4 {
				t.Errorf("acme = %v, %v", v, err)
			}
		}()
	}
	wg.Wait()
	if v, err := m.get("initech", load("initech")); err != nil || v["initech"] != 7 || v["acme"] != 0 {
		t.Fatalf("initech = %v, %v: each organization has its own value", v, err)
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("computed %d times, want once per organization (2)", n)
	}
}

func TestMemoKeepsAFailure(t *testing.T) {
	var m memo[string, *orgGrants]
	boom := errors.New("boom")
	calls := 0
	load := func() (*orgGrants, error) { calls++; return nil, boom }
	for range 3 {
		if v, err := m.get("acme", load); !errors.Is(err, boom) || v != nil {
			t.Fatalf("get = %v, %v; want the failure", v, err)
		}
	}
	if calls != 1 {
		t.Fatalf("a failed load ran %d times in one request, want 1", calls)
	}
}

// source is a content source of space s at revision rev, on line cr ("" for the space's own).
func source(s, cr, rev string, published bool) *ContentSource {
	return &ContentSource{Space: &model.Space{ID: s}, View: storage.View{SpaceID: s, ChangeRequestID: cr}, RevisionID: rev, published: published}
}

func TestSourcesAreKeptByRevision(t *testing.T) {
	ctx := withRequestState(context.Background(), nil)
	first := keepSource(ctx, source("s", "", "r1", false))
	if again := keepSource(ctx, source("s", "", "r1", false)); again != first {
		t.Fatal("a second read of the same revision got a source of its own: what the first read is lost")
	}
	for name, other := range map[string]*ContentSource{
		"another revision": source("s", "", "r2", false),
		// A change request opened without edits shows the space's revision on its own line.
		"a change request's line":    source("s", "cr", "r1", false),
		"a published site's visitor": source("s", "", "r1", true),
	} {
		if kept := keepSource(ctx, other); kept != other || kept == first {
			t.Errorf("%s shares the source of the space's revision", name)
		}
	}

	r := &App{}
	page := r.toPage(first, &storage.PageVersion{PageID: "p", Type: "document"})
	rev := r.toRevision(&storage.Revision{ID: "r1", SpaceID: "s", Parents: "[]"}, first)
	for name, key := range map[string]model.ContentKey{"page": page.Content, "revision": rev.Content} {
		if src, ok := SourceByKey(ctx, key); !ok || src != first {
			t.Errorf("the %s's key %+v does not find its source", name, key)
		}
	}
	if _, ok := SourceByKey(withRequestState(context.Background(), nil), page.Content); ok {
		t.Error("another request found this request's source")
	}
}

// A read without a request state is a door or a job that forgot to install one: in a test binary
// it panics rather than read on without batching or memos (stateOf, loader.Missing).
func TestReadsWithoutRequestStatePanicInTests(t *testing.T) {
	ctx := context.Background()
	for name, read := range map[string]func(){
		"keepSource":  func() { keepSource(ctx, source("s", "", "r1", false)) },
		"sourceByKey": func() { SourceByKey(ctx, model.ContentKey{SpaceID: "s"}) },
		"loaders":     func() { loader.For(ctx, nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s without a request state did not panic", name)
				}
			}()
			read()
		}()
	}
}

func TestEachRequestHasItsOwnState(t *testing.T) {
	app := &App{}
	var states []*requestState
	var loaders []*loader.Loaders
	for range 2 {
		ctx := app.WithRequestState(context.Background())
		if !HasRequestState(ctx) || stateOf(ctx) != stateOf(ctx) || loader.For(ctx, nil) != loader.For(ctx, nil) {
			t.Error("operations of one request see different states")
		}
		states, loaders = append(states, stateOf(ctx)), append(loaders, loader.For(ctx, nil))
	}
	if len(states) != 2 || states[0] == states[1] || loaders[0] == loaders[1] {
		t.Fatal("two requests share a state")
	}
	if HasRequestState(context.Background()) {
		t.Fatal("a context without a request state reports one")
	}
}
