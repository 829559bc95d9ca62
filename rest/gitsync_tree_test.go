package rest_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
)

// apiTree builds a random page tree in a space through the API, as an editor would: pages and
// links at the root first, then groups; documents nest up to three levels; some slugs given by
// hand, some derived from titles that hold SUMMARY.md's syntax.
type apiTree struct {
	e     *env
	token string
	to    map[string]any
	rnd   *rand.Rand
}

var apiTitleRunes = []rune("abcXYZ019 é#[]()<>\"\\*_.-!?`|:")

func (a apiTree) title() string {
	for {
		r := make([]rune, 1+a.rnd.IntN(12))
		for i := range r {
			r[i] = apiTitleRunes[a.rnd.IntN(len(apiTitleRunes))]
		}
		if s := string(r); strings.TrimSpace(s) == s {
			return s
		}
	}
}

func (a apiTree) create(parent *string, kind string, depth int) {
	in := map[string]any{"type": kind, "title": a.title()}
	if parent != nil {
		in["parent"] = *parent
	}
	switch {
	case kind == "LINK":
		in["target"] = map[string]any{"kind": "url", "url": fmt.Sprintf("https://example.com/%d", a.rnd.IntN(9))}
	case a.rnd.IntN(3) == 0:
		in["slug"] = fmt.Sprintf("%s%d", []string{"readme", "a_b", "v1.", "p"}[a.rnd.IntN(4)], a.rnd.IntN(1000))
	}
	if kind == "DOCUMENT" {
		in["markdown"] = fmt.Sprintf("Body %d.\n", a.rnd.IntN(100)) // a file ends in a newline
	}
	id := a.e.createPage(a.token, a.to, in)
	if kind == "LINK" || depth >= 3 {
		return
	}
	for n := a.rnd.IntN(3); n > 0; n-- {
		a.create(&id, []string{"DOCUMENT", "DOCUMENT", "LINK"}[a.rnd.IntN(3)], depth+1)
	}
}

func (a apiTree) build() {
	for n := 1 + a.rnd.IntN(3); n > 0; n-- {
		a.create(nil, []string{"DOCUMENT", "DOCUMENT", "LINK"}[a.rnd.IntN(3)], 0)
	}
	for n := a.rnd.IntN(3); n > 0; n-- {
		a.create(nil, "GROUP", 0)
	}
}

// withoutGit drops what only an import records (each page's file in the repository).
func withoutGit(pages []pageShape) []pageShape {
	for i := range pages {
		pages[i].Git = ""
		pages[i].Pages = withoutGit(pages[i].Pages)
	}
	return pages
}

// TestGitSyncRoundTripKeepsRandomTrees: random trees made through the API, exported and imported
// into another space, come back with every page's type, title, slug, path, content, order and
// parent.
func TestGitSyncRoundTripKeepsRandomTrees(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		gitEnv(t, e)
		orgID, admin := e.org("Docs", "admin@tree.test")
		for seed := range uint64(6) {
			src := e.newSpace(admin.Token, orgID, fmt.Sprintf("Source %d", seed))
			apiTree{e: e, token: admin.Token, to: map[string]any{"spaceId": src}, rnd: rand.New(rand.NewPCG(seed, 27))}.build()
			want, _, _ := e.contentOf(admin.Token, src)

			repo, dir := bareRepo(t)
			e.call(admin.Token, "POST", "/spaces/"+src+"/git/export", map[string]any{"url": repo, "ref": "refs/heads/main", "commitMessage": "Export"}).want(http.StatusNoContent)
			e.runJobs()
			if state, msg := e.lastJob(admin.Token, src); state != "succeeded" {
				t.Fatalf("seed %d: export: %s %s", seed, state, msg)
			}
			dst := e.newSpace(admin.Token, orgID, fmt.Sprintf("Copy %d", seed))
			e.call(admin.Token, "POST", "/spaces/"+dst+"/git/import", map[string]any{"url": repo, "ref": "refs/heads/main"}).want(http.StatusNoContent)
			e.runJobs()
			if state, msg := e.lastJob(admin.Token, dst); state != "succeeded" {
				t.Fatalf("seed %d: import: %s %s", seed, state, msg)
			}
			if got, _, _ := e.contentOf(admin.Token, dst); !equalJSON(withoutGit(got), want) {
				files, _ := branchFiles(t, dir, "main")
				t.Fatalf("seed %d: round trip changed the pages:\n%s\nwant:\n%s\nSUMMARY.md:\n%s", seed, dump(got), dump(want), files["SUMMARY.md"])
			}
		}
	})
}

// TestPageAfterGroupIsRefused: SUMMARY.md cannot hold a root page below a group, so neither can
// the tree: creating or moving one there is a 400 naming the way out, and nothing changes.
func TestPageAfterGroupIsRefused(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Docs", "admin@order.test")
		space := e.newSpace(admin.Token, orgID, "Ordered")
		to := map[string]any{"spaceId": space}
		home := e.createPage(admin.Token, to, map[string]any{"title": "Home"})
		group := e.createPage(admin.Token, to, map[string]any{"type": "GROUP", "title": "Guides"})
		inside := e.createPage(admin.Token, to, map[string]any{"title": "Install", "parent": group})
		before, _, _ := e.contentOf(admin.Token, space)

		create := `mutation($t: ContentTarget!, $in: CreatePageInput!) { createPage(target: $t, input: $in) { page { id } } }`
		move := `mutation($t: ContentTarget!, $p: ID!, $in: MovePageInput!) { movePage(target: $t, pageId: $p, input: $in) { page { id } } }`
		for _, c := range []struct {
			name, query string
			vars        map[string]any
		}{
			{"a page created last", create, map[string]any{"t": to, "in": map[string]any{"title": "Release notes"}}},
			{"a link created after the group", create, map[string]any{"t": to, "in": map[string]any{"type": "LINK", "title": "Release notes", "after": group, "target": map[string]any{"kind": "url", "url": "https://example.com"}}}},
			{"a group created first", create, map[string]any{"t": to, "in": map[string]any{"type": "GROUP", "title": "Reference", "before": home}}},
			{"a page moved out of its group", move, map[string]any{"t": to, "p": inside, "in": map[string]any{"after": group}}},
			{"the root page moved last", move, map[string]any{"t": to, "p": home, "in": map[string]any{"after": group}}},
		} {
			res := e.gql(admin.Token, c.query, c.vars)
			if code := res.code(); code != "INVALID" || !strings.Contains(res.Errors[0].Message, "follows the group") || !strings.Contains(res.Errors[0].Message, "before the first group") {
				t.Fatalf("%s: %s %q, want INVALID explaining the order", c.name, code, res.Errors[0].Message)
			}
		}
		if after, _, _ := e.contentOf(admin.Token, space); !equalJSON(after, before) {
			t.Fatalf("a refused edit changed the pages:\n%s\nwant:\n%s", dump(after), dump(before))
		}
		// Before the first group, or inside one, is fine.
		e.createPage(admin.Token, to, map[string]any{"title": "Release notes", "before": group})
		e.createPage(admin.Token, to, map[string]any{"type": "GROUP", "title": "Reference"})
	})
}
