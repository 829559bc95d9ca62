// Package web serves the first-party app (docs/app.md): the build in dist, made by `npm run
// build` from this folder and committed, so running Bindery needs no Node. It also carries the
// app's persisted GraphQL documents, the only ones a browser session may run.
package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed dist
var dist embed.FS

//go:embed src/gql/persisted-documents.json
var persistedJSON []byte

// Routes are the paths the app answers (chi patterns): its screens, which are the urls.app the
// API returns, the sign-in screen, and the hashed assets.
var Routes = []string{"/", "/sign-in", "/o/*", "/s/*", "/c/*", AssetsPath + "*"}

// AssetsPath is where the build's hashed files are served.
const AssetsPath = "/assets/"

// ContentSecurityPolicy is the app's policy: its own scripts and styles only, nothing inline,
// no framing; images may come from anywhere a page links them (https) but scripts never.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data: blob:; " +
	"font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Handler serves the app: hashed assets cached for good, index.html (never cached) for every
// other route, so that each screen's address opens the app there.
func Handler() http.Handler {
	root, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the embed pattern guarantees dist exists
	}
	index, err := fs.ReadFile(root, "index.html")
	if err != nil {
		panic("web: dist/index.html is missing: run npm run build in web/")
	}
	modTime := time.Time{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if name, ok := strings.CutPrefix(r.URL.Path, AssetsPath); ok {
			name = path.Clean("/" + name)[1:]
			b, err := fs.ReadFile(root, "assets/"+name)
			if err != nil || name == "" {
				http.Error(w, "Not found", http.StatusNotFound)
				return
			}
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
			http.ServeContent(w, r, name, modTime, bytes.NewReader(b))
			return
		}
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Type", "text/html; charset=utf-8")
		http.ServeContent(w, r, "index.html", modTime, bytes.NewReader(index))
	})
}

// PersistedDocuments returns the app's GraphQL documents by their SHA-256 (hex, no prefix), as
// the code generator wrote them at build time.
func PersistedDocuments() map[string]string {
	var raw map[string]string
	if err := json.Unmarshal(persistedJSON, &raw); err != nil {
		panic("web: src/gql/persisted-documents.json: " + err.Error())
	}
	docs := make(map[string]string, len(raw))
	for k, v := range raw {
		docs[strings.TrimPrefix(k, "sha256:")] = v
	}
	return docs
}
