// Package loader batches the reads a request makes into one statement per relation and level.
// Loaders live for one request: v7's cache is unbounded and must never be shared.
package loader

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/bindery/bindery/graph/authz"
	"github.com/bindery/bindery/storage"
)

// Loaders are one request's dataloaders. Batch functions do not authorize beyond the viewer
// scoping storage applies; resolvers apply policy.
type Loaders struct {
	// Membership loads the viewer's membership of an organization (with its organization and user).
	Membership *Batch[string, *storage.Member]
	// User loads a user the viewer may see.
	User *Batch[string, *storage.User]
	// Access keeps, per organization, what decides the viewer's roles there (graph builds it).
	Access Memo[any]
	// TeamSpaces keeps, per organization, how many spaces each team reaches.
	TeamSpaces Memo[any]
	// OrgSpaces keeps, per organization, its live spaces.
	OrgSpaces Memo[[]*storage.Space]
	// OrgGrants keeps, per organization, all its grants and team memberships (graph builds it).
	OrgGrants Memo[any]
	// Grants loads the grants on spaces and collections, keyed by target id.
	Grants *Batch[string, []*storage.Grant]
	// Teams loads teams with their counts.
	Teams *Batch[TeamKey, *storage.Team]
	// SiteSpaces loads sites' site spaces in order, keyed by site id, with their spaces and the
	// sites' outlines.
	SiteSpaces *Batch[string, []*storage.SiteSpace]
	// SiteOutlines loads sites' sections and section groups, keyed by site id.
	SiteOutlines *Batch[string, *storage.SiteOutline]
	// Spaces loads live spaces by id.
	Spaces *Batch[string, *storage.Space]
	// TeamMembers loads teams' members, keyed by team id.
	TeamMembers *Batch[string, []*storage.TeamMember]
	// ShareLinks loads sites' share links, keyed by site id.
	ShareLinks *Batch[string, []*storage.ShareLink]
	// PageContents loads pages' markdown, keyed by content id.
	PageContents *Batch[string, string]
	// ChangeRequestCounts loads spaces' change request counts by status, keyed by space id.
	ChangeRequestCounts *Batch[string, map[string]int]
	// ChangeRequestComments loads change requests' comment counts, keyed by change request id.
	ChangeRequestComments *Batch[string, int]
	// Reactions loads the reactions on comments and replies, keyed by comment id.
	Reactions *Batch[string, []*storage.Reaction]
	// ReplyAuthors loads who replied to comments and when, keyed by comment id.
	ReplyAuthors *Batch[string, []storage.ReplyAuthor]
}

// TeamKey names a team within its organization.
type TeamKey struct{ OrganizationID, ID string }

type loadersKey struct{}

// batchWait is the window for loads under a GraphQL list whose parent announced no expectation
// (see Batch): siblings resolved in parallel arrive within it.
const batchWait = 2 * time.Millisecond

