package reader

import (
	"encoding/xml"
	"net/http"
	"strings"
	"time"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
)

// What machines read: each page's markdown, sitemap.xml, robots.txt and llms.txt. They show the
// same pages as the HTML, to the same visitor: a page hidden from a visitor is in none of them.

// serveMarkdown answers a page's URL with .md: its markdown, expressions evaluated.
func (h *Handler) serveMarkdown(w http.ResponseWriter, req *http.Request, path string) {
	ps, ok := h.openSite(w, req)
	if !ok {
		return
	}
	c, err := h.loadMarkdown(req.Context(), ps, path)
	if err != nil {
		h.fail(w, req, err)
		return
	}
	if c == nil {
		h.fail(w, req, apperr.NotFoundf("page not found"))
		return
	}
	headers(w, ps.Indexable)
	if notModified(w, req, etag(c.SiteSpace.Revision, c)) {
		return
	}
	w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
	md := c.Markdown
	if !strings.HasPrefix(strings.TrimSpace(md), "# ") {
		md = "# " + c.Page.Title + "\n\n" + md
	}
	_, _ = w.Write([]byte(md))
}

// index opens the site with every page its visitor may read, or answers why not.
func (h *Handler) index(w http.ResponseWriter, req *http.Request) (*domain.PublishedSite, []indexedSpace, bool) {
	ps, ok := h.openSite(w, req)
	if !ok {
		return nil, nil, false
	}
	spaces, err := h.loadIndex(req.Context(), ps)
	if err != nil {
		h.fail(w, req, err)
		return nil, nil, false
	}
	return ps, spaces, true
}

// serveRobots tells robots what they may crawl: nothing of a site that is not public (unlisted
// sites are never indexed), and not the pages marked noRobotsIndex.
func (h *Handler) serveRobots(w http.ResponseWriter, req *http.Request) {
	site, spaces, ok := h.index(w, req)
	if !ok {
		return
	}
	headers(w, site.Indexable)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	if !site.Indexable {
		b.WriteString("Disallow: /\n")
		_, _ = w.Write([]byte(b.String()))
		return
	}
	for _, ss := range spaces {
		for _, p := range ss.Pages {
			if p.NoRobotsIndex && p.Type != "link" {
				b.WriteString("Disallow: " + pathOf(p.URL) + "\n")
			}
		}
	}
	b.WriteString("Allow: /\n\nSitemap: " + site.URL + "sitemap.xml\n")
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
	site, spaces, ok := h.index(w, req)
	if !ok {
		return
	}
	type loc struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod,omitempty"`
	}
	set := struct {
		XMLName xml.Name `xml:"urlset"`
		NS      string   `xml:"xmlns,attr"`
		URLs    []loc    `xml:"url"`
	}{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	if site.Indexable {
		for _, ss := range spaces {
			for _, p := range ss.Pages {
				if p.Type == "document" && !p.NoIndex && !p.NoRobotsIndex {
					l := loc{Loc: p.URL}
					if p.UpdatedAt != nil {
						l.LastMod = p.UpdatedAt.UTC().Format(time.RFC3339)
					}
					set.URLs = append(set.URLs, l)
				}
			}
		}
	}
	headers(w, site.Indexable)
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	out, _ := xml.MarshalIndent(set, "", "  ")
	_, _ = w.Write(append([]byte(xml.Header), out...))
}

// serveLLMs is the llms.txt index of the site: each site space's pages, linking their markdown.
func (h *Handler) serveLLMs(w http.ResponseWriter, req *http.Request) {
	site, spaces, ok := h.index(w, req)
	if !ok {
		return
	}
	headers(w, site.Indexable)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	var b strings.Builder
	b.WriteString("# " + site.Title + "\n")
	for _, ss := range spaces {
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
