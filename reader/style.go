package reader

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strings"

	"github.com/bindery/bindery/domain/sitestyle"
)

// A site's customization (the contract's SiteCustomizationSettings, docs/sites.md) as the reader
// draws it: the title, logo and favicon, header links and buttons, footer, announcement banner,
// colors (kept readable: sitestyle.Readable), the default light or dark mode, feedback and page
// actions. Colors go in a small <style> element that the page's content security policy allows
// by its hash, so that no other inline style can run.

// customization is the part of SiteCustomizationSettings the reader draws.
type customization struct {
	Title   *string `json:"title"`
	Styling struct {
		PrimaryColor themedColor                  `json:"primaryColor"`
		InfoColor    themedColor                  `json:"infoColor"`
		SuccessColor themedColor                  `json:"successColor"`
		WarningColor themedColor                  `json:"warningColor"`
		DangerColor  themedColor                  `json:"dangerColor"`
		Tint         *struct{ Color themedColor } `json:"tint"`
		Corners      string                       `json:"corners"`
		Font         any                          `json:"font"`
		Monospace    any                          `json:"monospaceFont"`
	} `json:"styling"`
	Favicon struct {
		Icon  *themedURL `json:"icon"`
		Emoji *string    `json:"emoji"`
	} `json:"favicon"`
	Header struct {
		Logo  *themedURL `json:"logo"`
		Links []struct {
			Title string          `json:"title"`
			Style *string         `json:"style"`
			To    *contentLinkRef `json:"to"`
			Links []contentLink   `json:"links"`
		} `json:"links"`
	} `json:"header"`
	Footer struct {
		Logo   *themedURL `json:"logo"`
		Groups []struct {
			Title string        `json:"title"`
			Links []contentLink `json:"links"`
		} `json:"groups"`
		Copyright *string `json:"copyright"`
	} `json:"footer"`
	Announcement *struct {
		Enabled bool         `json:"enabled"`
		Message string       `json:"message"`
		Style   string       `json:"style"`
		Link    *contentLink `json:"link"`
	} `json:"announcement"`
	Themes struct {
		Default   string `json:"default"`
		Toggeable bool   `json:"toggeable"`
	} `json:"themes"`
	Feedback struct {
		Enabled bool `json:"enabled"`
	} `json:"feedback"`
	PageActions struct {
		Markdown bool `json:"markdown"`
	} `json:"pageActions"`
	Pagination struct {
		Enabled bool `json:"enabled"`
	} `json:"pagination"`
	ExternalLinks struct {
		Target string `json:"target"`
	} `json:"externalLinks"`
}

type themedColor struct{ Light, Dark string }
type themedURL struct{ Light, Dark string }

type contentLinkRef struct {
	Kind string `json:"kind"`
	URL  string `json:"url"`
}

type contentLink struct {
	Title string         `json:"title"`
	To    contentLinkRef `json:"to"`
}

// link is a header, footer or banner link as the templates draw it.
type link struct {
	Title, URL, Style string
	Links             []link
}

// style is what the templates draw of a customization.
type style struct {
	Title          string // "" keeps the site's
	Logo, LogoDark string
	Favicon        string
	FaviconEmoji   string
	HeaderLinks    []link
	FooterLogo     string
	FooterGroups   []struct {
		Title string
		Links []link
	}
	Copyright      string
	Announcement   *link  // Title is the message, Style info|warning|danger|success
	Theme          string // light or dark
	Toggle         bool
	Feedback       bool
	MarkdownAction bool
	Pagination     bool
	ExternalBlank  bool
	CSS            template.CSS
	cssHash        string
	fonts          bool // the CSS loads custom fonts (font-src 'self')
}

// urlOf is where a content link leads: external URLs only (links to pages of a space need the
// space's tree, which the customization's page does not carry; they are left out).
func urlOf(r contentLinkRef) string {
	if r.Kind == "url" && (strings.HasPrefix(r.URL, "https://") || strings.HasPrefix(r.URL, "http://") || strings.HasPrefix(r.URL, "/")) {
		return r.URL
	}
	return ""
}

