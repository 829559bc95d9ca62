package rest_test

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// TestGitBookCorpus imports a real GitBook repository through Git Sync on SQLite, publishes it
// and reads every document page, reporting how many there are and which show GitBook syntax as
// text in their content (shownSyntax: code aside, and tags the markdown itself writes as text);
// it fails if any does. It runs only when BINDERY_GITBOOK_CORPUS names a
// local git repository; BINDERY_GITBOOK_CORPUS_DIR names the space's folder in it, if any
// (docs/design/gitbook-markdown.md).
func TestGitBookCorpus(t *testing.T) {
	dir := os.Getenv("BINDERY_GITBOOK_CORPUS")
	if dir == "" {
		t.Skip("BINDERY_GITBOOK_CORPUS is not set")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	head, err := exec.Command("git", "-C", dir, "symbolic-ref", "HEAD").Output()
	if err != nil {
		t.Fatalf("%s is not a git repository with a branch checked out: %v", dir, err)
	}
	e := newEnv(t, storagetest.Open(t, storage.SQLite))
	gitEnv(t, e)
	orgID, admin := e.org("Corpus", "admin@corpus.test")
	in := map[string]any{"url": "file://" + dir, "ref": strings.TrimSpace(string(head))}
	if sub := os.Getenv("BINDERY_GITBOOK_CORPUS_DIR"); sub != "" {
		in["repoProjectDirectory"] = sub
	}
	sp, _ := e.importAndPublish(admin.Token, orgID, "Corpus", "corpus", in)

	pages, _, _ := e.contentOf(admin.Token, sp)
	read, shown := 0, map[string]string{}
	// What a reader sees as missing: includes that resolve nowhere, OpenAPI blocks left as cards
	// (their specifications are not the test organization's), html nodes (HTML the format does
	// not define), by page.
	missing := map[string]int{}
	var walk func([]pageShape)
	walk = func(ps []pageShape) {
		for _, p := range ps {
			walk(p.Pages)
			if p.Type != "document" {
				continue
			}
			read++
			page := e.read("/sites/corpus/"+p.Path, nil)
			if page.Status != http.StatusOK {
				shown[p.Git] = "status " + http.StatusText(page.Status)
				continue
			}
			content := documentContent(page.Body)
			for what, mark := range map[string]string{"unresolved includes": "reusable-content-missing", "OpenAPI cards": `class="card openapi"`, "html nodes": `<div class="html">`} {
				missing[what] += strings.Count(content, mark)
			}
			if m := shownSyntax(content); m != "" && !writtenAsText(p.Markdown, content) {
				shown[p.Git] = fmt.Sprintf("%q in %q", m, shownSyntaxContext(content))
			}
		}
	}
	walk(pages)
	t.Logf("%d document pages read, %d show GitBook syntax as text; %v", read, len(shown), missing)
	for git, m := range shown {
		t.Errorf("%s shows %s", git, m)
	}

	// Export to an empty repository: every file import read (the space's folder, the
	// reusable contents its pages include from outside it, .gitbook.yaml) is written back as it
	// was read. Files no page uses (outside the table of contents) are not.
	dstURL, dstDir := bareRepo(t)
	out := map[string]any{"url": dstURL, "ref": "refs/heads/main", "commitMessage": "Export"}
	if sub, ok := in["repoProjectDirectory"]; ok {
		out["repoProjectDirectory"] = sub
	}
	e.call(admin.Token, "POST", "/spaces/"+sp+"/git/export", out).want(http.StatusNoContent)
	e.runJobs()
	if state, msg := e.lastJob(admin.Token, sp); state != "succeeded" {
		t.Fatalf("export: %s %s", state, msg)
	}
	exported, _ := branchFiles(t, dstDir, "main")
	same := 0
	for name, body := range exported {
		read, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		switch {
		case err != nil:
			t.Errorf("export wrote %s, which the repository does not hold", name)
		case string(read) != body:
			t.Errorf("export changed %s: %s", name, firstDifference(string(read), body))
		default:
			same++
		}
	}
	t.Logf("export wrote %d files, %d as they were read", len(exported), same)
}

// documentContent is the part of a page the document renders (its title, description and
// navigation are plain text, whatever they hold).
func documentContent(page string) string {
	start := strings.Index(page, `<div class="content">`)
	end := strings.Index(page, `<p class="meta">`)
	if start < 0 || end < start {
		return page
	}
	return page[start:end]
}

// escapedTag is an HTML tag shown as text.
var escapedTag = regexp.MustCompile(`&lt;/?([a-zA-Z][a-zA-Z0-9-]*)`)

// writtenAsText reports whether the tag content shows as text outside code was written as text
// in the page's markdown (&#x3C;script>, &lt;script>, \<script>): the author meant it.
func writtenAsText(markdown, content string) bool {
	prose := codeElement.ReplaceAllString(content, "")
	if shown := syntaxShown.FindString(prose); !strings.HasPrefix(shown, "&lt;") {
		return false
	}
	m := escapedTag.FindStringSubmatch(prose)
	if m == nil {
		return false
	}
	lower := strings.ToLower(markdown)
	name := strings.ToLower(m[1])
	for _, escaped := range []string{"&#x3c;", "&#60;", "&lt;", "\\<"} {
		if strings.Contains(lower, escaped+name) || strings.Contains(lower, escaped+"/"+name) {
			return true
		}
	}
	return false
}

// firstDifference names the first line where two texts differ, with both versions of it.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b || i >= len(w) || i >= len(g) {
			return fmt.Sprintf("line %d: read %q, written %q", i+1, a, b)
		}
	}
	return "same lines"
}
