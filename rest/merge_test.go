package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The merge suite: change requests merged into a space that moved on, page by page, through REST
// (the contract's merge and update operations) with the edits made through GraphQL, on both
// databases.

// mergeFixture is a space, edited live by its organization's admin, to open change requests on.
type mergeFixture struct {
	t     *testing.T
	e     *env
	admin account
	space string
}

func newMergeFixture(t *testing.T, e *env) *mergeFixture {
	t.Helper()
	orgID, admin := e.org("Merge", "admin@merge.test")
	space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Handbook"}`).want(http.StatusCreated).object()["id"].(string)
	return &mergeFixture{t: t, e: e, admin: admin, space: space}
}

// add creates a document page on the space (cr "") or in a change request, under parent ("" for
// the root), and returns its id.
func (m *mergeFixture) add(cr, parent, title, markdown string) string {
	m.t.Helper()
	in := map[string]any{"title": title, "markdown": markdown}
	if parent != "" {
		in["parent"] = parent
	}
	id := m.e.createPage(m.admin.Token, target(m.space, cr), in)
	if id == "" {
		m.t.Fatalf("createPage %q answered no id", title)
	}
	return id
}

// edit sets a page's markdown on the space (cr "") or in a change request.
func (m *mergeFixture) edit(cr, pageID, markdown string) {
	m.t.Helper()
	m.e.updatePage(m.admin.Token, target(m.space, cr), pageID, map[string]any{"markdown": markdown}).ok(nil)
}

// remove deletes a page (and its descendants) on the space (cr "") or in a change request.
func (m *mergeFixture) remove(cr, pageID string) {
	m.t.Helper()
	m.e.gql(m.admin.Token, `mutation($t: ContentTarget!, $p: ID!) { deletePage(target: $t, pageId: $p) { revision { id } } }`,
		map[string]any{"t": target(m.space, cr), "p": pageID}).ok(nil)
}

func (m *mergeFixture) open(subject string) string {
	m.t.Helper()
	return m.e.openChangeRequest(m.admin.Token, m.space, subject)
}

// revision is the id of the space's current revision.
func (m *mergeFixture) revision() string {
	m.t.Helper()
	return m.e.call(m.admin.Token, "GET", "/spaces/"+m.space, nil).want(http.StatusOK).object()["revision"].(string)
}

func (m *mergeFixture) crPath(cr string) string {
	return "/spaces/" + m.space + "/change-requests/" + cr
}

// changeRequest reads a change request through REST.
func (m *mergeFixture) changeRequest(cr string) map[string]any {
	m.t.Helper()
	return m.e.call(m.admin.Token, "GET", m.crPath(cr), nil).want(http.StatusOK).object()
}

func (m *mergeFixture) merge(cr string) response {
	m.t.Helper()
	return m.e.call(m.admin.Token, "POST", m.crPath(cr)+"/merge", nil)
}

func (m *mergeFixture) update(cr string) response {
	m.t.Helper()
	return m.e.call(m.admin.Token, "POST", m.crPath(cr)+"/update", nil)
}

// mustMerge merges a change request and returns the merge revision.
func (m *mergeFixture) mustMerge(cr string) string {
	m.t.Helper()
	var out struct{ Revision, Result string }
	m.merge(cr).want(http.StatusOK).decode(&out)
	if out.Result != "merge" || out.Revision == "" {
		m.t.Fatalf("merge answered %+v, want result merge and a revision", out)
	}
	return out.Revision
}

// pageState is what the merge suite compares of a page.
type pageState struct {
	Title, Markdown, Parent string
}

// pages reads the page tree of the space (cr "") or of a change request through REST, by page id.
func (m *mergeFixture) pages(cr string) map[string]pageState {
	m.t.Helper()
	path := "/spaces/" + m.space + "/content/pages"
	if cr != "" {
		path = m.crPath(cr) + "/content/pages"
	}
	var body struct{ Pages []restPage }
	m.e.call(m.admin.Token, "GET", path, nil).want(http.StatusOK).decode(&body)
	out := map[string]pageState{}
	var walk func(parent string, pages []restPage)
	walk = func(parent string, pages []restPage) {
		for _, p := range pages {
			if _, dup := out[p.ID]; dup {
				m.t.Fatalf("page %s listed twice", p.ID)
			}
			out[p.ID] = pageState{Title: p.Title, Markdown: p.Markdown, Parent: parent}
			walk(p.ID, p.Pages)
		}
	}
	walk("", body.Pages)
	return out
}

