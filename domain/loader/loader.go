// Package loader batches the reads a request makes into one statement per relation and level.
// Loaders live for one request: v7's cache is unbounded and must never be shared.
package loader

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/storage"
)

// Loaders are one request's dataloaders. Batch functions do not authorize beyond the viewer
// scoping storage applies; resolvers apply policy. The batches are held by value and their
// fetches take the Loaders as an argument: building them is one allocation, and a batch
// allocates only when a request first uses it.
type Loaders struct {
	store *storage.Store

	// Membership loads the viewer's membership of an organization (with its organization).
	Membership Batch[string, *storage.Member]
	// User loads a user the viewer may see.
	User Batch[string, *storage.User]
	// Grants loads the grants on spaces and collections, keyed by target id.
	Grants Batch[string, []*storage.Grant]
	// Teams loads teams with their counts.
	Teams Batch[TeamKey, *storage.Team]
	// SiteSpaces loads sites' site spaces in order, keyed by site id, with their spaces and the
	// sites' outlines (one statement).
	SiteSpaces Batch[string, []*storage.SiteSpace]
	// SiteOutlines loads sites' sections and section groups, keyed by site id.
	SiteOutlines Batch[string, *storage.SiteOutline]
	// Spaces loads live spaces by id.
	Spaces Batch[string, *storage.Space]
	// TeamMembers loads teams' members, keyed by team id.
	TeamMembers Batch[string, []*storage.TeamMember]
	// ShareLinks loads sites' share links, keyed by site id.
	ShareLinks Batch[string, []*storage.ShareLink]
	// SiteCustomizations loads sites' customizations and their site spaces' overrides, keyed by
	// site id.
	SiteCustomizations Batch[string, *storage.SiteCustomizationSet]
	// SiteAdaptiveSchemas loads sites' adaptive schemas, keyed by site id (absent: none set).
	SiteAdaptiveSchemas Batch[string, *storage.SiteAdaptiveSchema]
	// SiteRedirects loads one page of sites' redirects, keyed by site, search and page.
	SiteRedirects Batch[SiteRedirectsKey, storage.List[*storage.SiteRedirect]]
	// SiteReaderSettings loads sites' reader settings, keyed by site id (zero values for sites
	// without any).
	SiteReaderSettings Batch[string, *storage.SiteReaderSettings]
	// SigningKeys loads sites' reader settings with a signing key, generating (and storing, in
	// one statement) the keys of sites that have none: the key is created when first read.
	SigningKeys Batch[SiteKey, *storage.SiteReaderSettings]
	// PageContents loads pages' markdown, keyed by content id.
	PageContents Batch[string, string]
	// ChangeRequestCounts loads spaces' change request counts by status, keyed by space id.
	ChangeRequestCounts Batch[string, map[string]int]
	// ChangeRequestComments loads change requests' comment counts, keyed by change request id.
	ChangeRequestComments Batch[string, int]
	// Contributors loads who edited and commented on change requests, keyed by change request id.
	Contributors Batch[string, []storage.Contributor]
	// Reactions loads the reactions on comments and replies, keyed by comment id.
	Reactions Batch[string, []*storage.Reaction]
	// ReplyAuthors loads who replied to comments and when, keyed by comment id.
	ReplyAuthors Batch[string, []storage.ReplyAuthor]
	// PageTrees loads the live pages of views (a space's content, a change request's, a revision's).
	PageTrees Batch[storage.View, []*storage.PageVersion]
	// ChangeRequests loads change requests by id.
	ChangeRequests Batch[string, *storage.ChangeRequest]
	// Revisions loads revisions by id.
	Revisions Batch[string, *storage.Revision]
	// ReplyPages loads a page of replies of comments, keyed by comment id and page.
	ReplyPages Batch[PageKey, storage.List[*storage.Comment]]
	// Members loads organizations' members (without user and organization), by organization and
	// user id.
	Members Batch[MemberKey, *storage.Member]
	// MemberTeams loads a page of members' teams (with the member's role in each).
	MemberTeams Batch[MemberTeamsKey, storage.List[*storage.Team]]
}

// PageKey names one page of a parent's list.
type PageKey struct {
	Parent string
	Window storage.Window
}

// MemberKey names a member of an organization.
type MemberKey struct{ OrganizationID, UserID string }

// MemberTeamsKey names one page of a member's teams whose title contains Title.
type MemberTeamsKey struct {
	OrganizationID, UserID, Title string
	Window                        storage.Window
}

