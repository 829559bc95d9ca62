// Package reader serves published sites at /sites/<name>/: server-rendered HTML (html/template,
// CSS and a little JavaScript embedded in the binary), search, files, and what machines read
// (sitemap.xml, robots.txt, llms.txt, each page's markdown). It reads the domain's published
// sites (load.go), the objects the graph's publishedSite field answers with, so a visitor reads
// here exactly what they could read through the graph. See docs/reader.md.
package reader

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/usercontent"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Cookies that carry a visitor's credentials from page to page, scoped to the site's path.
const (
	tokenCookie  = "bindery_visitor_token"
	shareCookie  = "bindery_share_key"
	claimsCookie = "bindery_visitor_claims"
)

// build is part of every ETag, so that a new reader never answers 304 with an old page.
const build = "reader-2"

// Handler serves published sites.
type Handler struct {
	app    *domain.App
	tmpl   *template.Template
	static map[string]staticFile
	// FilesOrigin, when set, serves the sites' files: this handler checks the visitor and
	// redirects to a signed link there, so that no uploaded byte is answered on the sites' origin.
	FilesOrigin *usercontent.Origin
}

type staticFile struct {
	body        []byte
	contentType string
	hash        string
}

// New builds the reader over the application.
func New(app *domain.App) *Handler {
	h := &Handler{app: app, static: map[string]staticFile{}}
	h.tmpl = template.Must(template.New("").Funcs(funcs).Funcs(h.askFuncs()).ParseFS(templateFS, "templates/*.html"))
	entries, _ := fs.ReadDir(staticFS, "static")
	for _, e := range entries {
		body, _ := staticFS.ReadFile("static/" + e.Name())
		if e.Name() == "reader.css" {
			body = append(body, chromaCSS()...)
		}
		sum := sha256.Sum256(body)
		ct := mime.TypeByExtension(e.Name()[strings.LastIndexByte(e.Name(), '.'):])
		if strings.HasSuffix(e.Name(), ".woff2") {
			ct = "font/woff2" // not in every system's table
		}
		h.static[e.Name()] = staticFile{body: body, contentType: ct, hash: hex.EncodeToString(sum[:6])}
	}
	return h
}

// Routes mounts the reader; the caller mounts it at /sites.
func (h *Handler) Routes() http.Handler {
	r := chi.NewRouter()
	r.Use(middleware.GetHead) // crawlers and link checkers ask HEAD
	r.Get("/{name}", func(w http.ResponseWriter, req *http.Request) {
		u := *req.URL
		u.Path += "/"
		http.Redirect(w, req, u.String(), http.StatusMovedPermanently)
	})
	r.Get("/{name}/~static/{file}", h.serveStatic)
	r.Get("/{name}/~files/{siteSpace}/{file}/{fname}", h.serveFile)
	r.Get("/{name}/~font/{fontId}/{file}", h.serveFont)
	r.Get("/{name}/~search", h.serveSearch)
	h.askRoutes(r)
	r.Post("/{name}/~feedback", h.serveFeedback)
	r.Get("/{name}/~view", h.servePageView)
	r.Get("/{name}/robots.txt", h.serveRobots)
	r.Get("/{name}/sitemap.xml", h.serveSitemap)
	r.Get("/{name}/llms.txt", h.serveLLMs)
	r.Get("/{name}/*", h.servePage)
	return r
}

// visitor reads who is visiting from the request: a share key or visitor token given in the URL
// (moved into a cookie by redirect first, see takeCredentials), else from the cookies; and
// unsigned claims (visitor.<claim> parameters, kept in a cookie likewise).
func visitor(req *http.Request) *model.SiteVisitorInput {
	in := &model.SiteVisitorInput{}
	if c, err := req.Cookie(shareCookie); err == nil && c.Value != "" {
		in.ShareKey = &c.Value
	}
	if c, err := req.Cookie(tokenCookie); err == nil && c.Value != "" {
		in.Token = &c.Value
	}
	if c, err := req.Cookie(claimsCookie); err == nil && c.Value != "" {
		if b, err := base64.RawURLEncoding.DecodeString(c.Value); err == nil && json.Valid(b) {
			in.Claims = model.JSON(b)
		}
	}
	return in
}

