package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// headlessChromium starts Chromium for a test (skipped without it, except under CI) and returns
// a browser context that ends with the test.
func headlessChromium(t *testing.T, width, height int) context.Context {
	t.Helper()
	browser := chromiumPath()
	if browser == "" {
		if storagetest.CI() {
			t.Fatal("Chromium is not installed (.ci/run installs it): the browser test cannot run")
		}
		t.Skip("Chromium is not installed (apt-get install -y chromium, or set BINDERY_CHROMIUM): skipping the browser test")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 120*time.Second)
	t.Cleanup(cancelTimeout)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// The app shows what others change without a reload: a change request renamed and merged through
// the API while it is open, and a page added to the space while the space is open. Nothing is
// reloaded (a value set on the page survives), and the app's subscriptions run as its persisted
// documents over the session's websocket.
func TestAppShowsChangesLive(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, st *storage.Store) {
		e := newEnv(t, st)
		srv := httptest.NewUnstartedServer(nil)
		srv.Start()
		defer srv.Close()
		e.res.Settings.PublicURL, e.res.Settings.AppURL = srv.URL, srv.URL
		e.res.Now = time.Now
		signIn := e.withSessions()
		srv.Config.Handler = e.h

		orgID, writer := e.org("Live Acme", "writer@live-acme.test")
		signIn(writer)
		space := e.call(writer.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Live handbook"}`).want(http.StatusCreated).object()["id"].(string)
		e.createPage(writer.Token, target(space, ""), map[string]any{"title": "Welcome", "markdown": "Hello."})
		cr := e.call(writer.Token, "POST", "/spaces/"+space+"/change-requests", `{"subject":"Draft"}`).want(http.StatusCreated).object()
		crID, number := cr["id"].(string), int(cr["number"].(float64))

		ctx := headlessChromium(t, 1100, 800)
		step := func(what string, steps ...chromedp.Action[chromedp.Void]) {
			t.Helper()
			stepCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			if err := chromedp.Do(stepCtx, steps...); err != nil {
				body, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
				t.Fatalf("%s: %v (showing %q)", what, err, body)
			}
		}
		marked := func(what string) {
			t.Helper()
			if still, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__notReloaded === true`)); err != nil || !still {
				t.Fatalf("%s: the page was reloaded (%v)", what, err)
			}
		}
		step("sign in", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`input[name=email]`)),
			chromedp.SendKeys(chromedp.CSS(`input[name=email]`), writer.Email), chromedp.SendKeys(chromedp.CSS(`input[name=password]`), appPassword),
			chromedp.Click(chromedp.CSS(`button[type=submit]`)), chromedp.WaitVisible(chromedp.Search(`//h1[contains(., "Live Acme")]`)))

		// The change request, open in the app, is renamed and then merged by someone else.
		step("open the change request", chromedp.Navigate(srv.URL+"/s/"+space+"/~/changes/"+fmt.Sprint(number)+"/"),
			chromedp.WaitVisible(chromedp.Search(`//h1[contains(., "Draft")]`)))
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(window.__notReloaded = true)`)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond) // the subscription starts
		e.call(writer.Token, "PATCH", "/spaces/"+space+"/change-requests/"+crID, `{"subject":"Renamed elsewhere"}`).want(http.StatusOK)
		step("see the new subject", chromedp.WaitVisible(chromedp.Search(`//h1[contains(., "Renamed elsewhere")]`)))
		marked("after the rename")
		e.call(writer.Token, "POST", "/spaces/"+space+"/change-requests/"+crID+"/merge", nil).want(http.StatusOK)
		step("see it merged", chromedp.WaitVisible(chromedp.Search(`//span[contains(@class, "badge") and contains(., "Merged")]`)))
		marked("after the merge")

		// The space, open in the app, gets a new page.
		step("open the space", chromedp.Navigate(srv.URL+"/s/"+space+"/welcome"), chromedp.WaitVisible(chromedp.Search(`//article/h1[contains(., "Welcome")]`)))
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(window.__notReloaded = true)`)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		e.createPage(writer.Token, target(space, ""), map[string]any{"title": "Added elsewhere", "markdown": "New."})
		step("see the new page in the tree", chromedp.WaitVisible(chromedp.Search(`//nav[contains(@class, "tree")]//a[contains(., "Added elsewhere")]`)))
		marked("after the new page")
		if got, _ := chromedp.Run(ctx, chromedp.Location()); !strings.HasSuffix(got, "/s/"+space+"/welcome") {
			t.Errorf("the app moved to %s", got)
		}
	})
}
