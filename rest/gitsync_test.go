package rest_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/gitsync"
	"github.com/bindery/bindery/storage"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// A small PNG (1×1), the bytes a file must keep through import, export and import again.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84\x00\x00\x00\x00IEND\xaeB`\x82")

// gitbookFixture is a repository in GitBook's layout: a root in docs/ (.gitbook.yaml), a summary
// with a group, nesting, a link title and an external link, front matter, an asset, a folder
// README, a file outside the root and a symbolic link that must be ignored.
func gitbookFixture() map[string]string {
	return map[string]string{
		".gitbook.yaml":                 "root: ./docs/\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\nredirects:\n  old/install: guides/linux.md\n",
		"docs/README.md":                "---\ndescription: Where it starts\n---\n\n# Welcome\n\nHello. ![Logo](.gitbook/assets/logo.png)\n",
		"docs/SUMMARY.md":               "# Table of contents\n\n* [Welcome](README.md)\n\n## Guides\n\n* [Installing](guides/README.md)\n  * [On Linux](guides/linux.md \"Linux\")\n  * [On Mac](guides/mac.md)\n* [GitHub](https://github.com/bindery)\n",
		"docs/guides/README.md":         "# Installing\n\nPick [Linux](linux.md) or [Mac](mac.md).\n",
		"docs/guides/linux.md":          "---\nicon: linux\nhidden: true\n---\n\n# On Linux\n\n{% hint style=\"info\" %}\nUse apt.\n{% endhint %}\n",
		"docs/guides/mac.md":            "# On Mac\n\n```bash\nbrew install bindery\n```\n",
		"docs/.gitbook/assets/logo.png": string(pngBytes),
		"outside.md":                    "# Outside\n\nNot under the root.\n",
	}
}

var gitAuthor = object.Signature{Name: "Fixture", Email: "fixture@bindery.test", When: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}

// gitRepo makes a repository on branch main with files committed (and a symbolic link
// docs/escape.md → /etc/passwd), and returns its file:// URL and head commit.
func gitRepo(t *testing.T, files map[string]string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	repo, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")}})
	if err != nil {
		t.Fatal(err)
	}
	wt, _ := repo.Worktree()
	for name, body := range files {
		full := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(dir, "docs"), 0o755)
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "docs", "escape.md")); err != nil {
		t.Fatal(err)
	}
	if err := wt.AddGlob("."); err != nil {
		t.Fatal(err)
	}
	hash, err := wt.Commit("Fixture content", &git.CommitOptions{Author: &gitAuthor})
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + dir, hash.String()
}

// bareRepo is an empty bare repository to export to.
func bareRepo(t *testing.T) (url, dir string) {
	t.Helper()
	dir = t.TempDir()
	if _, err := git.PlainInit(dir, true); err != nil {
		t.Fatal(err)
	}
	return "file://" + dir, dir
}

// branchFiles reads every file of a branch.
func branchFiles(t *testing.T, dir, branch string) (map[string]string, *object.Commit) {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := repo.Reference(plumbing.NewBranchReferenceName(branch), true)
	if err != nil {
		t.Fatalf("branch %s: %v", branch, err)
	}
	commit, _ := repo.CommitObject(ref.Hash())
	tree, _ := commit.Tree()
	out := map[string]string{}
	tree.Files().ForEach(func(f *object.File) error {
		s, _ := f.Contents()
		out[f.Name] = s
		return nil
	})
	return out, commit
}

const gitSecret = "test-server-secret"

// gitEnv is an env whose Git Sync allows local repositories and keeps credentials.
func gitEnv(t *testing.T, e *env) {
	e.res.GitSync = domain.GitSyncConfig{AllowLocal: true, SecretKey: gitSecret}
}

func (e *env) newSpace(token, orgID, title string) string {
	e.t.Helper()
	return e.call(token, "POST", "/orgs/"+orgID+"/spaces", fmt.Sprintf(`{"title":%q}`, title)).want(http.StatusCreated).object()["id"].(string)
}

// lastJob is the state and error of the space's last Git Sync job, read through git/info.
func (e *env) lastJob(token, spaceID string) (state, errMsg string) {
	e.t.Helper()
	info := e.call(token, "GET", "/spaces/"+spaceID+"/git/info", nil).want(http.StatusOK).object()
	job, _ := info["lastJob"].(map[string]any)
	state, _ = job["state"].(string)
	errMsg, _ = job["error"].(string)
	return state, errMsg
}

