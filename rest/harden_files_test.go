package rest_test

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// Issue 12, finding 8: uploaded files a browser would run are downloaded, not shown, and no file
// runs on the API's origin (a sandboxing CSP on every file).
func TestUploadedFilesDoNotRun(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		to := target(o.space("", "Files"), "")
		for _, tt := range []struct {
			name, content, disposition string
		}{
			{"page.html", "<html><script>alert(1)</script></html>", "attachment"},
			{"feed.xml", `<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>`, "attachment"},
			{"page.xhtml", `<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>`, "attachment"},
			{"app.js", "alert(1)", "inline"}, // stored as text/plain, served with nosniff: shown as text
			{"logo.svg", `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`, "inline"},
			{"notes.txt", "plain notes", "inline"},
		} {
			var data struct {
				UploadFile struct{ File struct{ DownloadURL string } }
			}
			e.upload(o.admin.Token, to, tt.name, []byte(tt.content)).ok(&data)
			u, err := url.Parse(data.UploadFile.File.DownloadURL)
			if err != nil {
				t.Fatal(err)
			}
			_, rec := e.serve(httptest.NewRequest("GET", u.Path, nil), o.admin.Token, nil)
			if rec.Code != 200 || rec.Body.String() != tt.content {
				t.Fatalf("%s: %d %s", tt.name, rec.Code, rec.Body)
			}
			h := rec.Header()
			if d := h.Get("Content-Disposition"); !strings.HasPrefix(d, tt.disposition+";") {
				t.Errorf("%s (%s): Content-Disposition %q, want %s", tt.name, h.Get("Content-Type"), d, tt.disposition)
			}
			if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "sandbox") || !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("%s: CSP %q", tt.name, csp)
			}
			if h.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("%s: no nosniff", tt.name)
			}
		}
	})
}
