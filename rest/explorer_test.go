package rest_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/storage/storagetest"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// chromium finds a Chromium to drive; outside CI its absence skips the browser tests.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if storagetest.CI() {
		t.Fatal("no Chromium found and CI=true: install it (apt-get install chromium)")
	}
	t.Skip("no Chromium found; the explorer's browser test needs it")
	return ""
}

// TestExplorerOffline loads GraphiQL in headless Chromium with every host but the server's
// unresolvable, fills in a token, waits for the schema to be fetched again with it, runs
// { viewer { id } }, and finds the answer, no request to another origin and no token in the
// browser's storage.
func TestExplorerOffline(t *testing.T) {
	bin := chromium(t)
	e := newEnv(t, storagetest.Open(t, "sqlite"))
	_, admin := e.org("Explorer", "admin@explorer.test")

	var (
		mu                  sync.Mutex
		authedIntrospects   int
		unauthedIntrospects int
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/graphql" && r.Method == "POST" {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if strings.Contains(string(body), "IntrospectionQuery") {
				mu.Lock()
				if r.Header.Get("Authorization") == "Bearer "+admin.Token {
					authedIntrospects++
				} else {
					unauthedIntrospects++
				}
				mu.Unlock()
			}
		}
		e.h.ServeHTTP(w, r)
	}))
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// The network is "blocked": no name resolves except the test server's address.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	var foreign []string
	if err := chromedp.Listen(ctx, func(ev any) {
		if req, ok := ev.(*network.EventRequestWillBeSent); ok && !strings.HasPrefix(req.Request.URL, srv.URL) && !strings.HasPrefix(req.Request.URL, "data:") {
			mu.Lock()
			foreign = append(foreign, req.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}

	const setHeaders = `(() => {
		const cms = [...document.querySelectorAll('.CodeMirror')].map(n => n.CodeMirror);
		const h = cms.find(cm => cm.getValue().includes('Authorization'));
		if (!h) return false;
		h.setValue('{"Authorization": "Bearer TOKEN"}');
		return true;
	})()`
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/graphql"),
		chromedp.WaitVisible(chromedp.CSS(`.graphiql-container`)),
	); err != nil {
		t.Fatalf("load the explorer: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`[...document.querySelectorAll('.CodeMirror')].some(n => n.CodeMirror.getValue().includes('Authorization'))`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the headers editor holds no Authorization template: %v", err)
	}
	// The first screen works: a template a browser can send (Latin-1 only), the side panel
	// saying the schema loads once a token is set, the response pane asking for the token, and
	// no stack trace nor request without a token.
	template, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('.CodeMirror')].map(n => n.CodeMirror.getValue()).find(v => v.includes('Authorization'))`))
	if err != nil || !strings.Contains(template, "<paste your API token here>") || strings.IndexFunc(template, func(r rune) bool { return r > 0xff }) >= 0 {
		t.Fatalf("headers template = %q (%v), want a Latin-1 prompt for the token", template, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.innerText.includes('loads once a token is set')`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the side panel does not say the schema loads once a token is set: %v", err)
	}
	prompt, err := chromedp.Run(ctx, chromedp.Poll[string](`(() => { const r = document.querySelector('.graphiql-response .CodeMirror'); return r && r.CodeMirror.getValue().includes('Set your API token') ? r.CodeMirror.getValue() : false })()`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		t.Fatalf("the response pane does not ask for the token: %v", err)
	}
	page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	for _, bad := range []string{"TypeError", "ISO-8859-1"} {
		if strings.Contains(prompt, bad) || strings.Contains(page, bad) {
			t.Fatalf("the first screen shows an error (%q):\n%s\n%s", bad, prompt, page)
		}
	}
	mu.Lock()
	if unauthedIntrospects > 0 {
		t.Errorf("the explorer fetched the schema %d time(s) without a token", unauthedIntrospects)
	}
	mu.Unlock()
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](strings.Replace(setHeaders, "TOKEN", admin.Token, 1)))
	if err != nil || !ok {
		t.Fatalf("fill in the token: %v (headers editor found: %v)", err, ok)
	}
	// The schema is fetched again with the new headers.
	deadline := time.Now().Add(15 * time.Second)
	for {
		mu.Lock()
		n := authedIntrospects
		mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the schema was not fetched again with the new Authorization header")
		}
		time.Sleep(100 * time.Millisecond)
	}

	// With the schema loaded, the documentation panel shows it.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(() => { const d = document.querySelector('.graphiql-doc-explorer'); return !!d && d.innerText.includes('Root Types') })()`, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("the documentation panel does not show the schema once the token is set: %v", err)
	}
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS(`.graphiql-query-editor .CodeMirror`)),
	); err != nil {
		t.Fatalf("the query editor: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue('{ viewer { id } }'), true)`)); err != nil {
		t.Fatalf("type the query: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.graphiql-execute-button`))); err != nil {
		t.Fatalf("run the query: %v", err)
	}
	answer, err := chromedp.Run(ctx, chromedp.Poll[string](`(() => { const r = document.querySelector('.graphiql-response .CodeMirror'); return r && r.CodeMirror.getValue().includes('"viewer"') ? r.CodeMirror.getValue() : false })()`, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		t.Fatalf("run { viewer { id } }: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond)); err != nil { // let GraphiQL write its history
		t.Fatal(err)
	}
	stored, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(Object.assign({}, localStorage))`))
	if err != nil {
		t.Fatalf("read localStorage: %v", err)
	}
	if !strings.Contains(answer, admin.ID) {
		t.Errorf("the explorer answered %s; want the viewer %s", answer, admin.ID)
	}
	if strings.Contains(stored, admin.Token) || strings.Contains(stored, "bdy_") {
		t.Errorf("the token was written to localStorage: %s", stored)
	}
	if !strings.Contains(stored, "viewer") {
		t.Errorf("no query history in localStorage (is the storage test meaningful?): %s", stored)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(foreign) > 0 {
		t.Errorf("the explorer requested other origins: %v", foreign)
	}
}