// pageShape is what a round trip must keep of a page.
type pageShape struct {
	Type, Title, Slug, Path, Markdown, Description, Icon string
	Hidden                                               bool
	Git                                                  string
	Pages                                                []pageShape
}

func shapes(pages []any) []pageShape {
	var out []pageShape
	for _, raw := range pages {
		p := raw.(map[string]any)
		s := pageShape{Type: str(p["type"]), Title: str(p["title"]), Slug: str(p["slug"]), Path: str(p["path"]), Markdown: str(p["markdown"]),
			Description: str(p["description"]), Icon: str(p["icon"]), Hidden: p["hidden"] == true}
		if g, ok := p["git"].(map[string]any); ok {
			s.Git = str(g["path"])
		}
		if kids, ok := p["pages"].([]any); ok {
			s.Pages = shapes(kids)
		}
		out = append(out, s)
	}
	return out
}

func str(v any) string { s, _ := v.(string); return s }

// contentOf is a space's current page tree and its files' names and bytes.
func (e *env) contentOf(token, spaceID string) ([]pageShape, map[string][]byte, map[string]any) {
	e.t.Helper()
	rev := e.call(token, "GET", "/spaces/"+spaceID+"/content", nil).want(http.StatusOK).object()
	files := map[string][]byte{}
	for _, raw := range rev["files"].([]any) {
		f := raw.(map[string]any)
		u, _ := neturl.Parse(f["downloadURL"].(string))
		_, rec := e.serve(httptest.NewRequest("GET", u.Path, nil), token, nil)
		if rec.Code != http.StatusOK {
			e.t.Fatalf("download %s: %d", f["name"], rec.Code)
		}
		files[str(f["name"])] = rec.Body.Bytes()
	}
	return shapes(rev["pages"].([]any)), files, rev
}