// restPage is a page of the contract's page listing.
type restPage struct {
	ID, Title, Markdown string
	Pages               []restPage
}

// wantPages fails unless the content shows exactly want.
func (m *mergeFixture) wantPages(what string, got, want map[string]pageState) {
	m.t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		m.t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

// wantRefused fails unless merging cr answers 409 and changes nothing: not the space's
// revision, not its content, not the change request (still open, same content).
func (m *mergeFixture) wantRefused(cr string) {
	m.t.Helper()
	rev, space, mine := m.revision(), m.pages(""), m.pages(cr)
	msg := m.merge(cr).wantError(http.StatusConflict)
	if msg == "" {
		m.t.Errorf("conflict answered no message")
	}
	if got := m.revision(); got != rev {
		m.t.Errorf("a refused merge moved the space from revision %s to %s", rev, got)
	}
	m.wantPages("space content after a refused merge", m.pages(""), space)
	m.wantPages("change request content after a refused merge", m.pages(cr), mine)
	if got := m.changeRequest(cr); got["status"] != "open" || got["revisionMerged"] != nil {
		m.t.Errorf("after a refused merge the change request is %v (merged %v), want open and unmerged", got["status"], got["revisionMerged"])
	}
}

// Edits on different pages (two change requests and the space itself) all merge, whatever the
// order, and the space ends with every one of them.
func TestMergeDifferentPagesMergeCleanly(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		m := newMergeFixture(t, e)
		a := m.add("", "", "Alpha", "alpha v1")
		b := m.add("", "", "Beta", "beta v1")
		c := m.add("", "", "Gamma", "gamma v1")
		initial := m.revision()

		cr1, cr2 := m.open("Edit alpha"), m.open("Edit beta")
		m.edit(cr1, a, "alpha by cr1")
		added1 := m.add(cr1, "", "Delta", "delta by cr1")
		m.edit(cr2, b, "beta by cr2")
		added2 := m.add(cr2, a, "Alpha child", "child by cr2") // under a page cr1 edits: no conflict
		m.edit("", c, "gamma on main")
		mainRev := m.revision()

		if got := m.changeRequest(cr1)["outdated"]; got != true {
			t.Errorf("cr1 outdated = %v after the space moved, want true", got)
		}
		rev1 := m.mustMerge(cr1)
		rev2 := m.mustMerge(cr2)
		if rev1 == mainRev || rev2 == rev1 {
			t.Errorf("merges made no new revisions: main %s, cr1 %s, cr2 %s", mainRev, rev1, rev2)
		}
		if got := m.revision(); got != rev2 {
			t.Errorf("space revision = %s, want the last merge %s", got, rev2)
		}
		m.wantPages("space content after both merges", m.pages(""), map[string]pageState{
			a:      {"Alpha", "alpha by cr1", ""},
			b:      {"Beta", "beta by cr2", ""},
			c:      {"Gamma", "gamma on main", ""},
			added1: {"Delta", "delta by cr1", ""},
			added2: {"Alpha child", "child by cr2", a},
		})
		for cr, rev := range map[string]string{cr1: rev1, cr2: rev2} {
			got := m.changeRequest(cr)
			if got["status"] != "merged" || got["revisionMerged"] != rev || got["outdated"] != false {
				t.Errorf("change request %s after merge: status %v, revisionMerged %v (want %s), outdated %v", cr, got["status"], got["revisionMerged"], rev, got["outdated"])
			}
		}
		// The revision the space started from still shows the old content.
		var old struct{ Pages []restPage }
		e.call(m.admin.Token, "GET", "/spaces/"+m.space+"/revisions/"+initial+"/pages", nil).want(http.StatusOK).decode(&old)
		if len(old.Pages) != 3 || old.Pages[0].Markdown != "alpha v1" {
			t.Errorf("revision %s changed after merges: %+v", initial, old.Pages)
		}
		// A merged change request takes no more merges.
		m.merge(cr1).wantError(http.StatusConflict)
	})
}