// SiteRedirectsKey names one page of a site's redirects whose source holds Search.
type SiteRedirectsKey struct {
	SiteID, Search string
	Window         storage.Window
}

// SiteKey names a site within its organization.
type SiteKey struct{ OrganizationID, ID string }

// TeamKey names a team within its organization.
type TeamKey struct{ OrganizationID, ID string }

type loadersKey struct{}

// batchWait is the window for loads under a GraphQL list whose parent announced no expectation
// (see Batch): siblings resolved in parallel arrive within it.
const batchWait = 2 * time.Millisecond

// New builds fresh loaders for one request; the viewer comes from each load's context.
func New(store *storage.Store) *Loaders {
	l := &Loaders{}
	l.Init(store)
	return l
}

// Init readies zero loaders in place (a request's state holds them by value: no allocation of
// their own). The fetch functions below capture nothing (their store and sibling loaders come
// as l), so none is allocated per request.
func (l *Loaders) Init(store *storage.Store) {
	l.store = store
	l.Membership.init(l, func(ctx context.Context, l *Loaders, orgIDs []string) (map[string]*storage.Member, error) {
		return l.store.MembershipsIn(ctx, viewerID(ctx), orgIDs)
	}, batchWait)
	l.User.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string]*storage.User, error) {
		return l.store.UsersByIDs(ctx, viewerID(ctx), ids)
	}, batchWait)
	l.Teams.init(l, func(ctx context.Context, l *Loaders, keys []TeamKey) (map[TeamKey]*storage.Team, error) {
		byOrg := map[string][]string{}
		for _, k := range keys {
			byOrg[k.OrganizationID] = append(byOrg[k.OrganizationID], k.ID)
		}
		out := map[TeamKey]*storage.Team{}
		for org, ids := range byOrg { // one organization per request in practice
			teams, err := l.store.TeamsByIDs(ctx, org, ids)
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
	l.Grants.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string][]*storage.Grant, error) {
		grants, err := l.store.GrantsOn(ctx, ids)
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
			found, err := l.Teams.get(ctx, teams)
			if err != nil {
				return nil, err
			}
			l.Teams.Prime(found)
		}
		return out, nil
	}, batchWait)
	l.TeamMembers.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string][]*storage.TeamMember, error) {
		return l.store.TeamMembersOf(ctx, ids)
	}, batchWait)
	l.ShareLinks.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string][]*storage.ShareLink, error) {
		return l.store.ShareLinksOf(ctx, ids)
	}, batchWait)
	l.SiteCustomizations.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string]*storage.SiteCustomizationSet, error) {
		return l.store.SiteCustomizationsOf(ctx, ids)
	}, batchWait)
	l.SiteAdaptiveSchemas.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string]*storage.SiteAdaptiveSchema, error) {
		return l.store.SiteAdaptiveSchemasOf(ctx, ids)
	}, batchWait)
	l.SiteRedirects.init(l, func(ctx context.Context, l *Loaders, keys []SiteRedirectsKey) (map[SiteRedirectsKey]storage.List[*storage.SiteRedirect], error) {
		return pagesOf(keys, func(k SiteRedirectsKey) (string, storage.Window, string) { return k.Search, k.Window, k.SiteID },
			func(search string, page storage.Window, sites []string) (map[string]storage.List[*storage.SiteRedirect], error) {
				return l.store.SiteRedirectPages(ctx, sites, search, page)
			})
	}, batchWait)
	l.SiteReaderSettings.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string]*storage.SiteReaderSettings, error) {
		return l.store.SiteReaderSettingsMany(ctx, ids)
	}, batchWait)
	l.SigningKeys.init(l, func(ctx context.Context, l *Loaders, keys []SiteKey) (map[SiteKey]*storage.SiteReaderSettings, error) {
		ids := make([]string, len(keys))
		for i, k := range keys {
			ids[i] = k.ID
		}
		found, err := l.store.SiteReaderSettingsMany(ctx, ids)
		if err != nil {
			return nil, err
		}
		var missing []*storage.SiteReaderSettings
		for _, k := range keys {
			if s := found[k.ID]; s.SigningKey == nil {
				key := NewSigningKey()
				s.OrganizationID, s.SigningKey, s.UpdatedAt = k.OrganizationID, &key, time.Now().UTC()
				missing = append(missing, s)
			}
		}
		if len(missing) > 0 {
			stored, err := l.store.EnsureSigningKeys(ctx, missing)
			if err != nil {
				return nil, err
			}
			for id, s := range stored {
				found[id] = s
			}
		}
		out := make(map[SiteKey]*storage.SiteReaderSettings, len(keys))
		for _, k := range keys {
			out[k] = found[k.ID]
		}
		return out, nil
	}, batchWait)
	l.PageContents.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string]string, error) {
		return l.store.PageMarkdown(ctx, ids)
	}, batchWait)
	l.ChangeRequestCounts.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string]map[string]int, error) {
		counts, err := l.store.ChangeRequestCountsOf(ctx, ids)
		out := map[string]map[string]int{}
		for _, c := range counts {
			if out[c.SpaceID] == nil {
				out[c.SpaceID] = map[string]int{}
			}
			out[c.SpaceID][c.Status] = c.Count
		}
		return out, err
	}, batchWait)
	l.ChangeRequestComments.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string]int, error) {
		return l.store.CommentCountsOfChangeRequests(ctx, ids)
	}, batchWait)
	l.Contributors.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string][]storage.Contributor, error) {
		return l.store.ContributorsOf(ctx, ids)
	}, batchWait)
	l.Reactions.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string][]*storage.Reaction, error) {
		rows, err := l.store.ReactionsOf(ctx, ids)
		out := map[string][]*storage.Reaction{}
		for _, r := range rows {
			out[r.CommentID] = append(out[r.CommentID], r)
		}
		return out, err
	}, batchWait)
	l.ReplyAuthors.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string][]storage.ReplyAuthor, error) {
		rows, err := l.store.ReplyAuthorsOf(ctx, ids)
		out := map[string][]storage.ReplyAuthor{}
		for _, r := range rows {
			out[r.ParentID] = append(out[r.ParentID], r)
		}
		return out, err
	}, batchWait)
	l.Spaces.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string]*storage.Space, error) {
		spaces, err := l.store.SpacesByIDs(ctx, ids)
		out := make(map[string]*storage.Space, len(spaces))
		for _, s := range spaces {
			out[s.ID] = s
		}
		return out, err
	}, batchWait)
	l.PageTrees.init(l, func(ctx context.Context, l *Loaders, views []storage.View) (map[storage.View][]*storage.PageVersion, error) {
		return l.store.PagesOfViews(ctx, views)
	}, batchWait)
	l.ChangeRequests.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string]*storage.ChangeRequest, error) {
		return l.store.ChangeRequestsByIDs(ctx, ids)
	}, batchWait)
	l.Revisions.init(l, func(ctx context.Context, l *Loaders, ids []string) (map[string]*storage.Revision, error) {
		rows, err := l.store.RevisionsByIDs(ctx, ids)
		out := make(map[string]*storage.Revision, len(rows))
		for _, r := range rows {
			out[r.ID] = r
		}
		return out, err
	}, batchWait)
	// The replies of each comment of a list: then each comment reads its replies' reactions and
	// authors, one call each, which leave in one batch when the last has called.
	l.ReplyPages.init(l, func(ctx context.Context, l *Loaders, keys []PageKey) (map[PageKey]storage.List[*storage.Comment], error) {
		out, err := pagesOf(keys, func(k PageKey) (string, storage.Window, string) { return "", k.Window, k.Parent },
			func(_ string, page storage.Window, parents []string) (map[string]storage.List[*storage.Comment], error) {
				return l.store.ReplyPages(ctx, parents, page)
			})
		if err == nil && len(keys) > 1 {
			withReplies := 0
			for _, list := range out {
				if len(list.Items) > 0 {
					withReplies++
				}
			}
			l.Reactions.ExpectCalls(len(keys))
			l.User.ExpectCalls(withReplies)
		}
		return out, err
	}, batchWait)
	l.Members.init(l, func(ctx context.Context, l *Loaders, keys []MemberKey) (map[MemberKey]*storage.Member, error) {
		return pagesOf(keys, func(k MemberKey) (string, storage.Window, string) {
			return k.OrganizationID, storage.Window{}, k.UserID
		},
			func(orgID string, _ storage.Window, users []string) (map[string]*storage.Member, error) {
				return l.store.MembersByUserIDs(ctx, orgID, users)
			})
	}, batchWait)
	l.MemberTeams.init(l, func(ctx context.Context, l *Loaders, keys []MemberTeamsKey) (map[MemberTeamsKey]storage.List[*storage.Team], error) {
		return pagesOf(keys, func(k MemberTeamsKey) (MemberTeamsKey, storage.Window, string) {
			return MemberTeamsKey{OrganizationID: k.OrganizationID, Title: k.Title}, k.Window, k.UserID
		}, func(group MemberTeamsKey, page storage.Window, users []string) (map[string]storage.List[*storage.Team], error) {
			return l.store.TeamsOfMembers(ctx, group.OrganizationID, users, group.Title, page)
		})
	}, batchWait)
	// A site's outline and its spaces are read with its site spaces, in one statement: every read
	// of a site's structure needs all three, and the other two loaders are primed for it.
	l.SiteOutlines.init(l, func(ctx context.Context, l *Loaders, siteIDs []string) (map[string]*storage.SiteOutline, error) {
		trees, err := l.store.SiteTreesOf(ctx, siteIDs)
		out := make(map[string]*storage.SiteOutline, len(trees))
		for id, t := range trees {
			out[id] = t.Outline
		}
		return out, err
	}, batchWait)
	l.SiteSpaces.init(l, func(ctx context.Context, l *Loaders, siteIDs []string) (map[string][]*storage.SiteSpace, error) {
		trees, err := l.store.SiteTreesOf(ctx, siteIDs)
		if err != nil {
			return nil, err
		}
		bySite := make(map[string][]*storage.SiteSpace, len(trees))
		outlines := make(map[string]*storage.SiteOutline, len(trees))
		for id, t := range trees {
			bySite[id], outlines[id] = t.SiteSpaces, t.Outline
			l.Spaces.Prime(t.Spaces)
			var trashed []string
			for _, ss := range t.SiteSpaces {
				if t.Spaces[ss.SpaceID] == nil {
					trashed = append(trashed, ss.SpaceID)
				}
			}
			l.Spaces.PrimeMissing(trashed)
		}
		l.SiteOutlines.Prime(outlines)
		return bySite, nil
	}, batchWait)
}

