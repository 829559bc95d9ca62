package domain

import (
	"context"
	"sync"

	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// requestState is what one request has read, shared by every resolver serving it in either door:
// the dataloaders (batched reads by key, see domain/loader), what is computed once per
// organization, and the content that revisions and pages were read from. It lives for one request:
// nothing in it is ever shared across requests, as its values depend on the viewer.
type requestState struct {
	loaders loader.Loaders

	// access is, per organization, what decides the viewer's roles there.
	access memo[string, *orgAccess]
	// teamSpaces is, per organization, how many live spaces each team reaches.
	teamSpaces memo[string, map[string]int]
	// orgSpaces is, per organization, its live spaces.
	orgSpaces memo[string, []*storage.Space]
	// orgGrants is, per organization, all its grants and who is in which team.
	orgGrants memo[string, *orgGrants]

	// sources are the content sources read, by the key their revisions and pages carry; each
	// keeps what resolving links needs (its linkMemo), read once for all its pages.
	mu      sync.Mutex
	sources map[model.ContentKey]*ContentSource
}

// withRequestState returns ctx with a fresh request state and its dataloaders: one allocation and
// one context value.
func withRequestState(ctx context.Context, store *storage.Store) context.Context {
	s := &requestState{}
	s.loaders.Init(store)
	return loader.NewContext(ctx, s)
}

// WithRequestState returns ctx with a request state of its own, for work that no HTTP request
// carries: a job's run, an operator command.
func (r *App) WithRequestState(ctx context.Context) context.Context {
	return withRequestState(ctx, r.Store)
}

// Loaders returns the request's dataloaders (loader.Holder).
func (s *requestState) Loaders() *loader.Loaders { return &s.loaders }

// HasRequestState reports whether ctx carries a request state already.
func HasRequestState(ctx context.Context) bool {
	_, ok := loader.HolderFrom(ctx).(*requestState)
	return ok
}

// stateOf returns the request's state. Every door installs one (Middleware, the GraphQL handler,
// jobs' Prepare, WithRequestState); a caller without one is a mistake that would silently lose
// batching and memos, so a test binary panics on it. A server keeps going with a throwaway state.
func stateOf(ctx context.Context) *requestState {
	if s, ok := loader.HolderFrom(ctx).(*requestState); ok {
		return s
	}
	loader.Missing()
	return &requestState{}
}

// key names a content source in the request state: the line it shows (a change request's, or
// the space's own), the revision and whether it is read for a published site's visitors. Every
// edit makes a new revision, so the key decides the view: a change request opened without edits
// shows the space's revision on its own line, hence the line in the key.
func (src *ContentSource) key() model.ContentKey {
	return model.ContentKey{SpaceID: src.View.SpaceID, ChangeRequestID: src.View.ChangeRequestID, RevisionID: src.RevisionID, Published: src.published}
}

// kept registers src in the request state and returns the source kept under its key: the first
// one read, so that what it has read (its link memo) serves every later read of the same content.
func (s *requestState) kept(src *ContentSource) *ContentSource {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sources == nil {
		s.sources = map[model.ContentKey]*ContentSource{}
	}
	k := src.key()
	if prev, ok := s.sources[k]; ok {
		return prev
	}
	s.sources[k] = src
	return src
}

// source returns the content source kept under key, if the request read one.
func (s *requestState) source(key model.ContentKey) (*ContentSource, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	src, ok := s.sources[key]
	return src, ok
}

// keepSource keeps src for the request and returns the source to read through (see
// requestState.kept).
func keepSource(ctx context.Context, src *ContentSource) *ContentSource {
	return stateOf(ctx).kept(src)
}

// sourceByKey returns the content source a page or revision was read from in this request.
func SourceByKey(ctx context.Context, key model.ContentKey) (*ContentSource, bool) {
	return stateOf(ctx).source(key)
}

// memo computes a value once per key for the life of a request, even when resolvers running in
// parallel ask for it together. A failure is kept as well: the request does not retry it.
type memo[K comparable, V any] struct {
	mu      sync.Mutex
	entries map[K]*memoEntry[V]
}

type memoEntry[V any] struct {
	once sync.Once
	v    V
	err  error
}

// get returns the value for key, computing it with load the first time.
func (m *memo[K, V]) get(key K, load func() (V, error)) (V, error) {
	m.mu.Lock()
	if m.entries == nil {
		m.entries = map[K]*memoEntry[V]{}
	}
	e, ok := m.entries[key]
	if !ok {
		e = &memoEntry[V]{}
		m.entries[key] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.v, e.err = load() })
	return e.v, e.err
}