// The same page changed differently on both sides is a conflict: the second merge answers 409
// and changes nothing. The same change made on both sides is not a conflict.
func TestMergeSamePageConflicts(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		m := newMergeFixture(t, e)
		a := m.add("", "", "Alpha", "alpha v1")
		b := m.add("", "", "Beta", "beta v1")

		t.Run("two change requests", func(t *testing.T) {
			cr1, cr2 := m.open("First"), m.open("Second")
			m.edit(cr1, a, "alpha by cr1")
			m.edit(cr2, a, "alpha by cr2")
			m.mustMerge(cr1)
			m.wantRefused(cr2)
			if got := m.pages("")[a].Markdown; got != "alpha by cr1" {
				t.Errorf("alpha = %q, want the first merge's", got)
			}
			if got := m.pages(cr2)[a].Markdown; got != "alpha by cr2" {
				t.Errorf("cr2 shows alpha = %q, want its own edit", got)
			}
		})

		t.Run("change request against the space", func(t *testing.T) {
			cr := m.open("Against main")
			m.edit(cr, b, "beta by cr")
			m.edit("", b, "beta on main")
			m.wantRefused(cr)
			// GraphQL refuses the same merge with CONFLICT.
			g := e.gql(m.admin.Token, `mutation($s: ID!, $cr: ID!) { mergeChangeRequest(spaceId: $s, changeRequestId: $cr) { result } }`,
				map[string]any{"s": m.space, "cr": cr})
			if code := g.code(); code != "CONFLICT" {
				t.Errorf("GraphQL merge code = %q, want CONFLICT", code)
			}
		})

		t.Run("title against markdown", func(t *testing.T) {
			// Pages merge whole: a title changed on one side and the content on the other conflict.
			cr := m.open("Retitle")
			e.updatePage(m.admin.Token, target(m.space, cr), b, map[string]any{"title": "Beta renamed"}).ok(nil)
			m.edit("", b, "beta on main again")
			m.wantRefused(cr)
		})

		t.Run("same edit on both sides", func(t *testing.T) {
			cr1, cr2 := m.open("Same one"), m.open("Same two")
			m.edit(cr1, a, "alpha agreed")
			m.edit(cr2, a, "alpha agreed")
			m.mustMerge(cr1)
			m.mustMerge(cr2)
			cr3 := m.open("Same as main")
			m.edit(cr3, b, "beta agreed")
			m.edit("", b, "beta agreed")
			m.mustMerge(cr3)
			got := m.pages("")
			if got[a].Markdown != "alpha agreed" || got[b].Markdown != "beta agreed" {
				t.Errorf("after agreeing merges: alpha %q, beta %q", got[a].Markdown, got[b].Markdown)
			}
		})

		t.Run("edit against delete", func(t *testing.T) {
			c := m.add("", "", "Gamma", "gamma v1")
			d := m.add("", "", "Delta", "delta v1")
			cr1 := m.open("Edit gamma")
			m.edit(cr1, c, "gamma by cr")
			m.remove("", c)
			m.wantRefused(cr1)

			cr2 := m.open("Delete delta")
			m.remove(cr2, d)
			m.edit("", d, "delta on main")
			m.wantRefused(cr2)
		})

		t.Run("delete on both sides", func(t *testing.T) {
			f := m.add("", "", "Epsilon", "epsilon v1")
			cr := m.open("Delete epsilon")
			m.remove(cr, f)
			m.remove("", f)
			m.mustMerge(cr)
			if _, ok := m.pages("")[f]; ok {
				t.Errorf("a page deleted on both sides came back")
			}
		})
	})
}

