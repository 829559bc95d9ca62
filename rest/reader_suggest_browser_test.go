package rest_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// TestReaderSearchAsYouTypeBrowser drives the search box in headless Chromium: typing lists the
// pages found, the arrow keys choose one and Enter opens it.
func TestReaderSearchAsYouTypeBrowser(t *testing.T) {
	e := newEnv(t, storagetest.Open(t, storage.SQLite))
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	e.res.Settings.PublicURL = srv.URL
	newReaderSite(e)

	ctx := headlessChromium(t, 1100, 720)

	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/sites/docs/"), chromedp.WaitVisible(chromedp.CSS(`main#content h1`)),
		chromedp.SendKeys(chromedp.CSS(`#q`), "tune"),
		chromedp.WaitVisible(chromedp.CSS(`#search-suggest li[role=option]`))); err != nil {
		t.Fatal(err)
	}
	str := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	if got := str(`q.getAttribute("aria-expanded") + " " + [...document.querySelectorAll("#search-suggest li[role=option] a")].map(a => a.firstChild.textContent).join(",")`); !strings.HasPrefix(got, "true Configuration") {
		t.Fatalf("suggestions = %q", got)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowDown)); err != nil {
		t.Fatal(err)
	}
	if active := str(`q.getAttribute("aria-activedescendant") || ""`); active != "search-suggest-0" {
		t.Errorf("after ArrowDown the active option is %q", active)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	where := ""
	for deadline := time.Now().Add(5 * time.Second); !strings.HasSuffix(where, "/advanced/configuration") && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		where, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
	}
	if !strings.HasSuffix(where, "/advanced/configuration") {
		t.Errorf("Enter opened %q, want the configuration page", where)
	}
}

// TestReaderCustomFontBrowser checks in headless Chromium that a site drawing a custom font
// loads it from the site's own origin, under the page's content security policy.
func TestReaderCustomFontBrowser(t *testing.T) {
	e := newEnv(t, storagetest.Open(t, storage.SQLite))
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	e.res.Settings.PublicURL = srv.URL
	p := newPublishingSite(e, "typeset")
	woff2, err := os.ReadFile("../reader/static/KaTeX_Main-Regular.woff2") // a real WOFF2 font
	if err != nil {
		t.Fatal(err)
	}
	key, status := e.uploadFont(p.o.admin.Token, p.o.id, woff2, len(woff2))
	if status != http.StatusOK {
		t.Fatalf("upload: %d", status)
	}
	font := e.call(p.o.admin.Token, "PUT", "/orgs/"+p.o.id+"/fonts", map[string]any{"fontFamily": "Brand Serif", "fontFaces": []any{map[string]any{"weight": 400, "storageKey": key}}}).want(http.StatusCreated).object()
	e.call(p.o.admin.Token, "PUT", p.path+"/customization", map[string]any{"styling": map[string]any{"font": map[string]any{
		"id": font["id"], "custom": true, "fontFamily": "Brand Serif", "fontFaces": font["fontFaces"]}}}).want(http.StatusOK)

	ctx := headlessChromium(t, 1100, 800)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/sites/typeset/installation"), chromedp.WaitVisible(chromedp.CSS(`main#content h1`))); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.fonts.load('16px "Brand Serif"').then(fs => fs.length + " " + getComputedStyle(document.body).fontFamily)`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, `1 "Brand Serif"`) {
		t.Errorf("font loaded and body family = %q, want 1 face of \"Brand Serif\"", got)
	}
}