// styleOf reads a customization document (a site's, or a site space's merged over it); a
// missing or unreadable one draws the defaults.
func styleOf(raw json.RawMessage) *style {
	var c customization
	if len(raw) == 0 || json.Unmarshal(raw, &c) != nil {
		c = customization{}
		b, _ := json.Marshal(sitestyle.Defaults())
		_ = json.Unmarshal(b, &c)
	}
	// No default theme (a site that never chose one): each visitor's system decides, and they may
	// switch.
	s := &style{Theme: c.Themes.Default, Toggle: c.Themes.Toggeable || c.Themes.Default == "", Feedback: c.Feedback.Enabled, MarkdownAction: c.PageActions.Markdown,
		Pagination: c.Pagination.Enabled, ExternalBlank: c.ExternalLinks.Target == "blank"}
	if c.Title != nil {
		s.Title = *c.Title
	}
	if c.Header.Logo != nil {
		s.Logo, s.LogoDark = c.Header.Logo.Light, c.Header.Logo.Dark
	}
	if c.Favicon.Icon != nil {
		s.Favicon = c.Favicon.Icon.Light
	}
	if c.Favicon.Emoji != nil {
		s.FaviconEmoji = *c.Favicon.Emoji
	}
	for _, h := range c.Header.Links {
		l := link{Title: h.Title, Style: "link"}
		if h.Style != nil {
			l.Style = *h.Style
		}
		if h.To != nil {
			l.URL = urlOf(*h.To)
		}
		for _, sub := range h.Links {
			if u := urlOf(sub.To); u != "" {
				l.Links = append(l.Links, link{Title: sub.Title, URL: u})
			}
		}
		if l.URL != "" || len(l.Links) > 0 {
			s.HeaderLinks = append(s.HeaderLinks, l)
		}
	}
	if c.Footer.Logo != nil {
		s.FooterLogo = c.Footer.Logo.Light
	}
	for _, g := range c.Footer.Groups {
		group := struct {
			Title string
			Links []link
		}{Title: g.Title}
		for _, l := range g.Links {
			if u := urlOf(l.To); u != "" {
				group.Links = append(group.Links, link{Title: l.Title, URL: u})
			}
		}
		s.FooterGroups = append(s.FooterGroups, group)
	}
	if c.Footer.Copyright != nil {
		s.Copyright = *c.Footer.Copyright
	}
	if a := c.Announcement; a != nil && a.Enabled && a.Message != "" {
		s.Announcement = &link{Title: a.Message, Style: a.Style}
		if a.Link != nil {
			s.Announcement.URL = urlOf(a.Link.To)
		}
	}
	fonts := fontCSS(c.Styling.Font, "html") + fontCSS(c.Styling.Monospace, "code,pre,kbd")
	s.fonts = fonts != ""
	s.CSS = template.CSS(colorsCSS(&c) + fonts)
	sum := sha256.Sum256([]byte(s.CSS))
	s.cssHash = "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	return s
}

// The reader's own backgrounds (reader.css), which text colors must read on.
var (
	lightBG, _ = sitestyle.ParseColor("#ffffff")
	darkBG, _  = sitestyle.ParseColor("#0d1117")
)