// takeCredentials moves a share key, visitor token or unsigned claims from the URL into cookies
// and redirects to the URL without them, so that they stay out of links, logs and history.
// It reports whether it answered.
func takeCredentials(w http.ResponseWriter, req *http.Request) bool {
	q := req.URL.Query()
	path := "/sites/" + chi.URLParam(req, "name") + "/"
	asked, atHost := domain.SiteHostPath(req.Context())
	if atHost { // the site at its own host name: its pages are at the root
		path = "/"
	}
	cookie := func(key, value string) {
		http.SetCookie(w, &http.Cookie{Name: key, Value: value, Path: path, HttpOnly: true,
			Secure: req.TLS != nil, SameSite: http.SameSiteLaxMode})
	}
	moved := false
	if v := q.Get("share"); v != "" {
		cookie(shareCookie, v)
		q.Del("share")
		moved = true
	}
	if v := q.Get("jwt_token"); v != "" {
		cookie(tokenCookie, v)
		q.Del("jwt_token")
		moved = true
	}
	claims := map[string]any{}
	for k, vs := range q {
		if claim, ok := strings.CutPrefix(k, "visitor."); ok && claim != "" && len(vs) > 0 {
			claims[claim] = claimValue(vs[0])
			q.Del(k)
		}
	}
	if len(claims) > 0 {
		b, _ := json.Marshal(claims)
		cookie(claimsCookie, base64.RawURLEncoding.EncodeToString(b))
		moved = true
	}
	if !moved {
		return false
	}
	u := *req.URL
	if atHost {
		u.Path = asked
	}
	u.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, req, u.String(), http.StatusFound)
	return true
}

// claimValue reads an unsigned claim: true, false and numbers as such, anything else a string.
func claimValue(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err == nil {
		switch v.(type) {
		case bool, float64:
			return v
		}
	}
	return s
}

// notModified answers 304 when the request already holds this version.
func notModified(w http.ResponseWriter, req *http.Request, tag string) bool {
	if tag == "" {
		return false
	}
	w.Header().Set("ETag", tag)
	for _, t := range strings.Split(req.Header.Get("If-None-Match"), ",") {
		if t = strings.TrimSpace(t); t == tag || t == "W/"+tag || t == "*" {
			w.WriteHeader(http.StatusNotModified)
			return true
		}
	}
	return false
}

// headers sets what every reader response carries: caching by visibility (a site that needs a
// share key or token is private to the visitor), and a strict content security policy.
func headers(w http.ResponseWriter, indexable bool) {
	h := w.Header()
	if indexable {
		h.Set("Cache-Control", "public, max-age=0, must-revalidate")
	} else {
		h.Set("Cache-Control", "private, no-cache")
		h.Set("X-Robots-Tag", "noindex")
	}
	h.Set("Vary", "Cookie")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("Content-Security-Policy", readerCSP)
}

// readerCSP is every reader page's content security policy: the reader's own scripts and styles
// only.
const readerCSP = "default-src 'none'; img-src 'self' https: data:; style-src 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'"

// diagramCSP is a page with a diagram's: the diagram library writes each drawing as an SVG with
// its own <style> element and style attributes, which style-src 'self' would block. Scripts stay
// the reader's own; the library runs in its strict mode (labels sanitized, no HTML or click
// handlers in diagrams), and the document's own HTML is sanitized without style, so the inline
// styles a page can hold are the library's.
const diagramCSP = "default-src 'none'; img-src 'self' https: data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'"

// mathCSP is a page with math's (and with math and a diagram): the math library sizes and places
// each symbol with inline styles, as the diagram library does, and draws them in its own fonts,
// served beside its stylesheet.
const mathCSP = "default-src 'none'; img-src 'self' https: data:; style-src 'self' 'unsafe-inline'; font-src 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'"

// fail answers an error of the domain: 404 for what is not there (or not for this visitor), 401
// for a visitor-auth site without a valid token, 400 for bad input, else a logged 500.
func (h *Handler) fail(w http.ResponseWriter, req *http.Request, err error) {
	status, title, text := http.StatusInternalServerError, "Something went wrong", "The page could not be shown. Please try again later."
	switch apperr.KindOf(err) {
	case apperr.NotFound:
		status, title, text = http.StatusNotFound, "Page not found", "There is nothing at this address."
	case apperr.Unauthenticated:
		status, title, text = http.StatusUnauthorized, "Sign in to read this site", "This site is for signed-in visitors. Open it through the link your sign-in gives you."
	case apperr.Invalid:
		status, title, text = http.StatusBadRequest, "Bad request", apperr.Message(err)
	default:
		slog.ErrorContext(req.Context(), "reader failed", "path", req.URL.Path, "err", err)
	}
	h.errorPage(w, req, status, title, text)
}

