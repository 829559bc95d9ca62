package search_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/bindery/bindery/search"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
	"github.com/google/go-cmp/cmp"
)

// searchSpace creates a space holding one document page per title → markdown.
func searchSpace(t *testing.T, s *storage.Store, orgID string, pages map[string]string) *storage.Space {
	t.Helper()
	ctx := context.Background()
	sp := &storage.Space{OrganizationID: orgID, Title: "Docs", EditMode: "live", MergeRules: `{"type":"inherit"}`, CreatedAt: t0, UpdatedAt: t0}
	if err := s.CreateSpace(ctx, sp, ""); err != nil {
		t.Fatal(err)
	}
	_, err := s.EditContent(ctx, storage.EditTarget{SpaceID: sp.ID}, "", func() time.Time { return t0 }, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		e := &storage.Edit{}
		i := 0
		for title, md := range pages {
			i++
			id := storage.ContentID(orgID, md)
			e.Contents = append(e.Contents, &storage.PageContent{Markdown: md})
			e.Pages = append(e.Pages, &storage.PageVersion{PageID: "p-" + title, Position: float64(i), Type: "document", Title: title, Slug: title, ContentID: &id, CreatedAt: t0, UpdatedAt: t0})
		}
		return e, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func TestSearchMatchesRanksAndNeverFails(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, _ := newOrg(t, s, "owner@search.test")
		sp := searchSpace(t, s, org.ID, map[string]string{
			"install":  "# Installing\n\nRun the installer on your server.",
			"upgrade":  "Upgrading the server keeps your data. See [install](https://example.com/install).",
			"backup":   "## Backups\n\nBack up the database every night with `pg_dump`.",
			"security": "Tokens are hashed. The server never logs secrets.",
		})
		find := func(q search.Query) []string {
			t.Helper()
			list, err := s.Search().Pages(ctx, search.Filter{OrganizationID: org.ID, SpaceIDs: []string{sp.ID}, Query: q}, storage.Window{Limit: 10})
			if err != nil {
				t.Fatalf("search %v: %v", q, err)
			}
			var out []string
			for _, h := range list.Items {
				out = append(out, h.PageID)
			}
			if list.Total != len(out) {
				t.Errorf("search %v: total %d, want %d", q, list.Total, len(out))
			}
			return out
		}
		tests := []struct {
			name  string
			query search.Query
			want  []string
		}{
			{"word", all(word("install")), []string{"p-install", "p-upgrade"}},
			{"stemmed", all(word("installing")), []string{"p-install", "p-upgrade"}},
			{"exclusion", all(word("server"), not(word("install"))), []string{"p-security"}},
			{"phrase", all(phrase("the", "database")), []string{"p-backup"}},
			{"alternative words", all(search.Clause{Words: []string{"dump"}, Or: []string{"hashed"}}), []string{"p-backup", "p-security"}},
			{"link targets are not indexed", all(word("example")), nil},
			{"any word", search.Query{Groups: [][]search.Clause{{word("dump"), word("logs"), word("absent")}}, AnyWord: true}, []string{"p-backup", "p-security"}},
		}
		for _, tt := range tests {
			got := find(tt.query)
			if tt.name == "alternative words" || tt.name == "any word" { // order by relevance is not the point here
				if len(got) != 2 || !cmp.Equal(tt.want, []string{min(got[0], got[1]), max(got[0], got[1])}) {
					t.Errorf("search %s = %v, want %v", tt.name, got, tt.want)
				}
				continue
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("search %s (-want +got):\n%s", tt.name, diff)
			}
		}
		// Words reach the databases as data: quotes, operators and NUL change nothing.
		for _, w := range []string{`"`, `*`, `NEAR(`, `'; DROP TABLE x; --`, "\x00", `{title}:x`, `a"b`} {
			find(all(word(w)))
			find(all(word("server"), search.Clause{Words: []string{"x", w}}))
		}
	})
}

