package reader

import (
	"encoding/xml"
	"net/http"
	"strings"
)

// What machines read: each page's markdown, sitemap.xml, robots.txt and llms.txt. They show the
// same pages as the HTML, to the same visitor: a page hidden from a visitor is in none of them.

// serveMarkdown answers a page's URL with .md: its markdown, expressions evaluated.
func (h *Handler) serveMarkdown(w http.ResponseWriter, req *http.Request, path string) {
	var res markdownResult
	data, err := h.run(req.Context(), markdownQuery, vars(req, map[string]any{"path": path}), &res)
	if err != nil {
		h.fail(w, req, err)
		return
	}
	at := res.Site.At
	if at == nil || at.Page == nil || at.Page.Markdown == nil {
		h.fail(w, req, &queryError{Code: "NOT_FOUND", Message: "page not found"})
		return
	}
	headers(w, res.Site.Indexable)
	if notModified(w, req, etag(at.SiteSpace.Revision, data)) {
		return
	}
	w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
	md := *at.Page.Markdown
	if !strings.HasPrefix(strings.TrimSpace(md), "# ") {
		md = "# " + at.Page.Title + "\n\n" + md
	}
	_, _ = w.Write([]byte(md))
}

func (h *Handler) index(w http.ResponseWriter, req *http.Request) (*indexResult, bool) {
	var res indexResult
	if _, err := h.run(req.Context(), indexQuery, vars(req, nil), &res); err != nil {
		h.fail(w, req, err)
		return nil, false
	}
	return &res, true
}

// serveRobots tells robots what they may crawl: nothing of a site that is not public (unlisted
// sites are never indexed), and not the pages marked noRobotsIndex.
func (h *Handler) serveRobots(w http.ResponseWriter, req *http.Request) {
	res, ok := h.index(w, req)
	if !ok {
		return
	}
	headers(w, res.Site.Indexable)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	if !res.Site.Indexable {
		b.WriteString("Disallow: /\n")
		_, _ = w.Write([]byte(b.String()))
		return
	}
	for _, ss := range res.Site.SiteSpaces {
		for _, p := range ss.Pages {
			if p.NoRobots && p.Type != "link" {
				b.WriteString("Disallow: " + pathOf(p.URL) + "\n")
			}
		}
	}
	b.WriteString("Allow: /\n\nSitemap: " + res.Site.URL + "sitemap.xml\n")
	_, _ = w.Write([]byte(b.String()))
}

// pathOf is the path part of an absolute URL.
func pathOf(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
			return u[i+3+j:]
		}
	}
	return u
}

// serveSitemap lists the pages search engines may index: none on a site that is not public.
func (h *Handler) serveSitemap(w http.ResponseWriter, req *http.Request) {
	res, ok := h.index(w, req)
	if !ok {
		return
	}
	type loc struct {
		Loc string `xml:"loc"`
	}
	set := struct {
		XMLName xml.Name `xml:"urlset"`
		NS      string   `xml:"xmlns,attr"`
		URLs    []loc    `xml:"url"`
	}{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	if res.Site.Indexable {
		for _, ss := range res.Site.SiteSpaces {
			for _, p := range ss.Pages {
				if p.Type == "document" && !p.NoIndex && !p.NoRobots {
					set.URLs = append(set.URLs, loc{Loc: p.URL})
				}
			}
		}
	}
	headers(w, res.Site.Indexable)
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	out, _ := xml.MarshalIndent(set, "", "  ")
	_, _ = w.Write(append([]byte(xml.Header), out...))
}

// serveLLMs is the llms.txt index of the site: each site space's pages, linking their markdown.
func (h *Handler) serveLLMs(w http.ResponseWriter, req *http.Request) {
	res, ok := h.index(w, req)
	if !ok {
		return
	}
	headers(w, res.Site.Indexable)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	var b strings.Builder
	b.WriteString("# " + res.Site.Title + "\n")
	for _, ss := range res.Site.SiteSpaces {
		b.WriteString("\n## " + ss.Title + "\n\n")
		for _, p := range ss.Pages {
			if p.Type != "document" {
				continue
			}
			b.WriteString(strings.Repeat("  ", p.Depth) + "- [" + mdEscape(p.Title) + "](" + p.URL + ".md)")
			if d := deref(p.Description); d != "" {
				b.WriteString(": " + strings.Join(strings.Fields(d), " "))
			}
			b.WriteString("\n")
		}
	}
	_, _ = w.Write([]byte(b.String()))
}

func mdEscape(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`).Replace(s)
}
