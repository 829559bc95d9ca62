package rest_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// TestReaderExtrasBrowser drives the reader's script in headless Chromium: Ctrl-K puts the cursor
// in the search box, code blocks get a copy button that copies, and on a phone-sized window the
// page list folds behind the menu button.
func TestReaderExtrasBrowser(t *testing.T) {
	e := newEnv(t, storagetest.Open(t, storage.SQLite))
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	e.res.Settings.PublicURL = srv.URL
	s := newReaderSite(e)

	ctx := headlessChromium(t, 1100, 720)
	eval := func(what, js string) bool {
		t.Helper()
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return ok
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/sites/docs/"), chromedp.WaitVisible(chromedp.CSS(`main#content h1`))); err != nil {
		t.Fatal(err)
	}
	// Ctrl-K from the page's body focuses the search box.
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`main#content`)),
		chromedp.KeyEvent("k", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	if !eval("Ctrl-K", `document.activeElement === document.getElementById("q")`) {
		t.Error("Ctrl-K did not focus the search box")
	}
	// Every code block has a copy button; clicking one copies its code.
	if !eval("copy buttons", `[...document.querySelectorAll("pre > code")].every(c => c.closest(".code-wrap") && c.closest(".code-wrap").querySelector("button.copy-code"))`) {
		t.Error("a code block has no copy button")
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button.copy-code`)),
		chromedp.WaitVisible(chromedp.Search(`//button[contains(@class, "copy-code") and (text()="Copied" or text()="Copy failed")]`))); err != nil {
		t.Fatalf("copy: %v", err)
	}
	// The page views the browser's beacon sent are counted in the site's insights (the first page
	// once, before the copy click; polled: the beacon is asynchronous).
	views := 0.0
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var res struct{ Columns []struct{ Values []any } }
		e.call(s.admin.Token, "POST", "/orgs/"+s.org+"/sites/"+s.site+"/insights/events/aggregate", map[string]any{"range": "last24Hours",
			"select": []any{map[string]any{"column": "eventsCount"}}, "where": []any{map[string]any{"column": "eventType", "values": []string{"page_view"}}}}).
			want(200).decode(&res)
		if views, _ = res.Columns[0].Values[0].(float64); views >= 1 {
			break
		}
	}
	if views != 1 {
		t.Errorf("page views counted from the browser: %v, want 1", views)
	}
	// A phone: the page list is folded until the menu button opens it.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 800), chromedp.Navigate(srv.URL+"/sites/docs/"), chromedp.WaitVisible(chromedp.CSS(`button.menu-toggle`))); err != nil {
		t.Fatal(err)
	}
	if !eval("folded", `getComputedStyle(document.getElementById("sidebar")).display === "none"`) {
		t.Error("on a phone the page list is not folded")
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button.menu-toggle`)), chromedp.WaitVisible(chromedp.CSS(`#sidebar`))); err != nil {
		t.Fatal(err)
	}
	if !eval("open", `document.querySelector("button.menu-toggle").getAttribute("aria-expanded") === "true"`) {
		t.Error("the menu button does not say the list is open")
	}
}