// New builds fresh loaders for one request; the viewer comes from each load's context.
func New(store *storage.Store) *Loaders {
	l := &Loaders{
		Membership: NewBatch(func(ctx context.Context, orgIDs []string) (map[string]*storage.Member, error) {
			return store.MembershipsIn(ctx, viewerID(ctx), orgIDs)
		}, batchWait),
		User: NewBatch(func(ctx context.Context, ids []string) (map[string]*storage.User, error) {
			return store.UsersByIDs(ctx, viewerID(ctx), ids)
		}, batchWait),
	}
	l.Teams = NewBatch(func(ctx context.Context, keys []TeamKey) (map[TeamKey]*storage.Team, error) {
		byOrg := map[string][]string{}
		for _, k := range keys {
			byOrg[k.OrganizationID] = append(byOrg[k.OrganizationID], k.ID)
		}
		out := map[TeamKey]*storage.Team{}
		for org, ids := range byOrg { // one organization per request in practice
			teams, err := store.TeamsByIDs(ctx, org, ids)
			if err != nil {
				return nil, err
			}
			for id, t := range teams {
				out[TeamKey{org, id}] = t
			}
		}
		return out, nil
	}, batchWait)
	// The teams of the grants a request lists are read with them: teamPermissions asks for them
	// right after, one resolver per item, and must not wait for a batch of its own.
	l.Grants = NewBatch(func(ctx context.Context, ids []string) (map[string][]*storage.Grant, error) {
		grants, err := store.GrantsOn(ctx, ids)
		if err != nil {
			return nil, err
		}
		out := map[string][]*storage.Grant{}
		var teams []TeamKey
		for _, g := range grants {
			out[g.TargetID] = append(out[g.TargetID], g)
			if g.PrincipalKind == storage.PrincipalTeam {
				teams = append(teams, TeamKey{g.OrganizationID, g.PrincipalID})
			}
		}
		if len(teams) > 0 {
			found, err := l.Teams.fetch(ctx, teams)
			if err != nil {
				return nil, err
			}
			l.Teams.Prime(found)
		}
		return out, nil
	}, batchWait)
	l.TeamMembers = NewBatch(store.TeamMembersOf, batchWait)
	l.ShareLinks = NewBatch(store.ShareLinksOf, batchWait)
	l.PageContents = NewBatch(store.PageMarkdown, batchWait)
	l.ChangeRequestCounts = NewBatch(func(ctx context.Context, ids []string) (map[string]map[string]int, error) {
		counts, err := store.ChangeRequestCountsOf(ctx, ids)
		out := map[string]map[string]int{}
		for _, c := range counts {
			if out[c.SpaceID] == nil {
				out[c.SpaceID] = map[string]int{}
			}
			out[c.SpaceID][c.Status] = c.Count
		}
		return out, err
	}, batchWait)
	l.ChangeRequestComments = NewBatch(store.CommentCountsOfChangeRequests, batchWait)
	l.Reactions = NewBatch(func(ctx context.Context, ids []string) (map[string][]*storage.Reaction, error) {
		rows, err := store.ReactionsOf(ctx, ids)
		out := map[string][]*storage.Reaction{}
		for _, r := range rows {
			out[r.CommentID] = append(out[r.CommentID], r)
		}
		return out, err
	}, batchWait)
	l.ReplyAuthors = NewBatch(func(ctx context.Context, ids []string) (map[string][]storage.ReplyAuthor, error) {
		rows, err := store.ReplyAuthorsOf(ctx, ids)
		out := map[string][]storage.ReplyAuthor{}
		for _, r := range rows {
			out[r.ParentID] = append(out[r.ParentID], r)
		}
		return out, err
	}, batchWait)
	l.Spaces = NewBatch(func(ctx context.Context, ids []string) (map[string]*storage.Space, error) {
		spaces, err := store.SpacesByIDs(ctx, ids)
		out := make(map[string]*storage.Space, len(spaces))
		for _, s := range spaces {
			out[s.ID] = s
		}
		return out, err
	}, batchWait)
	l.SiteOutlines = NewBatch(store.SiteOutlinesOf, batchWait)
	// The spaces of the site spaces a request reads, and the sections they are in, are read with
	// them, for the same reason as the teams of grants.
	l.SiteSpaces = NewBatch(func(ctx context.Context, siteIDs []string) (map[string][]*storage.SiteSpace, error) {
		bySite, err := store.SiteSpacesOfSites(ctx, siteIDs)
		if err != nil {
			return nil, err
		}
		outlines, err := l.SiteOutlines.fetch(ctx, siteIDs)
		if err != nil {
			return nil, err
		}
		l.SiteOutlines.Prime(outlines)
		var spaceIDs []string
		for _, rows := range bySite {
			for _, ss := range rows {
				spaceIDs = append(spaceIDs, ss.SpaceID)
			}
		}
		if len(spaceIDs) > 0 {
			found, err := l.Spaces.fetch(ctx, spaceIDs)
			if err != nil {
				return nil, err
			}
			l.Spaces.Prime(found)
		}
		return bySite, nil
	}, batchWait)
	return l
}

func viewerID(ctx context.Context) string {
	if a := authz.ActorFrom(ctx); a != nil {
		return a.UserID
	}
	return ""
}

// Middleware gives every request its own loaders; mount it before both /graphql and /v1.
func Middleware(store *storage.Store) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), loadersKey{}, New(store))))
		})
	}
}

// For returns the request's loaders, building throwaway ones when a caller (a CLI, a test) has
// none in its context.
func For(ctx context.Context, store *storage.Store) *Loaders {
	if l, ok := ctx.Value(loadersKey{}).(*Loaders); ok {
		return l
	}
	return New(store)
}

// Memo computes a value once per key for the life of a request, even when resolvers running in
// parallel ask for it together.
type Memo[V any] struct {
	mu      sync.Mutex
	entries map[string]*memoEntry[V]
}

type memoEntry[V any] struct {
	once sync.Once
	v    V
	err  error
}

// Get returns the value for key, computing it with load the first time.
func (m *Memo[V]) Get(key string, load func() (V, error)) (V, error) {
	m.mu.Lock()
	if m.entries == nil {
		m.entries = map[string]*memoEntry[V]{}
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