// pagesOf reads pages of several parents' lists: keys that differ only by parent (the same list,
// filter and page) are read together by fetch, one call per group. split names a key's group,
// page and parent.
func pagesOf[K, G comparable, V any](keys []K, split func(K) (G, storage.Window, string),
	fetch func(group G, page storage.Window, parents []string) (map[string]V, error),
) (map[K]V, error) {
	type groupKey struct {
		group G
		page  storage.Window
	}
	parents := map[groupKey][]string{}
	var order []groupKey
	for _, k := range keys {
		g, page, parent := split(k)
		gk := groupKey{g, page}
		if _, ok := parents[gk]; !ok {
			order = append(order, gk)
		}
		parents[gk] = append(parents[gk], parent)
	}
	out := make(map[K]V, len(keys))
	for _, gk := range order {
		found, err := fetch(gk.group, gk.page, parents[gk])
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			if g, page, parent := split(k); g == gk.group && page == gk.page {
				if v, ok := found[parent]; ok {
					out[k] = v
				}
			}
		}
	}
	return out, nil
}

func viewerID(ctx context.Context) string {
	if a := authz.ActorFrom(ctx); a != nil {
		return a.UserID
	}
	return ""
}

// Holder is what carries a request's loaders in its context: graph's request state, which holds
// them with the rest of what the request has read, so that one context value serves both.
type Holder interface{ Loaders() *Loaders }

// NewContext returns ctx carrying h, the request's state with its loaders (every door installs
// one per request).
func NewContext(ctx context.Context, h Holder) context.Context {
	return context.WithValue(ctx, loadersKey{}, h)
}

// HolderFrom returns the request state NewContext installed, or nil.
func HolderFrom(ctx context.Context) Holder {
	h, _ := ctx.Value(loadersKey{}).(Holder)
	return h
}

// For returns the request's loaders. A caller without a request state in its context is a
// mistake (see Missing); a server keeps going with throwaway loaders.
func For(ctx context.Context, store *storage.Store) *Loaders {
	if h := HolderFrom(ctx); h != nil {
		return h.Loaders()
	}
	Missing()
	return New(store)
}

// Missing reports a read made without a request state: in a test binary it panics, so that a
// door or a job that forgot to install one fails its tests instead of silently reading without
// batching (one statement per item); in a server it does nothing.
func Missing() {
	if testing.Testing() {
		panic("no request state in the context: install one (REST's server, the GraphQL handler, Resolver.WithRequestState)")
	}
}

// NewSigningKey is a new random HS256 key for a site's visitor tokens: 32 bytes, base64url.
func NewSigningKey() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return base64.RawURLEncoding.EncodeToString(b)
}
