package rest_test

import (
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
)

// gitbookBlocksRepo reads testdata/gitbook-blocks, a repository in GitBook's Git Sync format with
// every block kind, and adds its image.
func gitbookBlocksRepo(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	root := filepath.Join("testdata", "gitbook-blocks")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	files[".gitbook/assets/cover.png"] = string(pngBytes)
	files[".gitbook/assets/petstore.json"] = petstoreSpec // an OpenAPI block of blocks/code.md names it
	return files
}

// syntaxShown finds GitBook or HTML syntax shown as text on a published page: liquid tags,
// escaped tags (&lt;tag), GitBook's attributes, icon or emoji tokens (:github:) standing as words
// outside markup. Use it through shownSyntax, which leaves code alone.
var syntaxShown = regexp.MustCompile(`\{%|%\}|&lt;/?[a-zA-Z]|data-view|data-icon|data-card|data-mention|>(?:[^<]*\s)?:[a-z][a-z0-9-]*:(?:[\s.,;!?)][^<]*)?<`)

// codeElement is code and preformatted text: a page that documents syntax shows it there on
// purpose.
var codeElement = regexp.MustCompile(`(?s)<pre[ >].*?</pre>|<code[ >].*?</code>`)

// shownSyntax is the first GitBook or HTML syntax a page shows as text outside code, or "".
func shownSyntax(page string) string {
	return syntaxShown.FindString(codeElement.ReplaceAllString(page, ""))
}

// shownSyntaxContext is shownSyntax with up to 80 bytes of the page around it, to find it by.
func shownSyntaxContext(page string) string {
	prose := codeElement.ReplaceAllString(page, "")
	at := syntaxShown.FindStringIndex(prose)
	if at == nil {
		return ""
	}
	return prose[max(0, at[0]-80):min(len(prose), at[1]+80)]
}