// Page changes that no longer fit the space's tree conflict.
func TestMergeTreeConflicts(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		m := newMergeFixture(t, e)

		t.Run("child added under a page the space deletes", func(t *testing.T) {
			p := m.add("", "", "Parent", "parent")
			cr := m.open("Add a child")
			m.add(cr, p, "Child", "child")
			m.remove("", p)
			m.wantRefused(cr)
		})

		t.Run("page deleted while the space adds a child under it", func(t *testing.T) {
			p := m.add("", "", "Parent two", "parent")
			existing := m.add("", p, "Old child", "old")
			cr := m.open("Delete the parent")
			m.remove(cr, p)
			if _, ok := m.pages(cr)[existing]; ok {
				t.Fatalf("deleting a page in a change request kept its child")
			}
			m.add("", p, "New child", "new")
			m.wantRefused(cr)
		})

		t.Run("page moved under a page the space deletes", func(t *testing.T) {
			p := m.add("", "", "Target", "target")
			q := m.add("", "", "Mover", "mover")
			cr := m.open("Move")
			e.gql(m.admin.Token, `mutation($t: ContentTarget!, $p: ID!, $to: ID!) { movePage(target: $t, pageId: $p, input: {parent: $to}) { page { id } } }`,
				map[string]any{"t": target(m.space, cr), "p": q, "to": p}).ok(nil)
			m.remove("", p)
			m.wantRefused(cr)
		})
	})
}

// Updating a change request from its space brings in the space's changes when they do not
// conflict, and answers "conflicts" (changing nothing) when they do.
func TestMergeUpdateFromSpace(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		m := newMergeFixture(t, e)
		a := m.add("", "", "Alpha", "alpha v1")
		b := m.add("", "", "Beta", "beta v1")

		t.Run("conflicts", func(t *testing.T) {
			cr := m.open("Conflicting")
			m.edit(cr, a, "alpha by cr")
			m.edit("", a, "alpha on main")
			before, crBefore, spaceBefore := m.changeRequest(cr), m.pages(cr), m.revision()
			var out struct{ Revision, Result string }
			m.update(cr).want(http.StatusOK).decode(&out)
			if out.Result != "conflicts" || out.Revision != before["revision"] {
				t.Errorf("update answered %+v, want result conflicts and the unchanged revision %v", out, before["revision"])
			}
			after := m.changeRequest(cr)
			if after["revision"] != before["revision"] || after["outdated"] != true || after["status"] != "open" {
				t.Errorf("a conflicting update changed the change request: revision %v → %v, outdated %v, status %v", before["revision"], after["revision"], after["outdated"], after["status"])
			}
			m.wantPages("change request content after a conflicting update", m.pages(cr), crBefore)
			if got := m.revision(); got != spaceBefore {
				t.Errorf("a conflicting update moved the space: %s → %s", spaceBefore, got)
			}
			// Archive it so that the next subtests start from a clean slate.
			e.call(m.admin.Token, "PATCH", m.crPath(cr), `{"status":"archived"}`).want(http.StatusOK)
		})

		t.Run("update", func(t *testing.T) {
			cr := m.open("Clean")
			m.edit(cr, a, "alpha by cr")
			mine := m.add(cr, "", "Mine", "cr page")
			m.edit("", b, "beta on main")
			theirs := m.add("", b, "Theirs", "main page")
			if got := m.changeRequest(cr)["outdated"]; got != true {
				t.Fatalf("outdated = %v after the space moved, want true", got)
			}
			before := m.changeRequest(cr)["revision"]
			var out struct{ Revision, Result string }
			m.update(cr).want(http.StatusOK).decode(&out)
			if out.Result != "update" || out.Revision == "" || out.Revision == before {
				t.Errorf("update answered %+v, want result update and a new revision (was %v)", out, before)
			}
			got := m.changeRequest(cr)
			if got["outdated"] != false || got["revision"] != out.Revision || got["status"] != "open" {
				t.Errorf("after update: outdated %v, revision %v (want %s), status %v", got["outdated"], got["revision"], out.Revision, got["status"])
			}
			want := m.pages("")
			want[a] = pageState{"Alpha", "alpha by cr", ""}
			want[mine] = pageState{"Mine", "cr page", ""}
			m.wantPages("change request content after update", m.pages(cr), want)
			if want[theirs].Markdown != "main page" || want[b].Markdown != "beta on main" {
				t.Errorf("space lost its own edits: %+v", want)
			}
			// Updating again with nothing new is a no-op update.
			m.update(cr).want(http.StatusOK)
			m.wantPages("change request content after a second update", m.pages(cr), want)
			// The updated change request merges cleanly, even after the space moves on again.
			m.edit("", theirs, "main page v2")
			want[theirs] = pageState{"Theirs", "main page v2", b}
			m.mustMerge(cr)
			m.wantPages("space content after merging the updated change request", m.pages(""), want)
		})

		t.Run("update drops what the space already did", func(t *testing.T) {
			cr := m.open("Same as main")
			m.edit(cr, b, "beta agreed")
			m.edit("", b, "beta agreed")
			var out struct{ Result string }
			m.update(cr).want(http.StatusOK).decode(&out)
			if out.Result != "update" {
				t.Fatalf("update result = %q, want update", out.Result)
			}
			// Later space edits of that page are no conflict: the change request no longer holds it.
			m.edit("", b, "beta on main later")
			m.mustMerge(cr)
			if got := m.pages("")[b].Markdown; got != "beta on main later" {
				t.Errorf("beta = %q after merging a change request whose edit the space had made; want the space's later edit", got)
			}
		})
	})
}

