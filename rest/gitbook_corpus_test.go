package rest_test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// TestGitBookCorpus imports a real GitBook repository through Git Sync on SQLite, publishes it
// and reads every document page, reporting how many there are and which show GitBook syntax as
// text (syntaxShown); it fails if any does. It runs only when BINDERY_GITBOOK_CORPUS names a
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
	sp := e.newSpace(admin.Token, orgID, "Corpus")
	in := map[string]any{"url": "file://" + dir, "ref": strings.TrimSpace(string(head))}
	if sub := os.Getenv("BINDERY_GITBOOK_CORPUS_DIR"); sub != "" {
		in["repoProjectDirectory"] = sub
	}
	e.call(admin.Token, "POST", "/spaces/"+sp+"/git/import", in).want(http.StatusNoContent)
	e.runJobs()
	if state, msg := e.lastJob(admin.Token, sp); state != "succeeded" {
		t.Fatalf("import: %s %s", state, msg)
	}
	site := e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites", `{"title":"Corpus"}`).want(http.StatusCreated).object()["id"].(string)
	base := "/orgs/" + orgID + "/sites/" + site
	e.call(admin.Token, "PATCH", base, `{"basename":"corpus"}`).want(http.StatusOK)
	e.call(admin.Token, "POST", base+"/sections", `{"spaceId":"`+sp+`"}`).want(http.StatusCreated)

	pages, _, _ := e.contentOf(admin.Token, sp)
	read, shown := 0, map[string]string{}
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
			if m := syntaxShown.FindString(page.Body); m != "" {
				shown[p.Git] = m
			}
		}
	}
	walk(pages)
	t.Logf("%d document pages read, %d show GitBook syntax as text", read, len(shown))
	for git, m := range shown {
		t.Errorf("%s shows %q", git, m)
	}
}