// TestGitBookRepositoryRenders imports a GitBook repository holding every block kind through Git
// Sync, publishes it, and reads every page through the published reader: each construct has its
// element and no page shows GitBook syntax as text. The pages keep their markdown as written
// (the .md route) and export back byte for byte.
func TestGitBookRepositoryRenders(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		gitEnv(t, e)
		orgID, admin := e.org("Docs", "admin@blocks.test")
		putPetstore(e, admin.Token, orgID) // what the OpenAPI blocks of blocks/code.md name
		repo := gitbookBlocksRepo(t)
		src, _ := gitRepo(t, repo)
		sp, site := e.importAndPublish(admin.Token, orgID, "Blocks", "blocks", map[string]any{"url": src, "ref": "refs/heads/main"})

		pages, _, rev := e.contentOf(admin.Token, sp)
		// What each page must show, by its file in the repository.
		want := map[string][]string{
			"README.md": {` id="build" class="align-center">Build with Bindery`, `<p class="align-center">Everything`,
				`class="card card-cover" href="https://bindery.test/sites/blocks/blocks/layout"`, `<img src="https://bindery.test/sites/blocks/~files/`,
				`<a class="button button-primary" href="https://bindery.test/sites/blocks/blocks/layout"><span class="icon" role="img" aria-label="rocket">`,
				`<a class="button button-secondary" href="https://e.example">Website</a>`},
			"inline.md": {`<kbd>Ctrl</kbd>`, `<mark class="text-red">Stop</mark>`, `<mark class="bg-yellow">note</mark>`, `aria-label="github"`,
				`<a class="mention" href="https://bindery.test/sites/blocks/blocks/layout">Layout</a>`, `<a class="mention" href="https://bindery.test/sites/blocks/blocks/media">Media</a>`,
				`<sub>2</sub>`, `<sup>2</sup>`, `<picture><source srcset="https://bindery.test/sites/blocks/~files/`, `<a href="https://e.example">the site</a><br>today.`,
				`Ship it <span class="emoji">🎉</span>`, `<span class="annotation">reviewers<sup class="annotation-ref"><a href="#fn-1"`, `<li id="fn-1"><p>Everyone who read the drafts.</p>`,
				`<p class="card broken-link reusable-content-missing"><span class="card-title">Reusable content not found</span><span class="card-text">gone.md</span></p>`,
				`<p>Shown to readers outside the beta.</p>`},
			"blocks/layout.md": {` id="the-steps">Steps`, `<ol class="stepper"><li class="step"><h`, ` id="install">Install`, `<aside class="hint hint-info"`,
				`<div class="column" style="flex-basis:60%"><p>Left column text.</p>`, `<a class="button button-primary" href="https://bindery.test/sites/blocks/inline">Try it</a>`,
				`data-title="macOS"`, `<summary>More details</summary>`, `<a class="card content-ref" href="https://bindery.test/sites/blocks/blocks/media">`, "<blockquote>",
				`<details class="prompt"><summary><span class="icon`, `Draft a summary</summary>`, `Write three lines about the layout blocks.`},
			"blocks/media.md": {`alt="A cover" loading="lazy" width="1" height="1" style="height:auto;width:300px">`, `<figcaption>The <strong>cover</strong></figcaption>`,
				`<picture><source srcset="https://bindery.test/sites/blocks/~files/`, `<figcaption>A caption</figcaption>`, `alt="" loading="lazy" width="1" height="1"></figure>`, `class="card embed"`, `class="card file"`, `<p>The cover, to download</p>`,
				`<figure class="code diagram" data-diagram="mermaid"><pre class="chroma" tabindex="0"><code data-lang="mermaid">graph TD; A--&gt;B</code>`,
				`<div class="html"><div><p>Widget</p></div></div>`},
			"blocks/code.md": {`<figcaption>install.sh</figcaption>`, `numbered`, `<code data-lang="json">`, `class="math"`,
				// Unresolved OpenAPI blocks are cards; those naming the organization's specification
				// show it; the legacy block shows what it writes out.
				`<code>GET /pets</code></span><span class="card-text">OpenAPI specification https://e.example/openapi.yaml`,
				`<code>GET /items</code></span><span class="card-text">OpenAPI specification inventory`,
				"A pet was adopted", "<code>POST petAdopted</code>", "Sent when a pet finds a home.",
				`<code>Webhook: restocked</code></span><span class="card-text">OpenAPI specification inventory`,
				`<section class="openapi openapi-resolved">`, `Delete a pet`, `<code>DELETE /pets/{id}</code>`, `Removes the pet for good.`, `A pet of the store.`, `What it answers to`,
				`<section class="openapi openapi-inline"><p class="openapi-title"><code>POST /orders</code> Place an order</p><p>Orders are <strong>final</strong>.</p>`,
				`<li><p><code>item</code> (body, string, required)</p>`, `data-title="201: Created"`,
				// A specification uploaded with the space's files.
				`List pets`, `At most this many`},
			"blocks/tables.md": {`<th scope="col" class="align-right">Value</th>`, `<th scope="col">Option</th>`, `<td><p>Overwrite.</p>`, `<li><p>folders</p>`,
				`<div class="cards cards-medium">`, `<span class="option">Paid</span>`, `<td>header</td>`},
			"blocks/changelog.md": {`<time datetime="2026-01-15">2026-01-15</time>`, ` id="dark-mode">Dark mode`, `<strong>dark mode</strong>`,
				`<div class="reusable-content"><p>Questions? Write to the <strong>lighthouse keepers</strong>.</p>`,
				// A relative link in reusable content starts from its file: it leads to the page it
				// names wherever the content is included, or shows broken.
				`<a href="https://bindery.test/sites/blocks/inline#top">the inline page</a>`, `<span class="broken-link">old guide</span>`},
		}
		read := 0
		var walk func([]pageShape)
		walk = func(ps []pageShape) {
			for _, p := range ps {
				walk(p.Pages)
				if p.Type != "document" {
					continue
				}
				read++
				page := e.read("/sites/blocks/"+p.Path, nil).want(http.StatusOK)
				if m := shownSyntax(page.Body); m != "" {
					t.Errorf("%s shows %q as text", p.Git, m)
				}
				if strings.Contains(page.Body, "<iframe") {
					t.Errorf("%s keeps an iframe", p.Git)
				}
				page.has(want[p.Git]...)
				delete(want, p.Git)
				// Only a page with a diagram loads the diagram library, and lets it style inline.
				diagram := p.Git == "blocks/media.md"
				if got := strings.Contains(page.Body, "/~static/mermaid.min.js?v="); got != diagram {
					t.Errorf("%s loads the diagram library: %v", p.Git, got)
				}
				// Only a page with math loads the math library and its stylesheet, and lets them
				// style inline and load their fonts; its TeX stays readable as code.
				math := p.Git == "inline.md" || p.Git == "blocks/code.md"
				if got := strings.Contains(page.Body, "/~static/katex.min.js?v=") && strings.Contains(page.Body, "/~static/katex.min.css?v="); got != math {
					t.Errorf("%s loads the math library: %v", p.Git, got)
				}
				csp := page.Header.Get("Content-Security-Policy")
				if strings.Contains(csp, "'unsafe-inline'") != (diagram || math) || strings.Contains(csp, "font-src 'self'") != math {
					t.Errorf("%s: CSP %q", p.Git, csp)
				}
				// The markdown stays as written: the .md route gives the page's markdown (but for
				// conditional content, below).
				md := e.read("/sites/blocks/"+p.Path+".md", nil).want(http.StatusOK)
				if conditional := "{% if visitor.claims.plan == \"pro\" %}\nBeta readers only.\n{% endif %}\n"; !strings.Contains(md.Body, strings.Replace(p.Markdown, conditional, "", 1)) ||
					!strings.Contains(repo[p.Git], p.Markdown) {
					t.Errorf("%s: markdown changed:\n%s", p.Git, md.Body)
				}
			}
		}
		walk(pages)
		if read != 7 || len(want) != 0 {
			t.Fatalf("read %d pages; not found: %v", read, keys(want))
		}
		// The REST API reads each page as a document and as its markdown, as written (the
		// harness validates both against GitBook's contract).
		var each func([]pageShape)
		each = func(ps []pageShape) {
			for _, p := range ps {
				each(p.Pages)
				if p.Type != "document" {
					continue
				}
				id := findPage(rev["pages"].([]any), p.Title)
				e.call(admin.Token, "GET", "/spaces/"+sp+"/content/page/"+id+"?format=document", nil).want(http.StatusOK)
				var page struct{ Markdown string }
				e.call(admin.Token, "GET", "/spaces/"+sp+"/content/page/"+id+"?format=markdown", nil).want(http.StatusOK).decode(&page)
				if page.Markdown == "" || !strings.Contains(repo[p.Git], page.Markdown) {
					t.Errorf("%s: REST markdown %q is not the file's", p.Git, page.Markdown)
				}
			}
		}
		each(pages)
		// Conditional content shows only to visitors whose claims meet its condition.
		e.read("/sites/blocks/blocks/layout", nil).want(http.StatusOK).lacks("Beta readers only.")
		e.read("/sites/blocks/blocks/layout.md", nil).want(http.StatusOK).lacks("Beta readers only.", "{% if").has("{% endtabs %}")
		e.gql(admin.Token, `mutation($o: ID!, $s: ID!) { updateSiteReaderSettings(organizationId: $o, siteId: $s, input: {unsignedClaims: true}) { unsignedClaims } }`,
			map[string]any{"o": orgID, "s": site}).ok(nil)
		claims := e.read("/sites/blocks/blocks/layout?visitor.plan=pro", nil).want(http.StatusFound)
		cookie := strings.Split(claims.Header.Get("Set-Cookie"), ";")[0]
		e.read("/sites/blocks/blocks/layout", nil, "Cookie", cookie).want(http.StatusOK).has("<p>Beta readers only.</p>")
		e.read("/sites/blocks/blocks/layout.md", nil, "Cookie", cookie).want(http.StatusOK).has("{% if visitor.claims.plan == \"pro\" %}\nBeta readers only.\n{% endif %}")
		// GitBook's address of unsigned claims, negated: shown until the visitor has the claim.
		e.read("/sites/blocks/inline", nil, "Cookie", cookie).want(http.StatusOK).has("Shown to readers outside the beta.")
		beta := strings.Split(e.read("/sites/blocks/inline?visitor.beta=true", nil).want(http.StatusFound).Header.Get("Set-Cookie"), ";")[0]
		e.read("/sites/blocks/inline", nil, "Cookie", beta).want(http.StatusOK).lacks("Shown to readers outside the beta.")

		// Reusable content is read once per published revision: a later view of a page that
		// includes some costs what a view of a page that includes none does.
		var including, plain atomic.Int64
		e.read("/sites/blocks/blocks/changelog", &including).want(http.StatusOK)
		e.read("/sites/blocks/blocks/tables", &plain).want(http.StatusOK)
		if including.Load() > plain.Load() {
			t.Errorf("statements: %d for a page with an include, %d for one without", including.Load(), plain.Load())
		}

		// The diagram library is served beside its licence.
		lib := e.read("/sites/blocks/~static/mermaid.min.js", nil).want(http.StatusOK)
		if !strings.Contains(lib.Header.Get("Content-Type"), "javascript") || !strings.Contains(lib.Body, "mermaid") {
			t.Errorf("diagram library: %s", lib.Header.Get("Content-Type"))
		}
		e.read("/sites/blocks/~static/mermaid.min.js.LICENSE.txt", nil).want(http.StatusOK).has("The MIT License")
		// So is the math library, with its stylesheet's fonts beside it.
		e.read("/sites/blocks/~static/katex.min.js", nil).want(http.StatusOK).has("katex")
		e.read("/sites/blocks/~static/katex.min.js.LICENSE.txt", nil).want(http.StatusOK).has("The MIT License")
		css := e.read("/sites/blocks/~static/katex.min.css", nil).want(http.StatusOK).has("url(KaTeX_Main-Regular.woff2)")
		css.lacks("url(fonts/")
		if font := e.read("/sites/blocks/~static/KaTeX_Main-Regular.woff2", nil).want(http.StatusOK); font.Header.Get("Content-Type") != "font/woff2" {
			t.Errorf("math font: %s", font.Header.Get("Content-Type"))
		}
		// Search finds included text on the including page.
		if found := titlesOf(e.searchSpace(admin.Token, sp, "lighthouse", "").Items); len(found) != 1 || found[0] != "Changelog" {
			t.Errorf("search for included text: %v", found)
		}

		// Export writes every page back as it came.
		dstURL, dstDir := bareRepo(t)
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/export", map[string]any{"url": dstURL, "ref": "refs/heads/main", "commitMessage": "Export"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, sp); state != "succeeded" {
			t.Fatalf("export: %s %s", state, msg)
		}
		exported, _ := branchFiles(t, dstDir, "main")
		for _, name := range []string{"README.md", "inline.md", "blocks/layout.md", "blocks/media.md", "blocks/code.md", "blocks/tables.md", "blocks/changelog.md", ".gitbook/includes/footer.md"} {
			if exported[name] != repo[name] {
				t.Errorf("export changed %s:\n%s\nwant:\n%s", name, exported[name], repo[name])
			}
		}

		// A page edited through the API keeps its included text searchable.
		changelog := findPage(rev["pages"].([]any), "Changelog")
		e.updatePage(admin.Token, target(sp, ""), changelog, map[string]any{"markdown": "Edited.\n\n{% include \"../.gitbook/includes/footer.md\" %}\n"}).ok(nil)
		if found := titlesOf(e.searchSpace(admin.Token, sp, "lighthouse", "").Items); len(found) != 1 || found[0] != "Changelog" {
			t.Errorf("search for included text after an edit: %v", found)
		}
		// So does one whose edit leaves its markdown alone, and one changed by a merged change
		// request: every reindex reads the space's reusable contents.
		e.updatePage(admin.Token, target(sp, ""), changelog, map[string]any{"title": "Changes"}).ok(nil)
		if found := titlesOf(e.searchSpace(admin.Token, sp, "lighthouse", "").Items); len(found) != 1 || found[0] != "Changes" {
			t.Errorf("search for included text after a new title: %v", found)
		}
		cr := e.openChangeRequest(admin.Token, sp, "Reword the changelog")
		e.updatePage(admin.Token, target(sp, cr), changelog, map[string]any{"markdown": "Reworded.\n\n{% include \"../.gitbook/includes/footer.md\" %}\n"}).ok(nil)
		e.call(admin.Token, "POST", "/spaces/"+sp+"/change-requests/"+cr+"/merge", nil).want(http.StatusOK)
		for _, word := range []string{"reworded", "lighthouse"} {
			if found := titlesOf(e.searchSpace(admin.Token, sp, word, "").Items); len(found) != 1 || found[0] != "Changes" {
				t.Errorf("search for %q after a merge: %v", word, found)
			}
		}
	})
}

