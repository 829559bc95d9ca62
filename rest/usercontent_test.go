package rest_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/doors"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/usercontent"
)

// A file that could run in a browser, uploaded through either door (GraphQL's upload, REST's Git
// Sync import) and read back through every route that serves files (the API's downloadURL, a
// published site's ~files), is never shown inline unless its type is on the passive allow-list,
// and every answer carries nosniff and the sandboxing CSP. The type served is the one Bindery
// detects, not the one the uploader declared.
func TestUserContentIsNeverActive(t *testing.T) {
	html := "<html><script>alert(document.cookie)</script></html>"
	cases := []struct {
		name, declared, content string
		wantType                string // the media type served
		inline                  bool
	}{
		{"page.html", "text/html", html, "text/html", false},
		{"evil.png", "image/png", html, "text/html", false}, // the bytes say HTML: that wins
		{"feed.xml", "text/xml", `<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>`, "text/xml", false},
		{"page.xhtml", "application/xhtml+xml", `<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>`, "text/html", false},
		{"report.pdf", "application/pdf", "%PDF-1.4\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n", "application/pdf", false},
		{"logo.svg", "image/svg+xml", `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`, "image/svg+xml", false},
		// Bytes no sniffer names: the upload keeps its declared type (an attachment all the same),
		// Git Sync, which declares none, serves them as application/octet-stream.
		{"opaque.bin", "text/html", "\x00\x01\x02\x03<script>alert(1)</script>", "text/html", false},
		{"app.js", "text/javascript", "alert(1)", "text/plain", true}, // detected as text: shown as text
		{"notes.txt", "text/plain", "plain notes", "text/plain", true},
		{"cat.png", "image/png", string(tinyPNG(t)), "image/png", true},
	}
	eachDB(t, func(t *testing.T, e *env) {
		gitEnv(t, e)
		orgID, admin := e.org("Acme", "admin@acme.test")
		uploaded := e.newSpace(admin.Token, orgID, "Uploaded")
		imported := e.newSpace(admin.Token, orgID, "Imported")

		// Door 1: GraphQL's multipart upload, with the declared type in the part's header.
		for _, c := range cases {
			e.uploadTyped(admin.Token, target(uploaded, ""), c.name, c.declared, []byte(c.content)).ok(nil)
		}
		// Door 2: REST's Git Sync import of a repository holding the same files.
		files := map[string]string{"README.md": "# Home\n"}
		for _, c := range cases {
			files[".gitbook/assets/"+c.name] = c.content
		}
		src, _ := gitRepo(t, files)
		e.call(admin.Token, "POST", "/spaces/"+imported+"/git/import", map[string]any{"url": src, "ref": "refs/heads/main"}).want(http.StatusNoContent)
		e.runJobs()
		if state, msg := e.lastJob(admin.Token, imported); state != "succeeded" {
			t.Fatalf("import: %s %s", state, msg)
		}

		// Both spaces published on one site, so that ~files serves them too.
		site := e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites", `{"title":"Files"}`).want(http.StatusCreated).object()["id"].(string)
		base := "/orgs/" + orgID + "/sites/" + site
		e.call(admin.Token, "PATCH", base, `{"basename":"files","visibility":"public"}`).want(http.StatusOK)
		siteSpaceOf := map[string]string{}
		for _, sp := range []string{uploaded, imported} {
			section := e.call(admin.Token, "POST", base+"/sections", `{"spaceId":"`+sp+`"}`).want(http.StatusCreated).object()
			siteSpaceOf[sp] = siteSpaceIn(t, e, admin.Token, base, section["id"].(string))
		}

		for _, sp := range []string{uploaded, imported} {
			list := e.call(admin.Token, "GET", "/spaces/"+sp+"/content/files", nil).want(http.StatusOK).object()["items"].([]any)
			byName := map[string]map[string]any{}
			for _, f := range list {
				byName[f.(map[string]any)["name"].(string)] = f.(map[string]any)
			}
			for _, c := range cases {
				f := byName[c.name]
				if f == nil {
					t.Fatalf("space %s lacks %s", sp, c.name)
				}
				u, err := url.Parse(f["downloadURL"].(string))
				if err != nil {
					t.Fatal(err)
				}
				_, api := e.serve(httptest.NewRequest("GET", u.Path, nil), admin.Token, nil)
				published := e.read("/sites/files/~files/"+siteSpaceOf[sp]+"/"+f["id"].(string)+"/"+url.PathEscape(c.name), nil)
				for route, got := range map[string]struct {
					code   int
					header http.Header
					body   string
				}{"downloadURL": {api.Code, api.Header(), api.Body.String()}, "~files": {published.Status, published.Header, published.Body}} {
					what := sp + " " + c.name + " via " + route
					if got.code != http.StatusOK || got.body != c.content {
						t.Fatalf("%s: %d %.80q", what, got.code, got.body)
					}
					wantType := c.wantType
					if sp == imported && c.name == "opaque.bin" {
						wantType = "application/octet-stream"
					}
					wantUserContentHeaders(t, what, got.header, wantType, c.inline)
				}
			}
		}
	})
}