func TestGitSyncRoundTrip(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		gitEnv(t, e)
		orgID, admin := e.org("Docs", "admin@git.test")
		src, head := gitRepo(t, gitbookFixture())
		a := e.newSpace(admin.Token, orgID, "Imported")

		e.call(admin.Token, "POST", "/spaces/"+a+"/git/import", map[string]any{"url": src, "ref": "refs/heads/main"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, a); state != "succeeded" {
			t.Fatalf("import: %s %s", state, msg)
		}
		pages, files, rev := e.contentOf(admin.Token, a)
		git, _ := rev["git"].(map[string]any)
		if git["oid"] != head || git["message"] != "Fixture content" || git["createdByService"] != false || git["createdByGitBook"] != false || git["ref"] != "refs/heads/main" {
			t.Fatalf("revision git = %v, want the fixture's commit %s", git, head)
		}
		want := []pageShape{
			{Type: "document", Title: "Welcome", Slug: "welcome", Path: "welcome", Markdown: "Hello. ![Logo](.gitbook/assets/logo.png)\n", Description: "Where it starts", Git: "README.md"},
			{Type: "group", Title: "Guides", Slug: "guides", Path: "guides", Pages: []pageShape{
				{Type: "document", Title: "Installing", Slug: "guides", Path: "guides/guides", Markdown: "Pick [Linux](linux.md) or [Mac](mac.md).\n", Git: "guides/README.md", Pages: []pageShape{
					{Type: "document", Title: "On Linux", Slug: "linux", Path: "guides/guides/linux", Markdown: "{% hint style=\"info\" %}\nUse apt.\n{% endhint %}\n", Icon: "linux", Hidden: true, Git: "guides/linux.md"},
					{Type: "document", Title: "On Mac", Slug: "mac", Path: "guides/guides/mac", Markdown: "```bash\nbrew install bindery\n```\n", Git: "guides/mac.md"},
				}},
				{Type: "link", Title: "GitHub"},
			}},
		}
		if !equalJSON(pages, want) {
			t.Fatalf("imported pages:\n%s\nwant:\n%s", dump(pages), dump(want))
		}
		if !bytes.Equal(files["logo.png"], pngBytes) || len(files) != 1 {
			t.Fatalf("imported files = %v, want logo.png with its bytes", keys(files))
		}
		// The image reference resolves to the file, the relative links to the pages.
		tree := rev["pages"].([]any)
		for _, title := range []string{"Welcome", "Installing"} {
			var links struct {
				Items []any
				Stats struct{ Total int }
			}
			e.call(admin.Token, "GET", "/spaces/"+a+"/content/page/"+findPage(tree, title)+"/links?status=broken", nil).want(http.StatusOK).decode(&links)
			if len(links.Items) != 0 || links.Stats.Total == 0 {
				t.Fatalf("%s: broken links %v of %d", title, links.Items, links.Stats.Total)
			}
		}

		// Export to an empty repository, then import that into a second space: the same content.
		dstURL, dstDir := bareRepo(t)
		e.call(admin.Token, "POST", "/spaces/"+a+"/git/export", map[string]any{"url": dstURL, "ref": "refs/heads/main", "commitMessage": "Export from Bindery"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, a); state != "succeeded" {
			t.Fatalf("export: %s %s", state, msg)
		}
		exported, commit := branchFiles(t, dstDir, "main")
		if commit.Message != "Export from Bindery" || commit.Author.Email != "admin@git.test" {
			t.Fatalf("export commit = %q by %s", commit.Message, commit.Author.Email)
		}
		// The layout is the repository's: everything under the root .gitbook.yaml names, and
		// .gitbook.yaml as it was.
		for _, name := range []string{"docs/README.md", "docs/SUMMARY.md", "docs/guides/README.md", "docs/guides/linux.md", "docs/guides/mac.md", "docs/.gitbook/assets/logo.png", ".gitbook.yaml"} {
			if _, ok := exported[name]; !ok {
				t.Fatalf("export lacks %s: %v", name, keys(exported))
			}
		}
		if exported[".gitbook.yaml"] != gitbookFixture()[".gitbook.yaml"] || len(exported) != 7 {
			t.Fatalf("export wrote %v, .gitbook.yaml:\n%s", keys(exported), exported[".gitbook.yaml"])
		}
		if !strings.Contains(exported["docs/SUMMARY.md"], "## Guides") || !strings.Contains(exported["docs/SUMMARY.md"], "  * [On Linux](guides/linux.md \"Linux\")") {
			t.Fatalf("SUMMARY.md:\n%s", exported["docs/SUMMARY.md"])
		}
		if _, _, rev := e.contentOf(admin.Token, a); rev["git"].(map[string]any)["oid"] != commit.Hash.String() || rev["git"].(map[string]any)["createdByService"] != true {
			t.Fatalf("the exported revision records %v, want commit %s by an export", rev["git"], commit.Hash)
		}

		b := e.newSpace(admin.Token, orgID, "Round trip")
		e.call(admin.Token, "POST", "/spaces/"+b+"/git/import", map[string]any{"url": dstURL, "ref": "refs/heads/main"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, b); state != "succeeded" {
			t.Fatalf("re-import: %s %s", state, msg)
		}
		again, againFiles, _ := e.contentOf(admin.Token, b)
		if !equalJSON(again, pages) {
			t.Fatalf("round trip changed the pages:\n%s\nwant:\n%s", dump(again), dump(pages))
		}
		if !bytes.Equal(againFiles["logo.png"], pngBytes) || len(againFiles) != 1 {
			t.Fatalf("round trip changed the files: %v", keys(againFiles))
		}

		// Importing the same commit again keeps every page's id: nothing but the revision is new.
		ids := func() string {
			var rev map[string]any
			e.call(admin.Token, "GET", "/spaces/"+b+"/content", nil).decode(&rev)
			return idPattern.FindAllString(string(e.call(admin.Token, "GET", "/spaces/"+b+"/content/pages", nil).Body), -1)[0]
		}
		first := ids()
		e.call(admin.Token, "POST", "/spaces/"+b+"/git/import", map[string]any{"url": dstURL, "ref": "refs/heads/main"}).want(http.StatusNoContent)
		e.runJobs()
		if again2, _, _ := e.contentOf(admin.Token, b); !equalJSON(again2, pages) || ids() != first {
			t.Fatalf("a second import of the same commit changed the pages")
		}
	})
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func dump(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestGitSyncValidation(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Docs", "admin@git.test")
		sp := e.newSpace(admin.Token, orgID, "Docs")
		cases := []struct {
			path, body, field string
		}{
			{"import", `{"ref":"refs/heads/main"}`, "url"},
			{"import", `{"url":"https://93.184.216.34/r.git"}`, "ref"},
			{"import", `{"url":"https://93.184.216.34/r.git","ref":"main"}`, "ref"},
			{"import", `{"url":"https://93.184.216.34/r.git","ref":"refs/heads/a..b"}`, "ref"},
			{"export", `{"url":"https://93.184.216.34/r.git","ref":"refs/heads/main"}`, "commitMessage"},
			{"import", `{"url":"ftp://93.184.216.34/r.git","ref":"refs/heads/main"}`, "url"},
			{"import", `{"url":"file:///tmp/repo","ref":"refs/heads/main"}`, "url"},
			{"import", `{"url":"https://127.0.0.1/r.git","ref":"refs/heads/main"}`, "url"},
			{"import", `{"url":"https://10.1.2.3/r.git","ref":"refs/heads/main"}`, "url"},
			{"import", `{"url":"https://169.254.169.254/r.git","ref":"refs/heads/main"}`, "url"},
			{"import", `{"url":"https://localhost/r.git","ref":"refs/heads/main"}`, "url"},
			// Credentials need the server's secret key, which this server lacks.
			{"import", `{"url":"https://user:token@93.184.216.34/r.git","ref":"refs/heads/main"}`, "url"},
			{"import", `{"url":"https://93.184.216.34/r.git","ref":"refs/heads/main","repoProjectDirectory":"../up"}`, "repoProjectDirectory"},
		}
		for _, c := range cases {
			msg := e.call(admin.Token, "POST", "/spaces/"+sp+"/git/"+c.path, c.body).wantError(http.StatusBadRequest)
			if !strings.Contains(msg, c.field) {
				t.Errorf("%s %s: message %q does not name %s", c.path, c.body, msg, c.field)
			}
			if strings.Contains(msg, "token") && strings.Contains(c.body, "user:token") {
				t.Errorf("the error shows the credentials: %q", msg)
			}
		}
		// Nothing was queued: the space never synced.
		e.call(admin.Token, "GET", "/spaces/"+sp+"/git/info", nil).wantError(http.StatusNotFound)

		g := e.gql(admin.Token, `mutation($s: ID!) { importGitRepository(spaceId: $s, input: {url: "https://93.184.216.34/r.git", ref: "main"}) { id } }`, map[string]any{"s": sp})
		if g.code() != "INVALID" || g.Errors[0].Extensions["field"] != "ref" {
			t.Fatalf("GraphQL: %+v", g.Errors)
		}
		g = e.gql(admin.Token, `mutation($s: ID!) { exportToGitRepository(spaceId: $s, input: {url: "file:///tmp/x", ref: "refs/heads/main", commitMessage: "m"}) { id } }`, map[string]any{"s": sp})
		if g.code() != "INVALID" || g.Errors[0].Extensions["field"] != "url" {
			t.Fatalf("GraphQL: %+v", g.Errors)
		}
		// An unknown space is 404, through both doors.
		e.call(admin.Token, "POST", "/spaces/nope/git/import", `{"url":"https://93.184.216.34/r.git","ref":"refs/heads/main"}`).wantError(http.StatusNotFound)
		e.call(admin.Token, "DELETE", "/spaces/"+sp+"/git/legacy-installation", nil).want(http.StatusNoContent)
	})
}

// syncLog captures the process's log while a test runs.
type syncLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Credentials in a URL are used by the job and appear nowhere: not in responses (either door),
// job records, errors, logs or the database in clear.
func TestGitSyncCredentialsNeverShow(t *testing.T) {
	logs := &syncLog{}
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.MultiWriter(logs, os.Stderr), &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prev) })
	const secret = "s3cr3t-T0ken-value"
	eachDB(t, func(t *testing.T, e *env) {
		gitEnv(t, e)
		orgID, admin := e.org("Docs", "admin@git.test")
		sp := e.newSpace(admin.Token, orgID, "Docs")
		// A remote that records the credentials it is sent and has no repository: the jobs fail
		// after decrypting and using them, and the remote shows they were the right ones.
		var mu sync.Mutex
		var sent []string
		remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			sent = append(sent, r.Header.Get("Authorization"))
			mu.Unlock()
			http.NotFound(w, r)
		}))
		t.Cleanup(remote.Close)
		publicURL := remote.URL + "/docs.git"
		url := strings.Replace(publicURL, "http://", "http://bindery-user:"+secret+"@", 1)
		var outputs []string
		outputs = append(outputs, string(e.call(admin.Token, "POST", "/spaces/"+sp+"/git/import", map[string]any{"url": url, "ref": "refs/heads/main"}).want(http.StatusNoContent).Body))
		g := e.gql(admin.Token, `mutation($s: ID!, $u: String!) { exportToGitRepository(spaceId: $s, input: {url: $u, ref: "refs/heads/main", commitMessage: "x"}) { id url state error } }`, map[string]any{"s": sp, "u": url})
		g.ok(nil)
		outputs = append(outputs, string(g.Data))
		// While queued, the database holds the credentials only encrypted.
		outputs = append(outputs, e.dumpGitRows(sp))
		e.runJobs()
		info := e.call(admin.Token, "GET", "/spaces/"+sp+"/git/info", nil).want(http.StatusOK)
		outputs = append(outputs, string(info.Body))
		g = e.gql(admin.Token, `query($s: ID!) { space(id: $s) { gitSync { url } gitSyncJobs { nodes { state error url } } } }`, map[string]any{"s": sp})
		g.ok(nil)
		outputs = append(outputs, string(g.Data), e.dumpGitRows(sp), logs.String())
		for i, out := range outputs {
			if strings.Contains(out, secret) {
				t.Fatalf("output %d shows the secret: %s", i, out)
			}
		}
		if !strings.Contains(string(g.Data), `"state":"FAILED"`) || !strings.Contains(string(g.Data), `"url":"`+publicURL+`"`) {
			t.Fatalf("jobs = %s, want failed jobs showing the URL without credentials", g.Data)
		}
		// Failed for the reason expected (no repository there), not for credentials that could not
		// be decrypted: both jobs presented the credentials the URL held.
		if strings.Contains(string(g.Data), "decrypt") || strings.Contains(string(g.Data), "secret key") {
			t.Fatalf("jobs = %s: the credentials were not decrypted", g.Data)
		}
		want := "Basic " + base64.StdEncoding.EncodeToString([]byte("bindery-user:"+secret))
		mu.Lock()
		presented := 0
		for _, a := range sent {
			if a == want {
				presented++
			}
		}
		mu.Unlock()
		if presented < 2 {
			t.Fatalf("the remote saw the credentials %d times (requests' Authorization: %d), want once per job at least", presented, len(sent))
		}
		if !strings.Contains(outputs[2], `"credentials":"`) {
			t.Fatalf("queued jobs keep no (encrypted) credentials: %s", outputs[2])
		}
		if strings.Contains(e.dumpGitRows(sp), `"credentials":"`) {
			t.Fatalf("ended jobs still keep credentials")
		}
	})
}

