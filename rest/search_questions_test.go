package rest_test

import (
	"encoding/json"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// docPage is a page of the question corpus: a standard-library package and its documentation.
type docPage struct {
	Title    string // the import path
	Markdown string
}

// goDocCorpus reads the package documentation of Go's standard library from GOROOT: real,
// varied documentation that no test data needs to copy. Read once per test binary.
var goDocCorpus = sync.OnceValues(func() ([]docPage, error) {
	root := filepath.Join(runtime.GOROOT(), "src")
	var pages []docPage
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch name := d.Name(); {
		case rel == "cmd", name == "internal", name == "vendor", name == "testdata", strings.HasPrefix(name, "."):
			return filepath.SkipDir
		}
		pkgs, err := parser.ParseDir(token.NewFileSet(), path, func(fi fs.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return nil // a directory that does not parse as a package is no page
		}
		for name, p := range pkgs {
			if name == "main" || name == "documentation" {
				continue
			}
			for _, f := range p.Files {
				if f.Doc == nil || len(f.Doc.Text()) < 80 {
					continue
				}
				var cp comment.Parser
				md := (&comment.Printer{}).Markdown(cp.Parse(f.Doc.Text()))
				pages = append(pages, docPage{Title: filepath.ToSlash(rel), Markdown: string(md)})
				break
			}
		}
		return nil
	})
	slices.SortFunc(pages, func(a, b docPage) int { return strings.Compare(a.Title, b.Title) })
	return pages, err
})

// questionSet is testdata/search_questions.json.
type questionSet struct {
	Questions []struct {
		Query string
		Want  []string
	}
}

// TestSearchAnswersQuestions asks plain-language questions of real documentation and counts
// how often a page that answers is among the first three results (hits@3), on each database.
func TestSearchAnswersQuestions(t *testing.T) {
	if testing.Short() {
		t.Skip("reads and indexes the standard library's documentation")
	}
	pages, err := goDocCorpus()
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 150 {
		t.Fatalf("the corpus holds %d pages, want at least 150", len(pages))
	}
	raw, err := os.ReadFile("testdata/search_questions.json")
	if err != nil {
		t.Fatal(err)
	}
	var set questionSet
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	if len(set.Questions) < 40 {
		t.Fatalf("%d questions, want at least 40", len(set.Questions))
	}
	var mu sync.Mutex
	scores := map[string]float64{}
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Go", "admin@questions.test")
		spaceID := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Standard library"}`).want(201).object()["id"].(string)
		to := target(spaceID, "")
		for _, p := range pages {
			e.createPage(admin.Token, to, map[string]any{"title": p.Title, "markdown": p.Markdown})
		}
		hits := 0
		for _, q := range set.Questions {
			got := titlesOf(e.searchSpace(admin.Token, spaceID, q.Query, "&limit=3").Items)
			if slices.ContainsFunc(got, func(title string) bool { return slices.Contains(q.Want, title) }) {
				hits++
			} else {
				t.Logf("miss: %q → %v, want one of %v", q.Query, got, q.Want)
			}
		}
		score := float64(hits) / float64(len(set.Questions))
		t.Logf("hits@3 = %.2f (%d of %d questions, %d pages)", score, hits, len(set.Questions), len(pages))
		if score < 0.8 {
			t.Errorf("hits@3 = %.2f, want at least 0.80", score)
		}
		mu.Lock()
		scores[t.Name()] = score
		mu.Unlock()
	})
	if len(scores) == 2 {
		var s []float64
		for _, v := range scores {
			s = append(s, v)
		}
		if d := s[0] - s[1]; d > 0.05 || d < -0.05 {
			t.Errorf("hits@3 differ by %.2f between the databases (%v), want at most 0.05", d, scores)
		}
	}
}