// Merges racing on one space take turns: every merge of change requests editing different
// pages succeeds, and the space's history is one chain holding every merge (and every live edit
// made meanwhile): no revision is lost.
func TestMergeRacingMergesLoseNoRevision(t *testing.T) {
	const merges, liveEdits = 8, 4
	eachDB(t, func(t *testing.T, e *env) {
		m := newMergeFixture(t, e)
		pages := make([]string, merges+liveEdits)
		for i := range pages {
			pages[i] = m.add("", "", fmt.Sprintf("Page %d", i), fmt.Sprintf("page %d v1", i))
		}
		crs := make([]string, merges)
		crRevisions := map[string]string{}
		for i := range crs {
			crs[i] = m.open(fmt.Sprintf("Edit page %d", i))
			m.edit(crs[i], pages[i], fmt.Sprintf("page %d by cr", i))
			crRevisions[crs[i]] = m.changeRequest(crs[i])["revision"].(string)
		}
		start := m.revision()

		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			startCh = make(chan struct{})
			made    = map[string]string{} // revision → what made it
			results = make([]string, 0, merges+liveEdits)
		)
		for i, cr := range crs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-startCh
				res := e.call(m.admin.Token, "POST", m.crPath(cr)+"/merge", nil)
				mu.Lock()
				defer mu.Unlock()
				results = append(results, fmt.Sprintf("merge %d: %d %s", i, res.Status, res.Body))
				var out struct{ Revision, Result string }
				if res.Status != http.StatusOK {
					t.Errorf("merge %d answered %d %s", i, res.Status, res.Body)
					return
				}
				if err := json.Unmarshal(res.Body, &out); err != nil || out.Result != "merge" {
					t.Errorf("merge %d answered %s", i, res.Body)
					return
				}
				made[out.Revision] = "merge of " + cr
			}()
		}
		for i := merges; i < merges+liveEdits; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-startCh
				g := e.gql(m.admin.Token, `mutation($t: ContentTarget!, $p: ID!, $in: UpdatePageInput!) { updatePage(target: $t, pageId: $p, input: $in) { revision { id } } }`,
					map[string]any{"t": target(m.space, ""), "p": pages[i], "in": map[string]any{"markdown": fmt.Sprintf("page %d live", i)}})
				mu.Lock()
				defer mu.Unlock()
				if len(g.Errors) > 0 {
					t.Errorf("live edit %d: %+v", i, g.Errors)
					return
				}
				var data struct {
					UpdatePage struct{ Revision struct{ ID string } }
				}
				if err := json.Unmarshal(g.Data, &data); err != nil || data.UpdatePage.Revision.ID == "" {
					t.Errorf("live edit %d answered %s", i, g.Data)
					return
				}
				made[data.UpdatePage.Revision.ID] = fmt.Sprintf("live edit %d", i)
			}()
		}
		close(startCh)
		wg.Wait()
		if t.Failed() {
			t.Fatalf("racing writes failed:\n%v", results)
		}
		if len(made) != merges+liveEdits {
			t.Fatalf("%d writes made %d distinct revisions, want %d", merges+liveEdits, len(made), merges+liveEdits)
		}

		// The space's line, walked back from its head by first parents, is exactly the racing
		// writes, each once, then the revision the race started from.
		revs := m.revisions()
		head := m.revision()
		var chain []string
		seen := map[string]bool{}
		for id := head; id != start; {
			r, ok := revs[id]
			if !ok {
				t.Fatalf("revision %s (after %v) is not in the space's revisions", id, chain)
			}
			if seen[id] {
				t.Fatalf("the chain loops at %s", id)
			}
			seen[id] = true
			chain = append(chain, id)
			if len(r.Parents) == 0 {
				t.Fatalf("the chain from head %s ended at %s before reaching %s: %v", head, id, start, chain)
			}
			id = r.Parents[0]
		}
		if len(chain) != merges+liveEdits {
			t.Errorf("the chain from the race's start to the head has %d revisions, want %d", len(chain), merges+liveEdits)
		}
		mergeCount := 0
		for _, id := range chain {
			what, ok := made[id]
			if !ok {
				t.Errorf("revision %s on the chain was made by none of the racing writes", id)
			}
			r := revs[id]
			if r.Type == "MERGE" {
				mergeCount++
				if len(r.Parents) != 2 || "merge of "+crOf(crRevisions, r.Parents[1]) != what {
					t.Errorf("merge revision %s (%s) has parents %v; want [previous head, the change request's revision]", id, what, r.Parents)
				}
			} else if r.Type != "EDITS" || len(r.Parents) != 1 {
				t.Errorf("revision %s (%s) is %s with parents %v", id, what, r.Type, r.Parents)
			}
		}
		for id := range made {
			if !seen[id] {
				t.Errorf("revision %s (%s) is not on the space's chain: lost", id, made[id])
			}
		}
		allMerges := 0
		for _, r := range revs {
			if r.Type == "MERGE" {
				allMerges++
			}
		}
		if mergeCount != merges || allMerges != merges {
			t.Errorf("%d merge revisions on the chain, %d in all; want %d", mergeCount, allMerges, merges)
		}

		got := m.pages("")
		for i, p := range pages {
			want := fmt.Sprintf("page %d by cr", i)
			if i >= merges {
				want = fmt.Sprintf("page %d live", i)
			}
			if got[p].Markdown != want {
				t.Errorf("page %d = %q, want %q", i, got[p].Markdown, want)
			}
		}
		for _, cr := range crs {
			if s := m.changeRequest(cr)["status"]; s != "merged" {
				t.Errorf("change request %s is %v after its merge", cr, s)
			}
		}
	})
}

