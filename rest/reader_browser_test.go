package rest_test

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// chromiumPath finds a Chromium to drive: BINDERY_CHROMIUM, or Debian's.
func chromiumPath() string {
	if p := os.Getenv("BINDERY_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestReaderBrowser reads a published site in headless Chromium: loads a page, follows the
// sidebar, switches variant and searches, and saves screenshots (into docs/img with -update,
// which docs/reader.md shows). One database is enough: what it checks is the UI.
func TestReaderBrowser(t *testing.T) {
	e := newEnv(t, storagetest.Open(t, storage.SQLite))
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	e.res.Settings.PublicURL = srv.URL // published URLs the browser can follow
	s := newReaderSite(e)
	_ = s

	ctx := headlessChromium(t, 1100, 720)

	shots := t.TempDir()
	if *update {
		shots = filepath.Join("..", "docs", "img")
	}
	shot := func(ctx context.Context, name string) {
		t.Helper()
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if len(png) > 200<<10 {
			t.Errorf("screenshot %s is %d KB: keep it under 200 KB", name, len(png)>>10)
		}
		if err := os.WriteFile(filepath.Join(shots, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}
	location := func() string {
		t.Helper()
		u, err := chromedp.Run(ctx, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	step := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	// A page: the document rendered, its tabs switched on by the script.
	step("load a page", chromedp.Navigate(srv.URL+"/sites/docs/"), chromedp.WaitVisible(chromedp.CSS(`main#content h1`)))
	if h1, tabs := text(`main#content h1`), text(`.tab-list`); !strings.Contains(h1, "Getting started") || !strings.Contains(tabs, "macOS") {
		t.Errorf("first page: h1 %q, tabs %q", h1, tabs)
	}
	shot(ctx, "reader-page.png")
	headingOrder(t, ctx, "the first page")
	codeLineSpacing(t, ctx)
	for _, theme := range []string{"light", "dark"} {
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}}}); err != nil {
			t.Fatal(err)
		}
		highlightContrast(t, ctx, theme)
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
		t.Fatal(err)
	}

	// Follow the sidebar.
	step("follow the sidebar", chromedp.Click(chromedp.CSS(`nav.sidebar a[href$="/advanced/configuration"]`)), chromedp.WaitVisible(chromedp.CSS(`nav.crumbs`)))
	if h1, u := text(`main#content h1`), location(); !strings.Contains(h1, "Configuration") || !strings.HasSuffix(u, "/sites/docs/advanced/configuration") {
		t.Errorf("after the sidebar: h1 %q at %s", h1, u)
	}
	headingOrder(t, ctx, "the configuration page") // its content opens with "##"

	// Switch variant.
	step("switch variant", chromedp.Click(chromedp.CSS(`details.variants summary`)), chromedp.Click(chromedp.CSS(`details.variants a[href$="/guide-v2/"]`)),
		chromedp.WaitVisible(chromedp.Search(`//h1[contains(., "Welcome to v2")]`)))
	if u := location(); !strings.HasSuffix(u, "/sites/docs/guide-v2/") {
		t.Errorf("variant at %s", u)
	}
	shot(ctx, "reader-variant.png")

	// Search.
	step("search", chromedp.SendKeys(chromedp.CSS(`#q`), "configuration"), chromedp.Submit(chromedp.CSS(`#q`)), chromedp.WaitVisible(chromedp.CSS(`ol.results`)))
	if results := text(`ol.results`); !strings.Contains(results, "Configuration") {
		t.Errorf("search results: %q", results)
	}
	shot(ctx, "reader-search.png")
}

// headingOrder checks the page's headings, in document order: an h1 first, and never a level
// more than one deeper than the heading before it.
func headingOrder(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	levels, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map(h => +h.tagName[1])`))
	if err != nil {
		t.Fatalf("%s: headings: %v", page, err)
	}
	if len(levels) < 2 || levels[0] != 1 {
		t.Fatalf("%s: headings %v, want an h1 first and more after it", page, levels)
	}
	for i := 1; i < len(levels); i++ {
		if levels[i] > levels[i-1]+1 {
			t.Errorf("%s: headings %v skip a level: h%d after h%d", page, levels, levels[i], levels[i-1])
		}
	}
}

// codeLineSpacing checks that the first code block's lines are single-spaced: its content is as
// tall as its lines at the block's line height.
func codeLineSpacing(t *testing.T, ctx context.Context) {
	t.Helper()
	ratio, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(() => {
		const pre = document.querySelector('pre.chroma');
		const lines = pre.querySelector('code').textContent.split('\n').length;
		const s = getComputedStyle(pre);
		const height = pre.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
		return height / (lines * parseFloat(s.lineHeight));
	})()`))
	if err != nil {
		t.Fatalf("code block: %v", err)
	}
	if ratio < 0.8 || ratio > 1.3 {
		t.Errorf("a code block is %.2f times as tall as its lines at its line height (1: single-spaced)", ratio)
	}
}

// highlightContrast puts a token of every highlighting class the style sheets define into a code
// block and checks its text against its background: WCAG AA, 4.5:1.
func highlightContrast(t *testing.T, ctx context.Context, theme string) {
	t.Helper()
	failures, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
		const classes = new Set();
		const walk = rules => { for (const r of rules) {
			if (r.cssRules) walk(r.cssRules);
			const m = r.selectorText && r.selectorText.match(/(?:^|\s)\.chroma \.([\w-]+)$/);
			if (m) classes.add(m[1]);
		} };
		for (const sheet of document.styleSheets) walk(sheet.cssRules);
		const code = document.querySelector('pre.chroma code');
		const rgb = c => c.match(/[\d.]+/g).map(Number);
		const lum = c => { const [r, g, b] = rgb(c).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
		const background = el => { for (; el; el = el.parentElement) { const bg = getComputedStyle(el).backgroundColor; if (rgb(bg).length < 4 || rgb(bg)[3] > 0) return bg; } return 'rgb(255, 255, 255)'; };
		const out = [];
		if (classes.size < 20) out.push('only ' + classes.size + ' highlighting classes found');
		for (const c of classes) {
			const span = document.createElement('span');
			span.className = c;
			span.textContent = 'x|';
			code.appendChild(span);
			const fg = getComputedStyle(span).color, bg = background(span);
			const [a, b] = [lum(fg), lum(bg)];
			const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
			if (ratio < 4.5) out.push('.' + c + ' ' + fg + ' on ' + bg + ': ' + ratio.toFixed(2));
			span.remove();
		}
		return out;
	})()`))
	if err != nil {
		t.Fatalf("%s theme: highlighting contrast: %v", theme, err)
	}
	for _, f := range failures {
		t.Errorf("%s theme: %s (want at least 4.5)", theme, f)
	}
}