func TestSearchIndexFollowsEditsAndRemovals(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, _ := newOrg(t, s, "owner@search.test")
		sp := searchSpace(t, s, org.ID, map[string]string{"one": "alpha bravo", "two": "charlie delta"})
		f := func(q string) search.Filter {
			return search.Filter{OrganizationID: org.ID, SpaceIDs: []string{sp.ID}, Query: all(word(q))}
		}
		count := func(q string) int {
			t.Helper()
			l, err := s.Search().Pages(ctx, f(q), storage.Window{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			return len(l.Items)
		}
		_, err := s.EditContent(ctx, storage.EditTarget{SpaceID: sp.ID}, "", func() time.Time { return t0.Add(time.Second) }, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
			p, err := c.Page(ctx, "p-one")
			if err != nil {
				return nil, err
			}
			md := "echo foxtrot"
			id := storage.ContentID(org.ID, md)
			p.ContentID = &id
			return &storage.Edit{Pages: []*storage.PageVersion{p}, Contents: []*storage.PageContent{{Markdown: md}}, RemovedPages: []string{"p-two"}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for q, want := range map[string]int{"alpha": 0, "foxtrot": 1, "charlie": 0} {
			if got := count(q); got != want {
				t.Errorf("search %q: %d results, want %d", q, got, want)
			}
		}
	})
}

func TestSearchPagesAndSpacesPaginate(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, _ := newOrg(t, s, "owner@search.test")
		pages := map[string]string{}
		for i := range 7 {
			pages[fmt.Sprintf("page%d", i)] = fmt.Sprintf("common words %d", i)
		}
		a := searchSpace(t, s, org.ID, pages)
		b := searchSpace(t, s, org.ID, map[string]string{"other": "common"})
		f := search.Filter{OrganizationID: org.ID, SpaceIDs: []string{a.ID, b.ID}, Query: all(word("common"))}
		seen := map[string]bool{}
		page := storage.Window{Limit: 3}
		for {
			l, err := s.Search().Pages(ctx, f, page)
			if err != nil {
				t.Fatal(err)
			}
			if l.Total != 8 {
				t.Errorf("total %d, want 8", l.Total)
			}
			for _, h := range l.Items {
				seen[h.PageID] = true
			}
			if !l.HasMore {
				break
			}
			page.After = l.Cursors[len(l.Cursors)-1]
		}
		if len(seen) != 8 {
			t.Errorf("paged through %d pages, want 8", len(seen))
		}
		other := search.Filter{OrganizationID: org.ID, SpaceIDs: f.SpaceIDs, Query: all(word("words"))}
		if _, err := s.Search().Pages(ctx, other, page); err != storage.ErrInvalidCursor {
			t.Errorf("a token of another query: %v, want ErrInvalidCursor", err)
		}
		spaces, err := s.Search().Spaces(ctx, f, 5, storage.Window{Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if spaces.Total != 2 || len(spaces.Items) != 1 || !spaces.HasMore {
			t.Fatalf("spaces = total %d, %d items, more %v", spaces.Total, len(spaces.Items), spaces.HasMore)
		}
		next, err := s.Search().Spaces(ctx, f, 5, storage.Window{Limit: 1, After: spaces.Cursors[0]})
		if err != nil || len(next.Items) != 1 || next.Items[0].SpaceID == spaces.Items[0].SpaceID || next.HasMore {
			t.Fatalf("second page of spaces = %+v, %v", next, err)
		}
		for _, sh := range append(spaces.Items, next.Items...) {
			if want := map[string]int{a.ID: 5, b.ID: 1}[sh.SpaceID]; len(sh.Pages) != want {
				t.Errorf("space %s holds %d pages, want %d", sh.SpaceID, len(sh.Pages), want)
			}
		}
		chains, err := s.CurrentPageChains(ctx, []storage.PageKey{{SpaceID: a.ID, PageID: "p-page1"}, {SpaceID: b.ID, PageID: "p-page1"}})
		if err != nil || len(chains) != 1 || len(chains[a.ID+"/p-page1"]) != 1 {
			t.Fatalf("chains = %v, %v", chains, err)
		}
	})
}

// CountAndSearchPages ranks, with the count, the page SearchPages gives (PostgreSQL), page after
// page and space by space, exclusions and phrases too; a page token of another query leaves the
// page to SearchPages.
func TestSearchCountRanksThePageOfResults(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, _ := newOrg(t, s, "owner@search.test")
		pages := map[string]string{}
		for i := range 7 {
			pages[fmt.Sprintf("page%d", i)] = fmt.Sprintf("common words %d", i)
		}
		pages["merge"] = "common merge conflict"
		pages["common words"] = "a title holding them"
		a := searchSpace(t, s, org.ID, pages)
		b := searchSpace(t, s, org.ID, map[string]string{"elsewhere": "common words"})
		for i, q := range []search.Query{all(word("common")), all(word("common"), not(word("merge"))), all(phrase("common", "words")), all(word("absent")), all(word("words"))} {
			f := search.Filter{OrganizationID: org.ID, SpaceIDs: []string{a.ID}, Query: q}
			if i == 4 {
				f.SpaceIDs = append(f.SpaceIDs, b.ID) // a published site's spaces
			}
			page := storage.Window{Limit: 3}
			for {
				n, common, got, err := s.Search().CountAndSearchPages(ctx, f, page)
				if err != nil {
					t.Fatal(err)
				}
				f.Matches, f.Common = n, common
				want, err := s.Search().Pages(ctx, f, page)
				if err != nil {
					t.Fatal(err)
				}
				if got == nil {
					if s.Dialect() == storage.Postgres {
						t.Fatalf("%v: no page ranked with the count", q)
					}
					break
				}
				if !cmp.Equal(*got, want) {
					t.Fatalf("%v: page ranked with the count\n%+v\nwant\n%+v", q, *got, want)
				}
				for _, h := range got.Items {
					if !slices.Contains(f.SpaceIDs, h.SpaceID) {
						t.Errorf("%v: a page of space %s", q, h.SpaceID)
					}
				}
				if !got.HasMore {
					break
				}
				page.After = got.Cursors[len(got.Cursors)-1]
			}
		}
		f := search.Filter{OrganizationID: org.ID, SpaceIDs: []string{a.ID, b.ID}, Query: all(word("common"))}
		first, err := s.Search().Pages(ctx, f, storage.Window{Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		f.Query = all(word("words"))
		if _, _, got, err := s.Search().CountAndSearchPages(ctx, f, storage.Window{Limit: 3, After: first.Cursors[0]}); err != nil || got != nil {
			t.Errorf("a token of another query: %v, %v; want no page and no error", got, err)
		}
	})
}

func word(w string) search.Clause { return search.Clause{Words: []string{w}} }

func phrase(ws ...string) search.Clause { return search.Clause{Words: ws} }

func not(c search.Clause) search.Clause { c.Negated = true; return c }

// all is a query that needs every clause.
func all(cs ...search.Clause) search.Query {
	return search.Query{Groups: [][]search.Clause{cs}}
}

func TestSearchVocabularyCompletesAndCorrects(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, _ := newOrg(t, s, "owner@search.test")
		other, _ := newOrg(t, s, "other@search.test")
		searchSpace(t, s, org.ID, map[string]string{"Configuration": "Configure the server. Confirm it."})
		searchSpace(t, s, other.ID, map[string]string{"Secret": "confidential"})
		m, err := s.Search().MatchTerms(ctx, org.ID, []string{"server", "serverless"}, "conf", 10)
		if err != nil {
			t.Fatal(err)
		}
		if !m.Known["server"] || m.Known["serverless"] {
			t.Errorf("known = %v, want server only", m.Known)
		}
		if want := []string{"configuration", "configure", "confirm"}; !cmp.Equal(m.Completions, want) {
			t.Errorf("completions = %v, want %v (never another organization's words)", m.Completions, want)
		}
		near, err := s.Search().TermsNear(ctx, org.ID, "s", 5, 7, 100)
		if err != nil || !cmp.Equal(near, []string{"server"}) {
			t.Errorf("near = %v, %v; want [server]", near, err)
		}
	})
}