// Two merges of change requests editing the same page, racing: exactly one wins, the other is
// refused with 409, and the space holds the winner's edit.
func TestMergeRacingConflictOneWins(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		m := newMergeFixture(t, e)
		p := m.add("", "", "Contested", "v1")
		for round := range 3 {
			crs := []string{m.open(fmt.Sprintf("Round %d a", round)), m.open(fmt.Sprintf("Round %d b", round))}
			for i, cr := range crs {
				m.edit(cr, p, fmt.Sprintf("round %d by %d", round, i))
			}
			before := m.revision()
			statuses := make([]int, len(crs))
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i, cr := range crs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					statuses[i] = e.call(m.admin.Token, "POST", m.crPath(cr)+"/merge", nil).Status
				}()
			}
			close(start)
			wg.Wait()
			sorted := append([]int(nil), statuses...)
			sort.Ints(sorted)
			if sorted[0] != http.StatusOK || sorted[1] != http.StatusConflict {
				t.Fatalf("round %d: merges answered %v, want one 200 and one 409", round, statuses)
			}
			winner := 0
			if statuses[1] == http.StatusOK {
				winner = 1
			}
			if got := m.pages("")[p].Markdown; got != fmt.Sprintf("round %d by %d", round, winner) {
				t.Errorf("round %d: page = %q, want the winner's (%d)", round, got, winner)
			}
			revs := m.revisions()
			head := revs[m.revision()]
			if head.Type != "MERGE" || head.Parents[0] != before {
				t.Errorf("round %d: head %+v, want one merge on %s", round, head, before)
			}
			if s := m.changeRequest(crs[1-winner])["status"]; s != "open" {
				t.Errorf("round %d: the refused change request is %v, want open", round, s)
			}
		}
	})
}

// gqlRevision is a revision as the GraphQL revisions list shows it.
type gqlRevision struct {
	ID      string
	Parents []string
	Type    string
}