// A space synced from a subdirectory includes reusable content kept at the repository's root
// (../.gitbook/includes/ from its pages): import reads the files its pages include from there,
// and only those; the reader shows them in place; export writes each back where it was read, so
// the repository stays as it was.
func TestGitBookIncludesOutsideProjectDirectory(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		gitEnv(t, e)
		orgID, admin := e.org("Docs", "admin@outside.test")
		repo := map[string]string{
			".gitbook/includes/banner.md":     "---\ntitle: Banner\n---\n\nRead the **harbour rules** first.\n\n{% include \"tide.md\" %}\n",
			".gitbook/includes/tide.md":       "High tide at noon.\n",
			".gitbook/includes/unused.md":     "Never included.\n",
			"other/.gitbook/includes/else.md": "Elsewhere.\n",
			"other/page.md":                   "# Other\n",
			"documentation/README.md":         "# Harbour\n\nWelcome.\n\n{% include \"../.gitbook/includes/banner.md\" %}\n",
			"documentation/guide/boats.md":    "# Boats\n\n{% include \"../../.gitbook/includes/banner.md\" %}\n",
			"documentation/SUMMARY.md":        "# Table of contents\n\n* [Harbour](README.md)\n* [Boats](guide/boats.md)\n",
		}
		src, head := gitRepo(t, repo)
		sp, _ := e.importAndPublish(admin.Token, orgID, "Harbour", "harbour",
			map[string]any{"url": src, "ref": "refs/heads/main", "repoProjectDirectory": "documentation"})
		for _, p := range []string{"/sites/harbour/", "/sites/harbour/boats"} {
			pg := e.read(p, nil).want(http.StatusOK).has(`<strong>harbour rules</strong>`, "High tide at noon.")
			pg.lacks("reusable-content-missing", "Never included.")
		}

		// Export to the same branch: the repository already holds exactly this content, so
		// nothing is committed and every file, inside the folder or out, stays as it was.
		dir := strings.TrimPrefix(src, "file://")
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/export", map[string]any{"url": src, "ref": "refs/heads/main", "repoProjectDirectory": "documentation", "commitMessage": "Export"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, sp); state != "succeeded" {
			t.Fatalf("export: %s %s", state, msg)
		}
		files, commit := branchFiles(t, dir, "main")
		if commit.Hash.String() != head {
			t.Errorf("export committed %s over %s", commit.Hash, head)
		}
		for name, body := range repo {
			if files[name] != body {
				t.Errorf("export changed %s:\n%s\nwant:\n%s", name, files[name], body)
			}
		}
		// To an empty repository, the included files are written where they were read, the
		// others are not.
		dstURL, dstDir := bareRepo(t)
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/export", map[string]any{"url": dstURL, "ref": "refs/heads/main", "repoProjectDirectory": "documentation", "commitMessage": "Export"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, sp); state != "succeeded" {
			t.Fatalf("export: %s %s", state, msg)
		}
		exported, _ := branchFiles(t, dstDir, "main")
		for _, name := range []string{".gitbook/includes/banner.md", ".gitbook/includes/tide.md", "documentation/README.md", "documentation/guide/boats.md"} {
			if exported[name] != repo[name] {
				t.Errorf("export wrote %s:\n%s\nwant:\n%s", name, exported[name], repo[name])
			}
		}
		if _, ok := exported[".gitbook/includes/unused.md"]; ok {
			t.Error("export wrote an include no page includes")
		}
	})
}