func TestSearchTotalsAreExactUpToALimit(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, _ := newOrg(t, s, "owner@search.test")
		pages := map[string]string{}
		for i := range search.ExactTotal + 5 {
			pages[fmt.Sprintf("page%d", i)] = fmt.Sprintf("common words %d", i)
			if i < 10 {
				pages[fmt.Sprintf("page%d", i)] += " rare"
			}
		}
		sp := searchSpace(t, s, org.ID, pages)
		for q, want := range map[string]struct {
			total int
			exact bool
		}{"common": {search.ExactTotal + 1, false}, "rare": {10, true}} {
			l, err := s.Search().Pages(ctx, search.Filter{OrganizationID: org.ID, SpaceIDs: []string{sp.ID}, Query: all(word(q))}, storage.Window{Limit: 5})
			if err != nil {
				t.Fatal(err)
			}
			if l.Total != want.total || l.TotalIsExact != want.exact || len(l.Items) != 5 || !l.HasMore {
				t.Errorf("search %q: total %d exact %v, %d items, more %v; want total %d exact %v", q, l.Total, l.TotalIsExact, len(l.Items), l.HasMore, want.total, want.exact)
			}
		}
	})
}

// A search with a common word (SearchFilter.Common, as the planning count decides) ranks the
// pages whose title holds more of the query's words first, takes its total from the planning
// count, and in an organization lists every space with a match (each scanned on its own).
func TestSearchCommonRanksByTitleAndListsEverySpace(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, _ := newOrg(t, s, "owner@search.test")
		pages := map[string]string{"both server backup": "server backup", "server only": "server backup", "backup only": "server backup"}
		for i := range 30 {
			pages[fmt.Sprintf("page %d", i)] = "a server and its backup"
		}
		a := searchSpace(t, s, org.ID, pages)
		b := searchSpace(t, s, org.ID, map[string]string{"elsewhere": "server backup", "unrelated": "nothing here"})
		q := all(word("server"), word("backup"), not(word("nothing")))
		n, common, err := s.Search().CountMatches(ctx, search.Filter{OrganizationID: org.ID, SpaceIDs: []string{a.ID, b.ID}, Query: q})
		if err != nil || n != 34 || common {
			t.Fatalf("count = %d, common %v, %v; want 34, not common", n, common, err)
		}
		f := search.Filter{OrganizationID: org.ID, SpaceIDs: []string{a.ID}, Query: q, Matches: 2000, Common: true}
		l, err := s.Search().Pages(ctx, f, storage.Window{Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range l.Items {
			got = append(got, h.PageID)
		}
		if len(got) != 3 || got[0] != "p-both server backup" || (got[1] != "p-backup only" && got[1] != "p-server only") {
			t.Errorf("common search = %v, want the title with both words, then one with either", got)
		}
		if l.Total != search.ExactTotal+1 || l.TotalIsExact {
			t.Errorf("total %d (exact %v), want the planning count's lower bound", l.Total, l.TotalIsExact)
		}
		f.SpaceIDs = []string{a.ID, b.ID}
		spaces, err := s.Search().Spaces(ctx, f, 2, storage.Window{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		// PostgreSQL scans the spaces together: both are among its 100 candidates here.
		if spaces.Total != 2 || spaces.TotalIsExact != (s.Dialect() == storage.SQLite) || len(spaces.Items) != 2 || spaces.Items[0].SpaceID != a.ID ||
			len(spaces.Items[0].Pages) != 2 || spaces.Items[0].Pages[0].PageID != "p-both server backup" {
			t.Errorf("common organization search = %+v", spaces)
		}
	})
}

// An any-word search with a common word (the fallback when few pages hold every word) ranks by
// coverage: the page holding the rare word, in its title, first. Its total is exact up to
// ExactTotal and a lower bound beyond, exclusions included. On SQLite it ranks bounded
// candidates (TermCounts says which words are common).
func TestSearchAnyWordWithACommonWord(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, _ := newOrg(t, s, "owner@search.test")
		pages := map[string]string{"zebra notes": "zebra and common words", "plain": "a zebra"}
		for i := range search.ExactTotal + 5 {
			pages[fmt.Sprintf("common %d", i)] = fmt.Sprintf("common words %d", i)
		}
		a := searchSpace(t, s, org.ID, pages)
		b := searchSpace(t, s, org.ID, map[string]string{"elsewhere": "common ground"})
		q := all(word("common"), word("zebra"))
		q.AnyWord = true
		f := search.Filter{OrganizationID: org.ID, SpaceIDs: []string{a.ID}, Query: q, Common: true, Matches: 1,
			Weights: map[string]float64{"common": 0.7, "zebra": 6}, TermCounts: map[string]int{"common": search.ExactTotal + 1, "zebra": 2}}
		l, err := s.Search().Pages(ctx, f, storage.Window{Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 3 || l.Items[0].PageID != "p-zebra notes" || l.Items[1].PageID != "p-plain" || l.Total != search.ExactTotal+1 || l.TotalIsExact {
			t.Errorf("any-word search = %d items (first %+v), total %d exact %v", len(l.Items), l.Items[0], l.Total, l.TotalIsExact)
		}
		f.Query.Groups[0] = append(f.Query.Groups[0], not(word("words")))
		l, err = s.Search().Pages(ctx, f, storage.Window{Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 1 || l.Items[0].PageID != "p-plain" || l.Total != 1 || !l.TotalIsExact {
			t.Errorf("any-word search with an exclusion = %d items, total %d exact %v", len(l.Items), l.Total, l.TotalIsExact)
		}
		f.Query.Groups[0] = f.Query.Groups[0][:2]
		f.SpaceIDs = []string{a.ID, b.ID}
		spaces, err := s.Search().Spaces(ctx, f, 2, storage.Window{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		// SQLite scans each space; PostgreSQL samples a common term's candidates across the
		// spaces, so the other space may be left out, and then the total must say so.
		listedBoth := len(spaces.Items) == 2 && spaces.Items[1].SpaceID == b.ID
		sampled := s.Dialect() == storage.Postgres && len(spaces.Items) == 1 && !spaces.TotalIsExact
		if len(spaces.Items) == 0 || spaces.Items[0].SpaceID != a.ID || spaces.Items[0].Pages[0].PageID != "p-zebra notes" || !(listedBoth || sampled) {
			t.Errorf("any-word organization search = %+v", spaces)
		}
	})
}

// Analyze keeps no SQLite samples (sqlite_stat4) for the FTS5 index's own tables: with them
// every term lookup FTS5 makes was prepared again.
func TestSearchAnalyzeKeepsNoFTSSamples(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, _ := newOrg(t, s, "owner@search.test")
		pages := map[string]string{}
		for i := range 50 {
			pages[fmt.Sprintf("page %d", i)] = fmt.Sprintf("words %d and more words", i)
		}
		sp := searchSpace(t, s, org.ID, pages)
		if err := s.Analyze(ctx); err != nil {
			t.Fatal(err)
		}
		if s.Dialect() == storage.SQLite {
			var tables, samples int
			if err := s.SQLDB().QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat4'").Scan(&tables); err != nil {
				t.Fatal(err)
			}
			if tables > 0 {
				if err := s.SQLDB().QueryRowContext(ctx, "SELECT count(*) FROM sqlite_stat4 WHERE tbl LIKE 'search_pages_fts%'").Scan(&samples); err != nil {
					t.Fatal(err)
				}
			}
			if samples != 0 {
				t.Errorf("%d samples of the FTS5 tables", samples)
			}
		}
		l, err := s.Search().Pages(ctx, search.Filter{OrganizationID: org.ID, SpaceIDs: []string{sp.ID}, Query: all(word("words"))}, storage.Window{Limit: 5})
		if err != nil || l.Total != 50 {
			t.Fatalf("search after analyze: %d, %v", l.Total, err)
		}
	})
}

// On SQLite a phrase of common words makes a search common, however few pages hold the phrase:
// bm25 would read its words' whole posting lists. Its count stays exact.
func TestSearchPhraseOfCommonWordsIsCommonOnSQLite(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, _ := newOrg(t, s, "owner@search.test")
		pages := map[string]string{"reversed": "words common", "reversed again": "so words common"}
		for i := range search.ExactTotal + 5 {
			pages[fmt.Sprintf("page %d", i)] = fmt.Sprintf("common words %d", i)
		}
		sp := searchSpace(t, s, org.ID, pages)
		f := search.Filter{OrganizationID: org.ID, SpaceIDs: []string{sp.ID}, Query: all(phrase("words", "common"))}
		n, common, err := s.Search().CountMatches(ctx, f)
		if err != nil || n != 2 || common != (s.Dialect() == storage.SQLite) {
			t.Fatalf("count = %d, common %v, %v; want 2, common on SQLite", n, common, err)
		}
		f.Matches, f.Common = n, common
		l, err := s.Search().Pages(ctx, f, storage.Window{Limit: 5})
		if err != nil || len(l.Items) != 2 || l.Total != 2 || !l.TotalIsExact {
			t.Fatalf("search = %+v, %v", l, err)
		}
		// An organization search lists every space with a match, the title holding the phrase first.
		b := searchSpace(t, s, org.ID, map[string]string{"words common here": "nothing", "other": "words common"})
		f.SpaceIDs = []string{sp.ID, b.ID}
		if f.Matches, f.Common, err = s.Search().CountMatches(ctx, f); err != nil || f.Matches != 4 {
			t.Fatalf("count = %d, %v", f.Matches, err)
		}
		spaces, err := s.Search().Spaces(ctx, f, 2, storage.Window{Limit: 10})
		if err != nil || len(spaces.Items) != 2 || spaces.Total != 2 || !spaces.TotalIsExact ||
			spaces.Items[0].SpaceID != b.ID || spaces.Items[0].Pages[0].PageID != "p-words common here" {
			t.Fatalf("organization search = %+v, %v", spaces, err)
		}
	})
}

// OptimizeSearchIndex merges the SQLite full-text index that many writes left in many segments,
// and search finds the same pages.
func TestSearchOptimizeIndexMergesSegments(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, _ := newOrg(t, s, "owner@search.test")
		var ids []string
		for i := range 12 {
			ids = append(ids, searchSpace(t, s, org.ID, map[string]string{fmt.Sprintf("page %d", i): "merged words"}).ID)
		}
		segments := func() int {
			var n int
			if err := s.SQLDB().QueryRowContext(ctx, "SELECT count(DISTINCT segid) FROM search_pages_fts_idx").Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		before := 0
		if s.Dialect() == storage.SQLite {
			before = segments()
		}
		if err := s.Search().Optimize(ctx); err != nil {
			t.Fatal(err)
		}
		if s.Dialect() == storage.SQLite {
			if after := segments(); before <= 4 || after != 1 {
				t.Errorf("segments %d before, %d after; want more than 4, then 1", before, after)
			}
		}
		l, err := s.Search().Pages(ctx, search.Filter{OrganizationID: org.ID, SpaceIDs: ids, Query: all(word("merged"))}, storage.Window{Limit: 20})
		if err != nil || l.Total != 12 {
			t.Fatalf("search after optimizing: %d, %v", l.Total, err)
		}
	})
}

