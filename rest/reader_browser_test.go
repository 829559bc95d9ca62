package rest_test

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	browser := chromiumPath()
	if browser == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("Chromium is not installed (.ci/run installs it): the browser test cannot run")
		}
		t.Skip("Chromium is not installed (apt-get install -y chromium, or set BINDERY_CHROMIUM): skipping the browser test")
	}
	e := newEnv(t, storagetest.Open(t, storage.SQLite))
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	e.res.Settings.PublicURL = srv.URL // published URLs the browser can follow
	s := newReaderSite(e)
	_ = s

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 720),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	defer cancelTimeout()

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

	// Follow the sidebar.
	step("follow the sidebar", chromedp.Click(chromedp.CSS(`nav.sidebar a[href$="/advanced/configuration"]`)), chromedp.WaitVisible(chromedp.CSS(`nav.crumbs`)))
	if h1, u := text(`main#content h1`), location(); !strings.Contains(h1, "Configuration") || !strings.HasSuffix(u, "/sites/docs/advanced/configuration") {
		t.Errorf("after the sidebar: h1 %q at %s", h1, u)
	}

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