// wantUserContentHeaders checks the user-content policy's headers on one answer.
func wantUserContentHeaders(t *testing.T, what string, h http.Header, wantType string, inline bool) {
	t.Helper()
	if got := h.Get("Content-Type"); !strings.HasPrefix(got, wantType) {
		t.Errorf("%s: Content-Type %q, want %s", what, got, wantType)
	}
	disposition := "attachment"
	if inline {
		disposition = "inline"
	}
	if got := h.Get("Content-Disposition"); !strings.HasPrefix(got, disposition+";") {
		t.Errorf("%s: Content-Disposition %q, want %s", what, got, disposition)
	}
	if got := h.Get("Content-Security-Policy"); got != usercontent.CSP {
		t.Errorf("%s: CSP %q", what, got)
	}
	if h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("%s: no nosniff", what)
	}
}

// siteSpaceIn is the id of the site space of a section, read from the site's structure.
func siteSpaceIn(t *testing.T, e *env, token, siteBase, sectionID string) string {
	t.Helper()
	spaces := e.call(token, "GET", siteBase+"/site-spaces", nil).want(http.StatusOK).object()["items"].([]any)
	for _, s := range spaces {
		ss := s.(map[string]any)
		if ss["section"] == sectionID {
			return ss["id"].(string)
		}
	}
	t.Fatalf("no site space in section %s: %v", sectionID, spaces)
	return ""
}