func (h *Handler) errorPage(w http.ResponseWriter, req *http.Request, status int, title, text string) {
	headers(w, false)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = h.tmpl.ExecuteTemplate(w, "error.html", map[string]any{"Title": title, "Text": text, "Status": status,
		"Static": h.staticURLs(req)})
}

func (h *Handler) staticURLs(req *http.Request) map[string]string {
	base := "/sites/" + url.PathEscape(chi.URLParam(req, "name")) + "/~static/"
	return map[string]string{
		"CSS": base + "reader.css?v=" + h.static["reader.css"].hash,
		"JS":  base + "reader.js?v=" + h.static["reader.js"].hash,
		// The diagram library (mermaid's browser build, its licence beside it), for pages with a
		// diagram only.
		"Diagrams": base + "mermaid.min.js?v=" + h.static["mermaid.min.js"].hash,
		// The math library (KaTeX's browser build and its stylesheet, its fonts and licence
		// beside them), for pages with math only.
		"Math":    base + "katex.min.js?v=" + h.static["katex.min.js"].hash,
		"MathCSS": base + "katex.min.css?v=" + h.static["katex.min.css"].hash,
	}
}

func (h *Handler) serveStatic(w http.ResponseWriter, req *http.Request) {
	f, ok := h.static[chi.URLParam(req, "file")]
	if !ok {
		http.NotFound(w, req)
		return
	}
	w.Header().Set("Content-Type", f.contentType)
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(f.body)
}

// serveFile serves a file of a site space to a visitor who may read the site.
func (h *Handler) serveFile(w http.ResponseWriter, req *http.Request) {
	name, siteSpace, file := chi.URLParam(req, "name"), chi.URLParam(req, "siteSpace"), chi.URLParam(req, "file")
	if h.FilesOrigin != nil {
		d, err := h.app.FindPublishedFile(req.Context(), name, visitor(req), siteSpace, file)
		if err != nil {
			h.fileFailed(w, req, err)
			return
		}
		// The link is the visitor's proof of access: private to them, and cached for less than
		// it lives.
		w.Header().Set("Cache-Control", "private, max-age=300")
		http.Redirect(w, req, h.FilesOrigin.SignedFileURL(d.VersionID, d.Name, time.Now()), http.StatusFound)
		return
	}
	d, err := h.app.OpenPublishedFile(req.Context(), name, visitor(req), siteSpace, file)
	if err != nil {
		h.fileFailed(w, req, err)
		return
	}
	defer d.Content.Close()
	w.Header().Set("Cache-Control", "private, max-age=3600")
	usercontent.SetHeaders(w.Header(), d.Name, d.ContentType)
	http.ServeContent(w, req, d.Name, d.ModTime, d.Content)
	if err := d.Content.Err(); err != nil {
		slog.ErrorContext(req.Context(), "file download cut short by the file store", "path", req.URL.Path, "err", err)
	}
}

// serveFont serves a file of a custom font the site's customization names (docs/sites.md,
// "Custom fonts"), from the site's own origin, so that the pages' font-src 'self' allows it.
func (h *Handler) serveFont(w http.ResponseWriter, req *http.Request) {
	d, err := h.app.PublishedFontFile(req.Context(), chi.URLParam(req, "name"), visitor(req), chi.URLParam(req, "fontId"), chi.URLParam(req, "file"))
	if err != nil {
		h.fileFailed(w, req, err)
		return
	}
	defer d.Content.Close()
	w.Header().Set("Cache-Control", "private, max-age=3600")
	w.Header().Set("Content-Type", d.ContentType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, req, d.Name, d.ModTime, d.Content)
}

func (h *Handler) fileFailed(w http.ResponseWriter, req *http.Request, err error) {
	if apperr.KindOf(err) == apperr.Unauthenticated && h.signInElsewhere(w, req) {
		return
	}
	h.fail(w, req, err)
}

// requestPath is the site-relative path of a request.
func requestPath(req *http.Request) string {
	p := chi.URLParam(req, "*")
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	return strings.Trim(p, "/")
}
