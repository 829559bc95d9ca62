package reader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/model"
)

// navItem is an entry of a navigation tree: section tabs and menus, or the sidebar.
type navItem struct {
	Title, URL     string
	Icon, Emoji    string
	Kind           string // section, group (section groups), document, group (page groups), link
	Current, Open  bool
	External       bool
	HasChildren    bool
	Children       []*navItem
	Description    string
	ID             string
	depth          int
	parentID, path string
}

// siteView is the site as the templates show it (its title drawn by its customization).
type siteView struct {
	ID, Title, URL string
	Indexable      bool
	Insights       bool // the site collects insights: the page carries the beacon's address
}

// view is what the layout template renders.
type view struct {
	Site        siteView
	Title       string
	Description string
	Canonical   string
	Robots      string
	OGImage     string
	Static      map[string]string
	Home        string
	SearchURL   string
	Query       string
	Tabs        []*navItem
	Variants    []*navItem
	Variant     *navItem
	Sidebar     []*navItem
	Crumbs      []*model.PublishedPageRef
	Page        *domain.PublishedPage
	Content     template.HTML
	Outline     []heading
	MarkdownURL string
	EditURL     string // the page's file in the synced repository ("" when none)
	Updated     string // "Last updated" date, e.g. November 28, 2026 ("" when unknown)
	UpdatedISO  string
	Results     any
	Searched    bool
	// Diagrams: the page loads the diagram library.
	Diagrams bool
	// Math: the page loads the math library and its stylesheet.
	Math bool
	// Style is the site's (or the site space's) customization.
	Style *style
}

// servePage renders the page a path of the site shows.
func (h *Handler) servePage(w http.ResponseWriter, req *http.Request) {
	if takeCredentials(w, req) {
		return
	}
	path := requestPath(req)
	if p, ok := strings.CutSuffix(path, ".md"); ok {
		h.serveMarkdown(w, req, p)
		return
	}
	ps, ok := h.openSite(w, req)
	if !ok {
		return
	}
	c, err := h.loadPage(req.Context(), ps, path)
	if err != nil {
		h.fail(w, req, err)
		return
	}
	if c.Page == nil {
		// A path that shows nothing: the site's redirect from it, if any, before 404.
		if to, err := h.app.PublishedRedirect(req.Context(), ps, path); err == nil && to != nil {
			headers(w, ps.Indexable)
			http.Redirect(w, req, *to, http.StatusMovedPermanently)
			return
		}
		h.notFoundPage(w, req, ps, path)
		return
	}
	headers(w, ps.Indexable)
	if notModified(w, req, etag(c.SiteSpace.Revision, c)) {
		return
	}
	p := c.Page
	v := h.chrome(req, ps, c.SiteStyle, c.SiteSpace.ID)
	v.withStyle(styleOf(json.RawMessage(c.SpaceStyle)))
	v.Page = p
	v.Title = p.Title + " | " + v.Site.Title
	v.Description = deref(p.Description)
	v.Canonical = p.URL
	v.MarkdownURL = p.URL + ".md"
	v.EditURL = domain.EditOnGitURL(p)
	if p.UpdatedAt != nil && p.Layout.Metadata {
		v.Updated, v.UpdatedISO = p.UpdatedAt.UTC().Format("January 2, 2006"), p.UpdatedAt.UTC().Format(time.RFC3339)
	}
	if !ps.Indexable || p.NoIndex {
		v.Robots = "noindex"
	}
	doc := render(json.RawMessage(c.Document), c.Links, c.Files)
	v.Content, v.Outline, v.Diagrams, v.Math = doc.HTML, doc.Outline, doc.Diagrams, doc.Math
	switch {
	case doc.Math:
		w.Header().Set("Content-Security-Policy", mathCSP)
	case doc.Diagrams:
		w.Header().Set("Content-Security-Policy", diagramCSP)
	}
	v.OGImage = coverURL(json.RawMessage(p.Cover), c.Files)
	v.Crumbs = p.Ancestors
	v.Sidebar = sidebarTree(c.Sidebar, p.ID, ps.URL)
	allowStyle(w, v.Style)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	h.render(w, req, "page.html", v)
}

func (h *Handler) render(w http.ResponseWriter, req *http.Request, name string, v any) {
	var b bytes.Buffer
	if err := h.tmpl.ExecuteTemplate(&b, name, v); err != nil {
		h.fail(w, req, fmt.Errorf("render %s: %w", name, err))
		return
	}
	_, _ = w.Write(b.Bytes())
}

// chrome fills what every page of the site shows, in the site's customization: section tabs and
// menus, the variant switcher of the current section.
func (h *Handler) chrome(req *http.Request, site *domain.PublishedSite, customization model.JSON, siteSpaceID string) *view {
	v := &view{Site: siteView{ID: site.ID, Title: site.Title, URL: site.URL, Indexable: site.Indexable, Insights: site.Insights}, Static: h.staticURLs(req),
		Home: site.URL, SearchURL: site.URL + "~search"}
	v.withStyle(styleOf(json.RawMessage(customization)))
	var current *domain.PublishedSiteSpace
	for _, ss := range site.SiteSpaces {
		if ss.ID == siteSpaceID {
			current = ss
		}
	}
	currentSection := ""
	if current != nil && current.Section != nil {
		currentSection = *current.Section
	}
	// Section tabs: a tree of sections and groups from the depth-first list.
	byID := map[string]*navItem{}
	for _, s := range site.Sections {
		it := &navItem{ID: s.ID, Title: s.Title, Kind: s.Kind, Icon: deref(s.Icon), URL: deref(s.URL), Description: deref(s.Description),
			Current: s.ID == currentSection}
		byID[s.ID] = it
		if s.Parent != nil && byID[*s.Parent] != nil {
			parent := byID[*s.Parent]
			parent.Children = append(parent.Children, it)
		} else {
			v.Tabs = append(v.Tabs, it)
		}
	}
	for _, it := range v.Tabs {
		markOpen(it)
	}
	// Variants: the site spaces of the current section.
	for _, ss := range site.SiteSpaces {
		if current != nil && deref(ss.Section) == deref(current.Section) {
			it := &navItem{ID: ss.ID, Title: ss.Title, Emoji: ss.Emoji, URL: ss.URL, Current: ss.ID == current.ID}
			v.Variants = append(v.Variants, it)
			if it.Current {
				v.Variant = it
			}
		}
	}
	if len(v.Variants) < 2 {
		v.Variants = nil
	}
	return v
}

