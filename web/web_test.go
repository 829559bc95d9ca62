package web_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/bindery/bindery/web"
)

func TestHandlerServesTheAppAtEveryScreenAndAssetsForGood(t *testing.T) {
	h := web.Handler()
	get := func(method, path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(method, path, nil))
		return w
	}
	var script string
	for _, path := range []string{"/", "/sign-in?return=/o/1/", "/o/org1/", "/s/sp1/guide/install", "/s/sp1/~/changes/3/", "/c/col1/", "/o/org1/sites/site1/"} {
		w := get("GET", path)
		if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
			t.Fatalf("%s: %d %s", path, w.Code, w.Header().Get("Content-Type"))
		}
		if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self';") || strings.Contains(csp, "unsafe") {
			t.Fatalf("%s: CSP %q", path, csp)
		}
		if w.Header().Get("X-Content-Type-Options") != "nosniff" || w.Header().Get("Cache-Control") != "no-cache" {
			t.Fatalf("%s: headers %v", path, w.Header())
		}
		body := w.Body.String()
		if regexp.MustCompile(`<script(?: [^>]*)?>[^<]`).MatchString(body) {
			t.Fatalf("%s: inline script in %s", path, body)
		}
		m := regexp.MustCompile(`src="(/assets/[^"]+\.js)"`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s: no script in %s", path, body)
		}
		script = m[1]
	}
	w := get("GET", script)
	if w.Code != http.StatusOK || w.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" ||
		!strings.Contains(w.Header().Get("Content-Type"), "javascript") || w.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("asset %s: %d %v", script, w.Code, w.Header())
	}
	if w := get("GET", "/assets/missing.js"); w.Code != http.StatusNotFound {
		t.Fatalf("missing asset: %d", w.Code)
	}
	if w := get("GET", "/assets/../index.html"); w.Code != http.StatusNotFound {
		t.Fatalf("escaping asset path: %d", w.Code)
	}
	if w := get("POST", "/o/org1/"); w.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST: %d", w.Code)
	}
}

func TestPersistedDocumentsAreTheAppsOperations(t *testing.T) {
	docs := web.PersistedDocuments()
	if len(docs) == 0 {
		t.Fatal("no persisted documents")
	}
	found := false
	for hash, doc := range docs {
		if len(hash) != 64 || strings.HasPrefix(hash, "sha256:") {
			t.Fatalf("hash %q", hash)
		}
		found = found || strings.Contains(doc, "query OrganizationHome")
	}
	if !found {
		t.Fatal("OrganizationHome is not persisted")
	}
}