// With a files origin of its own (--files-origin), files are answered there and only there: the
// API's downloadURL points to it, a published site checks its visitor and redirects to a signed,
// short-lived link to it, and it answers nothing but files. A link that is tampered with,
// expired, for another file or followed on the main origin is a file not found.
func TestFilesOrigin(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		origin, err := usercontent.NewOrigin("https://usercontent.test", "a secret")
		if err != nil {
			t.Fatal(err)
		}
		e.res.Settings.FilesURL = origin.URL()
		h := rest.NewServerWith(e.res, doors.Mount(e.res, rest.Options{FilesOrigin: origin}))
		const main, files = "https://bindery.test", "https://usercontent.test"

		orgID, admin := e.org("Acme", "admin@acme.test")
		space := e.newSpace(admin.Token, orgID, "Files")
		html := "<html><script>alert(document.cookie)</script></html>"
		e.upload(admin.Token, target(space, ""), "page.html", []byte(html)).ok(nil)
		site := e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
		base := "/orgs/" + orgID + "/sites/" + site
		e.call(admin.Token, "PATCH", base, `{"basename":"docs","visibility":"public"}`).want(http.StatusOK)
		section := e.call(admin.Token, "POST", base+"/sections", `{"spaceId":"`+space+`"}`).want(http.StatusCreated).object()["id"].(string)
		siteSpace := siteSpaceIn(t, e, admin.Token, base, section)

		// The API's downloadURL is on the files origin, and answers there with the token.
		f := e.call(admin.Token, "GET", "/spaces/"+space+"/content/files", nil).want(http.StatusOK).object()["items"].([]any)[0].(map[string]any)
		downloadURL := f["downloadURL"].(string)
		if !strings.HasPrefix(downloadURL, files+"/files/") {
			t.Fatalf("downloadURL %q is not on the files origin", downloadURL)
		}
		rec := from(h, "198.51.100.1", admin.Token, "GET", downloadURL, "")
		if rec.Code != http.StatusOK || rec.Body.String() != html {
			t.Fatalf("downloadURL with a token: %d %s", rec.Code, rec.Body)
		}
		wantUserContentHeaders(t, "downloadURL", rec.Header(), "text/html", false)

		// A site's file: the main origin redirects to a signed link on the files origin.
		sitePath := main + "/sites/docs/~files/" + siteSpace + "/" + f["id"].(string) + "/page.html"
		rec = from(h, "198.51.100.1", "", "GET", sitePath, "")
		link := rec.Header().Get("Location")
		if rec.Code != http.StatusFound || !strings.HasPrefix(link, files+"/files/") || !strings.Contains(link, "signature=") {
			t.Fatalf("site file on the main origin: %d, Location %q", rec.Code, link)
		}
		if rec.Body.Len() > 0 && strings.Contains(rec.Body.String(), "<script>") {
			t.Fatal("the main origin answered the file's bytes")
		}
		rec = from(h, "198.51.100.1", "", "GET", link, "")
		if rec.Code != http.StatusOK || rec.Body.String() != html {
			t.Fatalf("signed link: %d %s", rec.Code, rec.Body)
		}
		wantUserContentHeaders(t, "signed link", rec.Header(), "text/html", false)

		// Links that prove nothing.
		u, _ := url.Parse(link)
		q := u.Query()
		versionID := strings.Split(strings.TrimPrefix(u.Path, "/files/"), "/")[0]
		tampered := *u
		q.Set("expires", q.Get("expires")+"0") // later, under the same signature
		tampered.RawQuery = q.Encode()
		for name, bad := range map[string]string{
			"tampered":         tampered.String(),
			"expired":          origin.SignedFileURL(versionID, "page.html", time.Now().Add(-time.Hour)),
			"another file":     strings.Replace(link, versionID, "AAAAAAAAAAAAAAAAAAAA", 1),
			"on the main host": strings.Replace(link, files, main, 1),
			"unsigned":         files + u.Path,
		} {
			rec := from(h, "198.51.100.1", "", "GET", bad, "")
			if rec.Code == http.StatusOK || strings.Contains(rec.Body.String(), "<script>") {
				t.Errorf("%s link: %d %s", name, rec.Code, rec.Body)
			}
		}

		// The files origin answers files and nothing else, whatever the token.
		for _, r := range []struct{ method, path, body string }{
			{"GET", files + "/v1/user", ""}, {"POST", files + "/graphql", userQuery}, {"GET", files + "/sites/docs/", ""},
			{"GET", files + "/healthz", ""}, {"GET", files + "/graphql", ""},
		} {
			if rec := from(h, "198.51.100.1", admin.Token, r.method, r.path, r.body); rec.Code != http.StatusNotFound {
				t.Errorf("%s %s on the files origin: %d, want 404", r.method, r.path, rec.Code)
			}
		}
		// While the main origin still answers them.
		if rec := from(h, "198.51.100.1", admin.Token, "GET", main+"/v1/user", ""); rec.Code != http.StatusOK {
			t.Errorf("GET /v1/user on the main origin: %d", rec.Code)
		}

		// A visitor who may not read the site (no share key) gets no link.
		e.call(admin.Token, "PATCH", base, `{"visibility":"share-link"}`).want(http.StatusOK)
		if rec := from(h, "198.51.100.1", "", "GET", sitePath, ""); rec.Code != http.StatusNotFound || rec.Header().Get("Location") != "" {
			t.Errorf("file of a share-link site without its key: %d, Location %q", rec.Code, rec.Header().Get("Location"))
		}
	})
}