// dumpGitRows is every stored row about the space's sync, as JSON.
func (e *env) dumpGitRows(spaceID string) string {
	e.t.Helper()
	jobs, err := e.store.GitSyncJobs(context.Background(), spaceID, storage.Window{Limit: 100})
	if err != nil {
		e.t.Fatal(err)
	}
	sp, err := e.store.FindSpaceByID(context.Background(), spaceID, false)
	if err != nil {
		e.t.Fatal(err)
	}
	type row struct {
		Credentials *string `json:"credentials,omitempty"`
		Request     string  `json:"request"`
		Error       *string `json:"error"`
	}
	var rows []row
	for _, j := range jobs.Items {
		rows = append(rows, row{j.Credentials, j.Request, j.Error})
	}
	b, _ := json.Marshal(map[string]any{"jobs": rows, "space": sp.GitSync})
	return string(b)
}

// Operations on a space apply in timestamp order: an older one queued after a newer one is
// skipped and recorded as such. A failed import leaves the space as it was; limits are enforced.
func TestGitSyncOrderingFailuresAndLimits(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		gitEnv(t, e)
		orgID, admin := e.org("Docs", "admin@git.test")
		src, _ := gitRepo(t, gitbookFixture())
		sp := e.newSpace(admin.Token, orgID, "Docs")
		newer, older := "2026-01-01T10:00:00Z", "2026-01-01T09:00:00Z" // before the test clock: later requests are newer
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/import", map[string]any{"url": src, "ref": "refs/heads/main", "timestamp": newer}).want(http.StatusNoContent)
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/import", map[string]any{"url": src, "ref": "refs/heads/main", "timestamp": older}).want(http.StatusNoContent)
		e.runJobs()
		var data struct {
			Space struct {
				GitSync struct{ Commit string }
				Jobs    struct {
					Nodes []struct{ State, Error string }
				} `json:"gitSyncJobs"`
			}
		}
		e.gql(admin.Token, `query($s: ID!) { space(id: $s) { gitSync { commit } gitSyncJobs { nodes { state error } } } }`, map[string]any{"s": sp}).ok(&data)
		jobs := data.Space.Jobs.Nodes
		if len(jobs) != 2 || jobs[0].State != "SKIPPED" || !strings.Contains(jobs[0].Error, "newer timestamp") || jobs[1].State != "SUCCEEDED" {
			t.Fatalf("jobs (newest first) = %+v, want the older-stamped one skipped", jobs)
		}
		revision := e.call(admin.Token, "GET", "/spaces/"+sp, nil).object()["revision"]

		// A repository that cannot be read: failed, the space as it was.
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/import", map[string]any{"url": "file://" + t.TempDir() + "/missing", "ref": "refs/heads/main"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, sp); state != "failed" || msg == "" {
			t.Fatalf("import of a missing repository: %s %q", state, msg)
		}
		// A missing branch, and too many files.
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/import", map[string]any{"url": src, "ref": "refs/heads/nope"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, sp); state != "failed" || !strings.Contains(msg, "not found") {
			t.Fatalf("import of a missing branch: %s %q", state, msg)
		}
		e.res.GitSync.Limits = gitsync.Limits{Files: 3}
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/import", map[string]any{"url": src, "ref": "refs/heads/main"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, sp); state != "failed" || !strings.Contains(msg, "more than 3 files") {
			t.Fatalf("import over the file limit: %s %q", state, msg)
		}
		e.res.GitSync.Limits = gitsync.Limits{FileBytes: 10}
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/import", map[string]any{"url": src, "ref": "refs/heads/main"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, sp); state != "failed" || !strings.Contains(msg, "per file") {
			t.Fatalf("import over the file size limit: %s %q", state, msg)
		}
		e.res.GitSync.Limits = gitsync.Limits{}
		if now := e.call(admin.Token, "GET", "/spaces/"+sp, nil).object()["revision"]; now != revision {
			t.Fatalf("failed imports changed the space's revision")
		}
		// A standalone import makes a revision that is not the space's content.
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/import", map[string]any{"url": src, "ref": "refs/heads/main", "standalone": true}).want(http.StatusNoContent)
		e.runJobs()
		info := e.call(admin.Token, "GET", "/spaces/"+sp+"/git/info", nil).want(http.StatusOK).object()
		job := info["lastJob"].(map[string]any)
		if job["state"] != "succeeded" || job["revision"] == nil {
			t.Fatalf("standalone import: %v", job)
		}
		if now := e.call(admin.Token, "GET", "/spaces/"+sp, nil).object()["revision"]; now != revision {
			t.Fatalf("a standalone import changed the space's revision")
		}
		standalone := e.call(admin.Token, "GET", "/spaces/"+sp+"/revisions/"+job["revision"].(string), nil).want(http.StatusOK).object()
		if len(standalone["pages"].([]any)) != 2 {
			t.Fatalf("standalone revision pages = %v", standalone["pages"])
		}
	})
}