// markOpen opens the groups holding the current section.
func markOpen(it *navItem) bool {
	for _, c := range it.Children {
		if markOpen(c) {
			it.Open = true
		}
	}
	return it.Current || it.Open
}

// sidebarTree nests the sidebar's depth-first list.
func sidebarTree(refs []*model.PublishedPageRef, currentID, siteURL string) []*navItem {
	var roots []*navItem
	var stack []*navItem
	for _, r := range refs {
		it := &navItem{ID: r.ID, Title: r.Title, URL: r.URL, Kind: string(r.Type), Emoji: deref(r.Emoji), Icon: deref(r.Icon),
			HasChildren: r.HasChildren, Current: r.ID == currentID, depth: r.Depth}
		if r.Type == "link" {
			it.External = !strings.HasPrefix(r.URL, siteURL)
		}
		for len(stack) > 0 && stack[len(stack)-1].depth >= r.Depth {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, it)
		} else {
			parent := stack[len(stack)-1]
			parent.Children = append(parent.Children, it)
			parent.Open = true
		}
		stack = append(stack, it)
	}
	return roots
}

// coverURL is the page cover's image URL, when it is a file of the space or an http(s) URL.
func coverURL(cover json.RawMessage, files []*model.PublishedFile) string {
	var c struct {
		Ref struct{ Kind, File, URL string } `json:"ref"`
	}
	if len(cover) == 0 || json.Unmarshal(cover, &c) != nil {
		return ""
	}
	if c.Ref.Kind == "file" {
		for _, f := range files {
			if f.ID == c.Ref.File {
				return f.URL
			}
		}
	}
	if c.Ref.Kind == "url" {
		return safeURL(c.Ref.URL)
	}
	return ""
}

// serveSearch lists the pages of the site that match a query, among those the visitor may read.
func (h *Handler) serveSearch(w http.ResponseWriter, req *http.Request) {
	if takeCredentials(w, req) {
		return
	}
	q := strings.TrimSpace(req.URL.Query().Get("q"))
	if q == "" {
		http.Redirect(w, req, "/sites/"+chi.URLParam(req, "name")+"/", http.StatusFound)
		return
	}
	ps, ok := h.openSite(w, req)
	if !ok {
		return
	}
	customization, err := h.app.PublishedCustomization(req.Context(), ps)
	if err != nil {
		h.fail(w, req, err)
		return
	}
	first := searchResults
	asYouType := req.URL.Query().Get("format") == "json"
	if asYouType {
		first = suggestResults
	}
	results, err := h.app.PublishedSearch(req.Context(), ps, q, &first)
	if err != nil {
		h.fail(w, req, err)
		return
	}
	if asYouType {
		serveSuggestions(w, results)
		return
	}
	headers(w, false) // results are for this visitor and query: never indexed, never shared
	v := h.chrome(req, ps, customization, "")
	v.Title = "Search: " + q + " | " + v.Site.Title
	v.Query, v.Results, v.Searched, v.Robots = q, results, true, "noindex"
	allowStyle(w, v.Style)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	h.render(w, req, "search.html", v)
}

// suggestResults is how many pages search as you type shows under the search box.
const suggestResults = 8

// serveSuggestions answers the search box's script as the visitor types (?format=json): the
// pages found, their titles, where they are and their URLs. The page of results stays the
// answer without the script.
func serveSuggestions(w http.ResponseWriter, results []*model.PublishedSearchResult) {
	type suggestion struct {
		Title string `json:"title"`
		Where string `json:"where"`
		URL   string `json:"url"`
	}
	out := struct {
		Results []suggestion `json:"results"`
	}{Results: []suggestion{}}
	for _, r := range results {
		out.Results = append(out.Results, suggestion{Title: r.Title, URL: r.URL, Where: strings.Join(append([]string{r.SiteSpace}, r.Ancestors...), " › ")})
	}
	headers(w, false)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

var funcs = template.FuncMap{
	"icon":  iconSVG,
	"emoji": emojiText,
	"deref": deref,
	"inc":   func(i int) int { return i + 1 },
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

var codePoints = regexp.MustCompile(`^[0-9a-fA-F]{4,6}(-[0-9a-fA-F]{4,6})*$`)

// emojiText shows an emoji given as code points ("1f680", GitBook's form) or as itself.
func emojiText(s string) string {
	if !codePoints.MatchString(s) {
		return s
	}
	var b strings.Builder
	for _, part := range strings.Split(s, "-") {
		if n, err := strconv.ParseUint(part, 16, 32); err == nil {
			b.WriteRune(rune(n))
		}
	}
	return b.String()
}

// withStyle draws the view with a customization: its title replaces the site's.
func (v *view) withStyle(s *style) {
	v.Style = s
	if s.Title != "" {
		v.Site.Title = s.Title
	}
}