// revisions reads every revision of the space (its own and its change requests') through GraphQL.
func (m *mergeFixture) revisions() map[string]gqlRevision {
	m.t.Helper()
	out := map[string]gqlRevision{}
	var after any
	for {
		var data struct {
			Space struct {
				Revisions struct {
					Nodes    []gqlRevision
					PageInfo struct {
						HasNextPage bool
						EndCursor   string
					}
				}
			}
		}
		m.e.gql(m.admin.Token, `query($s: ID!, $after: String) { space(id: $s) { revisions(first: 50, after: $after) { nodes { id parents type } pageInfo { hasNextPage endCursor } } } }`,
			map[string]any{"s": m.space, "after": after}).ok(&data)
		for _, r := range data.Space.Revisions.Nodes {
			if _, dup := out[r.ID]; dup {
				m.t.Fatalf("revision %s listed twice", r.ID)
			}
			out[r.ID] = r
		}
		if !data.Space.Revisions.PageInfo.HasNextPage {
			return out
		}
		after = data.Space.Revisions.PageInfo.EndCursor
	}
}

// crOf is the change request whose latest revision is rev.
func crOf(crRevisions map[string]string, rev string) string {
	for cr, r := range crRevisions {
		if r == rev {
			return cr
		}
	}
	return "?"
}

// The merge rules keep the space's page tree a tree. A change request that moves page Q under P,
// merged (or updated) after the space moved P under Q, would make P and Q each other's parent:
// both, and everything under them, would vanish from every listing. Such a merge must be refused
// as a conflict (or resolved) — never leave pages unreachable.
func TestMergeNeverMakesACycle(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		m := newMergeFixture(t, e)
		move := func(cr, page, parent string) {
			t.Helper()
			e.gql(m.admin.Token, `mutation($t: ContentTarget!, $p: ID!, $to: ID!) { movePage(target: $t, pageId: $p, input: {parent: $to}) { page { id } } }`,
				map[string]any{"t": target(m.space, cr), "p": page, "to": parent}).ok(nil)
		}
		t.Run("merge", func(t *testing.T) {
			p, q := m.add("", "", "P", "p"), m.add("", "", "Q", "q")
			m.add("", q, "Under Q", "under q")
			cr := m.open("Q under P")
			move(cr, q, p)
			move("", p, q)
			before := m.pages("")
			res := m.merge(cr)
			after := m.pages("")
			switch res.Status {
			case http.StatusConflict:
				m.wantPages("space after a refused merge", after, before)
			case http.StatusOK:
				if len(after) != len(before) {
					t.Errorf("the merge answered 200 and left %d of the %d pages reachable: P and Q are each other's parent", len(after), len(before))
				}
			default:
				t.Errorf("merge answered %d %s", res.Status, res.Body)
			}
		})
		t.Run("update", func(t *testing.T) {
			p, q := m.add("", "", "P2", "p2"), m.add("", "", "Q2", "q2")
			cr := m.open("Q2 under P2")
			move(cr, q, p)
			move("", p, q)
			before := m.pages(cr)
			var out struct{ Result string }
			m.update(cr).want(http.StatusOK).decode(&out)
			after := m.pages(cr)
			if out.Result == "conflicts" {
				m.wantPages("change request after a refused update", after, before)
			} else if len(after) != len(m.pages("")) {
				t.Errorf("update answered %q and the change request shows %d pages of the space's %d: P2 and Q2 are each other's parent", out.Result, len(after), len(m.pages("")))
			}
		})
	})
}

// Slugs are unique among siblings (docs/content.md, c2), so every page has its own path. Two
// change requests each adding a page titled "Intro" at the root both get slug "intro"; merging
// the second must refuse (409) or re-slug, not leave two pages at path "intro".
func TestMergeKeepsSiblingSlugsUnique(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		m := newMergeFixture(t, e)
		m.add("", "", "Start", "start")
		cr1, cr2 := m.open("Intro one"), m.open("Intro two")
		m.add(cr1, "", "Intro", "one")
		m.add(cr2, "", "Intro", "two")
		m.mustMerge(cr1)
		res := m.merge(cr2)
		if res.Status != http.StatusOK && res.Status != http.StatusConflict {
			t.Fatalf("merge answered %d %s", res.Status, res.Body)
		}
		var body struct {
			Pages []struct{ ID, Slug, Path string }
		}
		e.call(m.admin.Token, "GET", "/spaces/"+m.space+"/content/pages", nil).want(http.StatusOK).decode(&body)
		paths := map[string]string{}
		for _, p := range body.Pages {
			if other, dup := paths[p.Path]; dup {
				t.Errorf("merge answered %d and pages %s and %s share path %q", res.Status, other, p.ID, p.Path)
			}
			paths[p.Path] = p.ID
		}
	})
}