// A job queued when the server stops runs after it starts again.
func TestGitSyncJobRunsAfterRestart(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		gitEnv(t, e)
		orgID, admin := e.org("Docs", "admin@git.test")
		src, head := gitRepo(t, gitbookFixture())
		sp := e.newSpace(admin.Token, orgID, "Docs")
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/import", map[string]any{"url": src, "ref": "refs/heads/main"}).want(http.StatusNoContent)
		if state, _ := e.lastJob(admin.Token, sp); state != "queued" {
			t.Fatalf("before any worker runs, the job is %s", state)
		}
		// A new server (resolver, workers) over the same database.
		restarted := newEnv(t, e.store)
		gitEnv(t, restarted)
		restarted.res.Blobs = e.res.Blobs
		restarted.runJobs()
		if state, msg := e.lastJob(admin.Token, sp); state != "succeeded" {
			t.Fatalf("after the restart the job is %s %s", state, msg)
		}
		if _, _, rev := e.contentOf(admin.Token, sp); rev["git"].(map[string]any)["oid"] != head {
			t.Fatalf("the imported revision is not the fixture's commit")
		}
	})
}

// commitTo adds a commit changing files on the fixture repository's branch.
func commitTo(t *testing.T, url string, files map[string]string) {
	t.Helper()
	dir := strings.TrimPrefix(url, "file://")
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	wt, _ := repo.Worktree()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := wt.Add(name); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := wt.Commit("Change", &git.CommitOptions{Author: &gitAuthor}); err != nil {
		t.Fatal(err)
	}
}