// colorsCSS sets the reader's color variables from the customization, each made readable on the
// background of its mode, and the text drawn on filled primary elements.
func colorsCSS(c *customization) string {
	var light, dark []string
	set := func(name string, tc themedColor) {
		if l, ok := sitestyle.ParseColor(tc.Light); ok {
			light = append(light, fmt.Sprintf("--%s:%s", name, sitestyle.Readable(l, lightBG).Hex()))
		}
		if d, ok := sitestyle.ParseColor(tc.Dark); ok {
			dark = append(dark, fmt.Sprintf("--%s:%s", name, sitestyle.Readable(d, darkBG).Hex()))
		}
	}
	set("accent", c.Styling.PrimaryColor)
	set("focus", c.Styling.PrimaryColor)
	set("info", c.Styling.InfoColor)
	set("success", c.Styling.SuccessColor)
	set("warning", c.Styling.WarningColor)
	set("danger", c.Styling.DangerColor)
	if p, ok := sitestyle.ParseColor(c.Styling.PrimaryColor.Light); ok {
		light = append(light, "--primary-fill:"+p.Hex(), "--on-primary:"+sitestyle.OnColor(p).Hex())
	}
	if p, ok := sitestyle.ParseColor(c.Styling.PrimaryColor.Dark); ok {
		dark = append(dark, "--primary-fill:"+p.Hex(), "--on-primary:"+sitestyle.OnColor(p).Hex())
	}
	if c.Styling.Tint != nil {
		if t, ok := sitestyle.ParseColor(c.Styling.Tint.Color.Light); ok {
			light = append(light, "--tint:"+t.Hex())
		}
		if t, ok := sitestyle.ParseColor(c.Styling.Tint.Color.Dark); ok {
			dark = append(dark, "--tint:"+t.Hex())
		}
	}
	radius := map[string]string{"straight": "0", "rounded": "6px", "circular": "999px"}[c.Styling.Corners]
	if radius != "" {
		light = append(light, "--radius:"+radius)
	}
	l, d := strings.Join(light, ";"), strings.Join(dark, ";")
	// Light unless the page is dark: by the site's default or the visitor's choice, or by the
	// visitor's system when they chose to follow it (no data-theme).
	return ":root{" + l + "}@media (prefers-color-scheme: dark){:root:not([data-theme=light]){" + d + "}}:root[data-theme=dark]{" + d + "}"
}

// allowStyle adds the page's style element to its content security policy, by hash.
func allowStyle(w http.ResponseWriter, s *style) {
	csp := w.Header().Get("Content-Security-Policy")
	if csp == "" || s == nil {
		return
	}
	var out []string
	for _, d := range strings.Split(csp, "; ") {
		if rest, ok := strings.CutPrefix(d, "style-src "); ok && !strings.Contains(rest, "'unsafe-inline'") {
			d = "style-src " + rest + " " + s.cssHash
		}
		out = append(out, d)
	}
	if s.fonts && !strings.Contains(csp, "font-src ") {
		out = append(out, "font-src 'self'")
	}
	w.Header().Set("Content-Security-Policy", strings.Join(out, "; "))
}

// fontCSS draws a custom font a customization names (the application resolved it to the
// organization's font, its files under the site's own URL, domain.resolveFonts): an @font-face
// rule per weight, and the family for the elements of selector, before the reader's own fonts.
// Anything else (a font GitBook provides by name, a font no longer there) draws the reader's.
func fontCSS(setting any, selector string) string {
	def, _ := setting.(map[string]any)
	family, _ := def["fontFamily"].(string)
	faces, _ := def["fontFaces"].([]any)
	if custom, _ := def["custom"].(bool); !custom || family == "" || strings.ContainsAny(family, `"'\;{}<>`) {
		return ""
	}
	var b strings.Builder
	for _, f := range faces {
		face, _ := f.(map[string]any)
		weight, _ := face["weight"].(float64)
		sources, _ := face["sources"].([]any)
		var srcs []string
		for _, s := range sources {
			src, _ := s.(map[string]any)
			u, _ := src["url"].(string)
			format, _ := src["cssFormat"].(string)
			if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") || strings.ContainsAny(u, "\"'()<> \n") {
				continue
			}
			css := `url("` + u + `")`
			if format != "" {
				css += ` format("` + format + `")`
			}
			srcs = append(srcs, css)
		}
		if len(srcs) == 0 || weight < 1 || weight > 1000 {
			continue
		}
		fmt.Fprintf(&b, `@font-face{font-family:"%s";font-weight:%d;font-display:swap;src:%s}`, family, int(weight), strings.Join(srcs, ","))
	}
	if b.Len() == 0 {
		return ""
	}
	fallback := "system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif"
	if selector != "html" {
		fallback = "ui-monospace,SFMono-Regular,Menlo,Consolas,monospace"
	}
	fmt.Fprintf(&b, `%s{font-family:"%s",%s}`, selector, family, fallback)
	return b.String()
}