// importAndPublish imports a repository into a new space through Git Sync (in: the import's
// body), waits for the job, and publishes the space as a site at /sites/<basename>/. It returns
// the space's and the site's ids.
func (e *env) importAndPublish(token, orgID, title, basename string, in map[string]any) (spaceID, siteID string) {
	e.t.Helper()
	sp := e.newSpace(token, orgID, title)
	e.call(token, "POST", "/spaces/"+sp+"/git/import", in).want(http.StatusNoContent)
	e.runJobs()
	if state, msg := e.lastJob(token, sp); state != "succeeded" {
		e.t.Fatalf("import: %s %s", state, msg)
	}
	site := e.call(token, "POST", "/orgs/"+orgID+"/sites", map[string]any{"title": title}).want(http.StatusCreated).object()["id"].(string)
	base := "/orgs/" + orgID + "/sites/" + site
	e.call(token, "PATCH", base, map[string]any{"basename": basename}).want(http.StatusOK)
	e.call(token, "POST", base+"/sections", map[string]any{"spaceId": sp}).want(http.StatusCreated)
	return sp, site
}

// A repository whose .gitbook.yaml moves the root into content/ keeps its reusable content beside
// it, at the repository's .gitbook/includes/ (pages include "../.gitbook/includes/x.md"), and a
// link inside that content climbs back into the root to a page. Import resolves the include and
// the link; export writes every file back where import read it, so the repository stays as it
// was, and a file outside the root that is no include stays untouched.
func TestGitBookIncludesOutsideRoot(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		gitEnv(t, e)
		orgID, admin := e.org("Docs", "admin@root.test")
		repo := map[string]string{
			".gitbook.yaml":               "# The docs live in content/.\nroot: ./content/\n",
			".gitbook/includes/banner.md": "---\ntitle: Banner\n---\n\nRead the **harbour rules** first, then [the boats](../../content/guide/boats.md#moorings).\n\n{% include \"tide.md\" %}\n",
			".gitbook/includes/tide.md":   "High tide at noon.\n",
			".gitbook/includes/unused.md": "Included by no page.\n",
			"CONTRIBUTING.md":             "Not part of the docs.\n",
			"content/README.md":           "# Harbour\n\nWelcome.\n\n{% include \"../.gitbook/includes/banner.md\" %}\n",
			"content/guide/boats.md":      "# Boats\n\n## Moorings\n\n{% include \"../../.gitbook/includes/banner.md\" %}\n",
			"content/SUMMARY.md":          "# Table of contents\n\n* [Harbour](README.md)\n* [Boats](guide/boats.md)\n",
		}
		src, head := gitRepo(t, repo)
		sp, _ := e.importAndPublish(admin.Token, orgID, "Harbour", "harbour", map[string]any{"url": src, "ref": "refs/heads/main"})
		for _, p := range []string{"/sites/harbour/", "/sites/harbour/boats"} {
			pg := e.read(p, nil).want(http.StatusOK).has(`<strong>harbour rules</strong>`, "High tide at noon.",
				`<a href="https://bindery.test/sites/harbour/boats#moorings">the boats</a>`)
			pg.lacks("reusable-content-missing", "broken-link")
		}
		// The page's links count the included one as resolved.
		_, _, rev := e.contentOf(admin.Token, sp)
		var links struct {
			Items []any
			Stats struct{ Total int }
		}
		e.call(admin.Token, "GET", "/spaces/"+sp+"/content/page/"+findPage(rev["pages"].([]any), "Harbour")+"/links?status=broken", nil).want(http.StatusOK).decode(&links)
		if len(links.Items) != 0 {
			t.Errorf("broken links: %v", links.Items)
		}

		// To an empty repository: the same files, under the root and beside it, and no other.
		dstURL, dstDir := bareRepo(t)
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/export", map[string]any{"url": dstURL, "ref": "refs/heads/main", "commitMessage": "Export"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, sp); state != "succeeded" {
			t.Fatalf("export: %s %s", state, msg)
		}
		exported, _ := branchFiles(t, dstDir, "main")
		for name, body := range repo {
			if name != "CONTRIBUTING.md" && exported[name] != body {
				t.Errorf("export wrote %s:\n%s\nwant:\n%s", name, exported[name], body)
			}
		}
		if len(exported) != len(repo)-1 {
			t.Errorf("export wrote %v", keys(exported))
		}
		// Export to the same branch: nothing to commit, every file as it was (the fixture's
		// symbolic link, docs/escape.md, included: it is outside the root).
		dir := strings.TrimPrefix(src, "file://")
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/export", map[string]any{"url": src, "ref": "refs/heads/main", "commitMessage": "Export"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, sp); state != "succeeded" {
			t.Fatalf("export: %s %s", state, msg)
		}
		files, commit := branchFiles(t, dir, "main")
		if commit.Hash.String() != head {
			t.Errorf("export committed %s over %s", commit.Hash, head)
		}
		for name, body := range repo {
			if files[name] != body {
				t.Errorf("export changed %s:\n%s\nwant:\n%s", name, files[name], body)
			}
		}

		// A reusable content deleted in Bindery leaves the repository with the next export,
		// though its file is outside the root.
		var unused string
		var listed struct {
			Space struct {
				Content struct{ ReusableContents []struct{ ID, Title string } }
			}
		}
		e.gql(admin.Token, `query($s: ID!) { space(id: $s) { content { reusableContents { id title } } } }`, map[string]any{"s": sp}).ok(&listed)
		for _, rc := range listed.Space.Content.ReusableContents {
			if rc.Title == "Unused" {
				unused = rc.ID
			}
		}
		e.deleteReusableContent(admin.Token, target(sp, ""), unused).ok(nil)
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/export", map[string]any{"url": dstURL, "ref": "refs/heads/main", "commitMessage": "Export"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, sp); state != "succeeded" {
			t.Fatalf("export after the delete: %s %s", state, msg)
		}
		again, _ := branchFiles(t, dstDir, "main")
		if _, ok := again[".gitbook/includes/unused.md"]; ok || again[".gitbook/includes/banner.md"] != repo[".gitbook/includes/banner.md"] || len(again) != len(exported)-1 {
			t.Errorf("export after the delete wrote %v", keys(again))
		}
	})
}