// findPage returns the id of the page titled title in a page tree (REST JSON).
func findPage(pages []any, title string) string {
	for _, raw := range pages {
		p := raw.(map[string]any)
		if p["title"] == title {
			return p["id"].(string)
		}
		if kids, ok := p["pages"].([]any); ok {
			if id := findPage(kids, title); id != "" {
				return id
			}
		}
	}
	return ""
}

// Through GraphQL: the mutation answers the queued job; after it ran, the space shows its sync
// and the revision, pages and files their Git metadata. A change request opened before a second
// import still merges page by page.
func TestGitSyncThroughGraphQLKeepsChangeRequestsMergeable(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		gitEnv(t, e)
		orgID, admin := e.org("Docs", "admin@git.test")
		src, head := gitRepo(t, gitbookFixture())
		sp := e.newSpace(admin.Token, orgID, "Docs")
		importQ := `mutation($s: ID!, $u: String!) { importGitRepository(spaceId: $s, input: {url: $u, ref: "refs/heads/main", gitInfo: {provider: GITHUB, url: "https://github.com/acme/docs"}}) { state url operation } }`
		var queued struct {
			Job struct{ State, URL, Operation string } `json:"importGitRepository"`
		}
		e.gql(admin.Token, importQ, map[string]any{"s": sp, "u": src}).ok(&queued)
		if queued.Job.State != "QUEUED" || queued.Job.Operation != "IMPORT" || queued.Job.URL != src {
			t.Fatalf("queued job = %+v", queued.Job)
		}
		e.runJobs()
		var data struct {
			Space struct {
				GitSync struct {
					URL, Ref, Commit, RepoName string
					Provider                   string `json:"installationProvider"`
				}
				Content struct {
					Git struct {
						Oid, Ref                           string
						CreatedByService, CreatedByGitBook bool
					}
					Files struct {
						Nodes []struct {
							Name string
							Git  struct{ Path, Oid string }
						}
					}
					Pages []struct {
						Title string
						Git   *struct{ Path string }
					}
				}
			}
		}
		e.gql(admin.Token, `query($s: ID!) { space(id: $s) { gitSync { url ref commit repoName installationProvider }
			content { git { oid ref createdByService createdByGitBook } files { nodes { name git { path oid } } } pages { title git { path } } } } }`, map[string]any{"s": sp}).ok(&data)
		s := data.Space
		if s.GitSync.URL != "https://github.com/acme/docs" || s.GitSync.Ref != "refs/heads/main" || s.GitSync.Commit != head || s.GitSync.Provider != "GITHUB" {
			t.Fatalf("gitSync = %+v", s.GitSync)
		}
		if s.Content.Git.Oid != head || s.Content.Git.CreatedByService || s.Content.Git.Ref != "refs/heads/main" {
			t.Fatalf("revision git = %+v", s.Content.Git)
		}
		if len(s.Content.Files.Nodes) != 1 || s.Content.Files.Nodes[0].Git.Path != ".gitbook/assets/logo.png" || s.Content.Files.Nodes[0].Git.Oid == "" {
			t.Fatalf("files = %+v", s.Content.Files)
		}
		if s.Content.Pages[0].Git == nil || s.Content.Pages[0].Git.Path != "README.md" {
			t.Fatalf("pages = %+v", s.Content.Pages)
		}

		// A change request edits one page; the repository changes another; the import then the
		// merge both apply.
		tree := e.call(admin.Token, "GET", "/spaces/"+sp+"/content", nil).object()["pages"].([]any)
		mac, linux := findPage(tree, "On Mac"), findPage(tree, "On Linux")
		cr := e.openChangeRequest(admin.Token, sp, "Mac edits")
		e.updatePage(admin.Token, target(sp, cr), mac, map[string]any{"markdown": "Use Homebrew.\n"}).ok(nil)
		commitTo(t, src, map[string]string{"docs/guides/linux.md": "# On Linux\n\nUse apt or dnf.\n"})
		e.gql(admin.Token, importQ, map[string]any{"s": sp, "u": src}).ok(nil)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, sp); state != "succeeded" {
			t.Fatalf("second import: %s %s", state, msg)
		}
		tree = e.call(admin.Token, "GET", "/spaces/"+sp+"/content", nil).object()["pages"].([]any)
		if findPage(tree, "On Linux") != linux || findPage(tree, "On Mac") != mac {
			t.Fatalf("the import changed page ids")
		}
		e.call(admin.Token, "POST", "/spaces/"+sp+"/change-requests/"+cr+"/merge", nil).want(http.StatusOK)
		md := func(id string) string {
			return e.call(admin.Token, "GET", "/spaces/"+sp+"/content/page/"+id+"?format=markdown", nil).want(http.StatusOK).object()["markdown"].(string)
		}
		if got := md(linux); got != "Use apt or dnf.\n" {
			t.Fatalf("Linux page after merge = %q, want the imported text", got)
		}
		if got := md(mac); got != "Use Homebrew.\n" {
			t.Fatalf("Mac page after merge = %q, want the change request's text", got)
		}
	})
}