// A space's history reads newest first by createdAt, so each revision of the space's line must be
// no older than its parent, however merges race: the store reads the clock once it holds the
// space's lock, so the order of times is the order of turns.
func TestMergeRevisionTimesFollowTheChain(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		m := newMergeFixture(t, e)
		const n = 6
		pages := make([]string, n)
		crs := make([]string, n)
		for i := range n {
			pages[i] = m.add("", "", fmt.Sprintf("Page %d", i), "v0")
			crs[i] = m.open(fmt.Sprintf("Edit %d", i))
			m.edit(crs[i], pages[i], "v1")
		}
		var wg sync.WaitGroup
		for _, cr := range crs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if res := m.merge(cr); res.Status != http.StatusOK {
					t.Errorf("merge answered %d %s", res.Status, res.Body)
				}
			}()
		}
		wg.Wait()

		var data struct {
			Space struct {
				Revisions struct {
					Nodes []struct {
						ID        string
						Type      string
						Parents   []string
						CreatedAt time.Time
					}
				}
			}
		}
		e.gql(m.admin.Token, `query($s: ID!) { space(id: $s) { revisions(first: 100) { nodes { id type parents createdAt } } } }`,
			map[string]any{"s": m.space}).ok(&data)
		byID := map[string]time.Time{}
		for _, r := range data.Space.Revisions.Nodes {
			byID[r.ID] = r.CreatedAt
		}
		head := m.revision()
		if got := data.Space.Revisions.Nodes[0].ID; got != head {
			t.Errorf("revisions (newest first) start at %s, not at the space's head %s", got, head)
		}
		for _, r := range data.Space.Revisions.Nodes {
			if r.Type == "MERGE" && len(r.Parents) > 0 && r.CreatedAt.Before(byID[r.Parents[0]]) {
				t.Errorf("merge revision %s was created at %s, before its parent %s (%s)", r.ID, r.CreatedAt.Format(time.RFC3339Nano), r.Parents[0], byID[r.Parents[0]].Format(time.RFC3339Nano))
			}
		}
	})
}

// A page a change request edits and then edits back is no change: it neither conflicts with the
// space's edit of that page nor overwrites it, and an update shows the space's version.
func TestMergeRevertedEditIsNoChange(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		m := newMergeFixture(t, e)
		page := m.add("", "", "Intro", "original")
		other := m.add("", "", "Other", "other")
		cr := m.open("Try and undo")
		m.edit(cr, page, "tried")
		m.edit(cr, page, "original")
		m.edit(cr, other, "other, edited")
		m.edit("", page, "edited in the space")

		var updated struct{ Result string }
		m.update(cr).want(http.StatusOK).decode(&updated)
		if updated.Result != "update" {
			t.Fatalf("update result = %q, want update", updated.Result)
		}
		var inCR struct{ Markdown string }
		e.call(m.admin.Token, "GET", m.crPath(cr)+"/content/page/"+page+"?format=markdown", nil).want(http.StatusOK).decode(&inCR)
		if inCR.Markdown != "edited in the space" {
			t.Errorf("change request shows %q after the update, want the space's edit", inCR.Markdown)
		}
		m.mustMerge(cr)
		for id, want := range map[string]string{page: "edited in the space", other: "other, edited"} {
			var got struct{ Markdown string }
			e.call(m.admin.Token, "GET", "/spaces/"+m.space+"/content/page/"+id+"?format=markdown", nil).want(http.StatusOK).decode(&got)
			if got.Markdown != want {
				t.Errorf("page %s after the merge = %q, want %q", id, got.Markdown, want)
			}
		}
	})
}