// A phrase finds exactly the pages holding its words side by side, in its order: not the pages
// holding them apart or the other way round, however many there are (PostgreSQL finds a
// phrase's candidates through its adjacent-word pairs, search_pages_space_pairs, and tests the
// phrase on each). Counts, pages, spaces and any-word candidates agree.
func TestSearchPhraseFindsAdjacentWordsOnly(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, _ := newOrg(t, s, "owner@search.test")
		pages := map[string]string{
			"adjacent":  "the palomo rukezesa runs",
			"three":     "palomo rukezesa hugo ending",
			"twice":     "rukezesa palomo and later palomo rukezesa",
			"reversed":  "rukezesa palomo runs",
			"gap":       "palomo rukezesa mositoti hugo",
			"stop word": "palomo of rukezesa",
		}
		for i := range 300 {
			pages[fmt.Sprintf("apart %d", i)] = fmt.Sprintf("palomo runs %d miles from rukezesa hugo", i)
		}
		sp := searchSpace(t, s, org.ID, pages)
		other := searchSpace(t, s, org.ID, map[string]string{"elsewhere": "palomo rukezesa", "apart": "palomo hugo mositoti rukezesa"})
		for _, tt := range []struct {
			name  string
			query search.Query
			want  []string
		}{
			{"two words", all(phrase("palomo", "rukezesa")), []string{"p-adjacent", "p-gap", "p-three", "p-twice"}},
			{"three words", all(phrase("palomo", "rukezesa", "hugo")), []string{"p-three"}},
			{"reversed", all(phrase("rukezesa", "palomo")), []string{"p-reversed", "p-twice"}},
			{"with an exclusion", all(phrase("palomo", "rukezesa"), not(word("runs"))), []string{"p-gap", "p-three", "p-twice"}},
			{"two phrases", all(phrase("palomo", "rukezesa"), phrase("mositoti", "hugo")), []string{"p-gap"}},
			{"a phrase and a word", all(phrase("palomo", "rukezesa"), word("ending")), []string{"p-three"}},
			{"a stop word", all(phrase("palomo", "of", "rukezesa")), []string{"p-stop word"}},
			{"words apart", all(phrase("runs", "rukezesa")), nil},
		} {
			f := search.Filter{OrganizationID: org.ID, SpaceIDs: []string{sp.ID}, Query: tt.query}
			n, common, err := s.Search().CountMatches(ctx, f)
			if err != nil || n != len(tt.want) {
				t.Errorf("%s: count = %d, %v; want %d", tt.name, n, err, len(tt.want))
			}
			f.Matches, f.Common = n, common
			l, err := s.Search().Pages(ctx, f, storage.Window{Limit: 10})
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			var got []string
			for _, h := range l.Items {
				got = append(got, h.PageID)
			}
			slices.Sort(got)
			if !cmp.Equal(tt.want, got) || l.Total != len(tt.want) || !l.TotalIsExact {
				t.Errorf("%s: search = %v (total %d, exact %v), want %v", tt.name, got, l.Total, l.TotalIsExact, tt.want)
			}
			// Across spaces, the other space adds its adjacent page.
			f.SpaceIDs = []string{sp.ID, other.ID}
			if f.Matches, f.Common, err = s.Search().CountMatches(ctx, f); err != nil {
				t.Fatal(err)
			}
			spaces, err := s.Search().Spaces(ctx, f, 10, storage.Window{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			found := 0
			for _, sh := range spaces.Items {
				found += len(sh.Pages)
				if sh.SpaceID == other.ID && (len(sh.Pages) != 1 || sh.Pages[0].PageID != "p-elsewhere") {
					t.Errorf("%s: other space = %+v", tt.name, sh.Pages)
				}
			}
			if wantOther := tt.name == "two words" || tt.name == "with an exclusion"; found != len(tt.want)+map[bool]int{true: 1}[wantOther] {
				t.Errorf("%s: organization search found %d pages, want %d (+1 elsewhere: %v)", tt.name, found, len(tt.want), wantOther)
			}
		}
		// An any-word search with a phrase term counts and ranks that term's adjacent pages only.
		f := search.Filter{OrganizationID: org.ID, SpaceIDs: []string{sp.ID},
			Query: search.Query{Groups: [][]search.Clause{{phrase("palomo", "rukezesa", "hugo"), word("absentword")}}, AnyWord: true}}
		counts, _, err := s.Search().TermFrequencies(ctx, f)
		if err != nil || counts["palomo rukezesa hugo"] != 1 {
			t.Fatalf("term frequencies = %v, %v", counts, err)
		}
		f.TermCounts = counts
		l, err := s.Search().Pages(ctx, f, storage.Window{Limit: 10})
		if err != nil || len(l.Items) != 1 || l.Items[0].PageID != "p-three" {
			t.Fatalf("any-word search = %+v, %v", l, err)
		}
	})
}
