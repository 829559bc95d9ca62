// Package explorer serves GraphiQL, the in-browser GraphQL explorer, entirely from the binary: its
// scripts and styles are embedded, so it works without network access beyond the Bindery server,
// and no third-party origin learns who browses the API.
package explorer

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
)

// AssetsPath is where the explorer's files are served (no token needed: they are public code).
const AssetsPath = "/explorer/assets/"

//go:embed assets
var files embed.FS

var page = template.Must(template.New("explorer").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Bindery GraphQL</title>
<link rel="stylesheet" href="{{.Assets}}graphiql.min.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading the explorer…</div>
<script src="{{.Assets}}react.production.min.js"></script>
<script src="{{.Assets}}react-dom.production.min.js"></script>
<script src="{{.Assets}}graphiql.min.js"></script>
<script src="{{.Assets}}explorer.js" data-endpoint="{{.Endpoint}}"></script>
</body>
</html>
`))

// Page serves the explorer's HTML for a GraphQL endpoint (e.g. "/graphql").
func Page(endpoint string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		// Everything comes from this server; the page may only talk to it.
		w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'")
		w.Header().Set("Cache-Control", "no-cache")
		_ = page.Execute(w, map[string]string{"Assets": AssetsPath, "Endpoint": endpoint})
	})
}

// Assets serves the embedded files under AssetsPath.
func Assets() http.Handler {
	sub, _ := fs.Sub(files, "assets")
	fileServer := http.StripPrefix(AssetsPath, http.FileServer(http.FS(sub)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=86400")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		fileServer.ServeHTTP(w, r)
	})
}
