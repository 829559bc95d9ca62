package rest_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// TestAppBrowser is a writer's first session in the web app, in headless Chromium, on both
// databases: sign in with a password, open a space, edit a page in a change request (text, a
// heading, a list), merge it, and find the new content on the published site. axe-core checks
// every screen on the way for serious or critical accessibility violations.
func TestAppBrowser(t *testing.T) {
	axe, err := os.ReadFile("testdata/axe.min.js")
	if err != nil {
		t.Fatal(err)
	}
	storagetest.Each(t, func(t *testing.T, st *storage.Store) {
		e := newEnv(t, st)
		srv := httptest.NewUnstartedServer(nil)
		srv.Start()
		defer srv.Close()
		e.res.Settings.PublicURL, e.res.Settings.AppURL = srv.URL, srv.URL
		e.res.Now = time.Now // the browser drops a cookie that expired by its own clock
		signIn := e.withSessions()
		srv.Config.Handler = e.h

		orgID, writer := e.org("Acme", "writer@acme.test")
		signIn(writer) // sets the password the browser types
		space := e.call(writer.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Handbook"}`).want(http.StatusCreated).object()["id"].(string)
		to := target(space, "")
		e.createPage(writer.Token, to, map[string]any{"title": "Welcome", "markdown": "Hello from the **handbook**.\n\n- [x] a task\n\n```go\nx := 1\n```\n\nThat is all.\n"})
		group := e.createPage(writer.Token, to, map[string]any{"type": "GROUP", "title": "Guides"})
		e.createPage(writer.Token, to, map[string]any{"title": "Setup", "parent": group, "markdown": "Install it."})
		site := e.call(writer.Token, "POST", "/orgs/"+orgID+"/sites", `{"title":"Acme Docs"}`).want(http.StatusCreated).object()["id"].(string)
		e.call(writer.Token, "PATCH", "/orgs/"+orgID+"/sites/"+site, `{"basename":"docs"}`).want(http.StatusOK)
		e.call(writer.Token, "POST", "/orgs/"+orgID+"/sites/"+site+"/sections", `{"spaceId":"`+space+`"}`).want(http.StatusCreated)

		ctx := headlessChromium(t, 1100, 800)
		// Anything the Content-Security-Policy blocks (an inline script or style) is a failure.
		if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.__blocked = []; document.addEventListener('securitypolicyviolation', e => window.__blocked.push(e.violatedDirective + ' ' + (e.blockedURI || e.sample)))`}); err != nil {
			t.Fatal(err)
		}
		shots := t.TempDir()
		if *update && st.Dialect() == storage.SQLite {
			shots = filepath.Join("..", "docs", "img")
		}

		step := func(what string, steps ...chromedp.Action[chromedp.Void]) {
			t.Helper()
			stepCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			if err := chromedp.Do(stepCtx, steps...); err != nil {
				loc, _ := chromedp.Run(ctx, chromedp.Location())
				body, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
				t.Fatalf("%s: %v (at %s, showing %q)", what, err, loc, body)
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
			return strings.TrimPrefix(u, srv.URL)
		}
		accessible := func(screen string) {
			t.Helper()
			blocked, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__blocked || []`))
			if err != nil || len(blocked) > 0 {
				t.Errorf("%s: the Content-Security-Policy blocked %v (%v)", screen, blocked, err)
			}
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatalf("screenshot of %s: %v", screen, err)
			}
			if err := os.WriteFile(filepath.Join(shots, "app-"+strings.ReplaceAll(screen, " ", "-")+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](string(axe)+";true")); err != nil {
				t.Fatalf("inject axe on %s: %v", screen, err)
			}
			found, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`axe.run(document, {resultTypes: ['violations']}).then(r => r.violations
				.filter(v => v.impact === 'serious' || v.impact === 'critical')
				.map(v => v.id + ' (' + v.impact + '): ' + v.help + ' at ' + v.nodes.map(n => n.target.join(' ')).join(', ')))`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatalf("axe on %s: %v", screen, err)
			}
			for _, v := range found {
				t.Errorf("%s: %s", screen, v)
			}
		}

		// Signed out, the app sends the writer to sign in, then back.
		step("open the app", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`input[name=email]`)))
		if u := location(); !strings.HasPrefix(u, "/sign-in?return=") {
			t.Fatalf("signed out, the app is at %s", u)
		}
		accessible("sign-in")
		step("sign in", chromedp.SendKeys(chromedp.CSS(`input[name=email]`), writer.Email), chromedp.SendKeys(chromedp.CSS(`input[name=password]`), appPassword),
			chromedp.Click(chromedp.CSS(`button[type=submit]`)), chromedp.WaitVisible(chromedp.Search(`//h1[contains(., "Acme")]`)))
		if u := location(); u != "/o/"+orgID+"/" {
			t.Fatalf("after sign-in the app is at %s", u)
		}
		accessible("organization")

		// The space: its tree, and its first page as it will be published.
		step("open the space", chromedp.Click(chromedp.Search(`//a[contains(., "Handbook")]`)), chromedp.WaitVisible(chromedp.Search(`//article/h1[contains(., "Welcome")]`)))
		if tree, page := text(`nav.tree`), text(`article`); !strings.Contains(strings.ToLower(tree), "guides") || !strings.Contains(tree, "Setup") || !strings.Contains(page, "Hello from the handbook.") {
			t.Fatalf("space: tree %q, page %q", tree, page)
		}
		if u := location(); u != "/s/"+space+"/welcome" {
			t.Fatalf("the space opens at %s", u)
		}
		accessible("space")

		// Edit the page in a change request.
		step("open a change request", chromedp.SendKeys(chromedp.CSS(`input[placeholder^="Subject"]`), "Say more"),
			chromedp.Click(chromedp.Search(`//button[contains(., "Edit in a change request")]`)), chromedp.WaitVisible(chromedp.CSS(`.ProseMirror`)))
		if u := location(); u != "/s/"+space+"/~/changes/1/edit/welcome" {
			t.Fatalf("the editor is at %s", u)
		}
		accessible("editor")
		step("focus the editor", chromedp.Focus(chromedp.CSS(`.ProseMirror`)))
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = getSelection(); s.selectAllChildren(document.querySelector('.ProseMirror')); s.collapseToEnd(); return true })()`)); err != nil {
			t.Fatal(err)
		}
		// Each key then a pause: the editor reads typed text from the page asynchronously.
		typed := func(keys string) chromedp.Action[chromedp.Void] {
			return func(ctx context.Context, tgt *chromedp.Target) (chromedp.Void, error) {
				if err := chromedp.Do(ctx, chromedp.KeyEvent(keys)); err != nil {
					return chromedp.Void{}, err
				}
				return chromedp.Void{}, chromedp.Do(ctx, chromedp.Sleep(250*time.Millisecond))
			}
		}
		// Enter as a keyboard sends it: one key down the editor handles (chromedp's "\r" also sends
		// a character, a second line break).
		enter := func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
			for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
				if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, input.DispatchKeyEventParams{Type: typ, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13}); err != nil {
					return chromedp.Void{}, err
				}
			}
			return chromedp.Void{}, chromedp.Do(ctx, chromedp.Sleep(250*time.Millisecond))
		}
		step("type",
			enter, chromedp.Click(chromedp.CSS(`button[title="Heading 2"]`)), chromedp.Sleep(300*time.Millisecond), typed("Next steps"), enter,
			typed("Read the guides, then:"), enter,
			chromedp.Click(chromedp.CSS(`button[title="Bullet list"]`)), chromedp.Sleep(300*time.Millisecond), typed("install it"), enter, typed("try it"),
			chromedp.WaitVisible(chromedp.CSS(`.ProseMirror ul li`)))
		if got := text(`.ProseMirror`); !strings.Contains(got, "Next steps") || !strings.Contains(got, "try it") {
			t.Fatalf("editor shows %q", got)
		}
		// Wait for the autosave of the last keystrokes, then review and merge.
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('.save-state').dataset.state === 'saved'`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("autosave: %v (%s)", err, text(`.save-state`))
		}
		step("review", chromedp.Click(chromedp.Search(`//a[contains(., "Done editing")]`)), chromedp.WaitVisible(chromedp.Search(`//article//h3[contains(., "Next steps")]`)))
		if changed := text(`ul.changes`); !strings.Contains(changed, "changed") || !strings.Contains(changed, "Welcome") {
			t.Fatalf("pages changed: %q", changed)
		}
		accessible("change request")
		step("merge", chromedp.Click(chromedp.Search(`//button[contains(., "Merge")]`)), chromedp.WaitVisible(chromedp.Search(`//a[contains(., "Change requests (0 open)")]`)),
			chromedp.WaitVisible(chromedp.Search(`//article//li[contains(., "install it")]`)))
		if u := location(); u != "/s/"+space+"/welcome" {
			t.Fatalf("after the merge the app is at %s", u)
		}

		// Dark, and on a phone: the space still reads, with no serious violation.
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: 390, Height: 844, DeviceScaleFactor: 1, Mobile: true}); err != nil {
			t.Fatal(err)
		}
		accessible("space dark phone")
		if wide, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`)); err != nil || wide {
			t.Errorf("on a phone the space scrolls sideways (%v)", err)
		}

		// The published site shows the merged content.
		resp, err := http.Get(srv.URL + "/sites/docs/")
		if err != nil {
			t.Fatal(err)
		}
		html, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, want := range []string{"Next steps", "<li>", "install it", "try it", "Read the guides, then:", "handbook"} {
			if !strings.Contains(string(html), want) {
				t.Fatalf("published page lacks %q: %s", want, html)
			}
		}
		var data struct {
			Space struct {
				Content struct{ PageByPath struct{ Markdown string } }
			}
		}
		e.gql(writer.Token, `query($s: ID!) { space(id: $s) { content { pageByPath(path: "welcome") { markdown } } } }`, map[string]any{"s": space}).ok(&data)
		md := data.Space.Content.PageByPath.Markdown
		for _, want := range []string{"## Next steps", "- install it", "- try it", "- [x] a task", "```go"} {
			if !strings.Contains(md, want) {
				t.Errorf("merged markdown lacks %q:\n%s", want, md)
			}
		}
	})
}