// An export does not overwrite a branch that moved since the last sync unless forced; forced,
// it commits on top.
func TestGitSyncExportForce(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		gitEnv(t, e)
		orgID, admin := e.org("Docs", "admin@git.test")
		src, _ := gitRepo(t, gitbookFixture())
		sp := e.newSpace(admin.Token, orgID, "Docs")
		e.call(admin.Token, "POST", "/spaces/"+sp+"/git/import", map[string]any{"url": src, "ref": "refs/heads/main"}).want(http.StatusNoContent)
		dstURL, dstDir := bareRepo(t)
		export := func(force bool) (string, string) {
			e.call(admin.Token, "POST", "/spaces/"+sp+"/git/export", map[string]any{"url": dstURL, "ref": "refs/heads/docs", "commitMessage": "Sync", "force": force}).want(http.StatusNoContent)
			e.runJobs()
			return e.lastJob(admin.Token, sp)
		}
		if state, msg := export(false); state != "succeeded" {
			t.Fatalf("first export: %s %s", state, msg)
		}
		// Someone else pushes to the branch.
		work := t.TempDir()
		clone, err := git.PlainClone(work, false, &git.CloneOptions{URL: dstDir, ReferenceName: plumbing.NewBranchReferenceName("docs")})
		if err != nil {
			t.Fatal(err)
		}
		// Under the root (.gitbook.yaml's docs/), the space's content that export replaces.
		os.WriteFile(filepath.Join(work, "docs", "NOTES.md"), []byte("# Notes\n"), 0o644)
		wt, _ := clone.Worktree()
		wt.Add("docs/NOTES.md")
		external, err := wt.Commit("External change", &git.CommitOptions{Author: &gitAuthor})
		if err != nil {
			t.Fatal(err)
		}
		if err := clone.Push(&git.PushOptions{}); err != nil {
			t.Fatal(err)
		}
		if state, msg := export(false); state != "failed" || !strings.Contains(msg, "moved") {
			t.Fatalf("export over a moved branch: %s %q", state, msg)
		}
		if state, msg := export(true); state != "succeeded" {
			t.Fatalf("forced export: %s %s", state, msg)
		}
		files, head := branchFiles(t, dstDir, "docs")
		if _, ok := files["docs/NOTES.md"]; ok || len(head.ParentHashes) != 1 || head.ParentHashes[0] != external {
			t.Fatalf("forced export: files %v, parents %v; want the space's content on top of %s", keys(files), head.ParentHashes, external)
		}
	})
}
