package rest_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/bindery/bindery/storage/storagetest"
)

// The reader: published sites at /sites/<name>/, built here through the API the way a writer
// would build one (docs/reader.md).

// everyBlockMarkdown holds every block kind the document format has, and the inlines.
const everyBlockMarkdown = "Intro with **bold**, *italic*, ~~gone~~, `code` and $$e=mc^2$$.\n\n" +
	"## Install {#install}\n\n" +
	"Version <code class=\"expression\">space.vars.version</code> of <code class=\"expression\">page.vars.product</code>.\n\n" +
	"- one\n- two\n\n3. three\n4. four\n\n- [x] done\n- [ ] todo\n\n" +
	"> A quote.\n\n---\n\n" +
	"{% code title=\"main.go\" lineNumbers=\"true\" %}\n```go\npackage main\n\nfunc main() {}\n```\n{% endcode %}\n\n" +
	"![A cat](.gitbook/assets/cat.png \"Our cat\")\n\n" +
	"| Name | Score |\n|:-----|------:|\n| Ann  | *3*   |\n\n" +
	"$$\nx^2 + y^2\n$$\n\n" +
	"{% hint style=\"warning\" %}\nCareful: **back up** first.\n{% endhint %}\n\n" +
	"{% tabs %}\n{% tab title=\"macOS\" %}\nUse Homebrew.\n{% endtab %}\n{% tab title=\"Linux\" %}\nUse apt.\n{% endtab %}\n{% endtabs %}\n\n" +
	"{% embed url=\"https://www.youtube.com/watch?v=abc\" %}\n\n" +
	"{% file src=\".gitbook/assets/cat.png\" %}\n\n" +
	"{% content-ref url=\"advanced/configuration.md\" %}\n[configuration.md](advanced/configuration.md)\n{% endcontent-ref %}\n\n" +
	"<details>\n<summary>More **details**</summary>\nHidden text.\n</details>\n\n" +
	"## Links\n\nSee [the configuration](advanced/configuration.md#tuning), [nowhere](missing-page.md), " +
	"[a site](https://example.com/x) and [bad](javascript:alert(1)).\n"

// readerSite is a published site built through the API: sections (Guide, the default; API in a
// group; Enterprise for visitors whose plan is pro), two site spaces of Guide as variants, pages of
// every block kind, a hidden page, a link page and an image.
type readerSite struct {
	org                                string
	admin                              account
	site                               string
	guide, v2, api, enterprise         string // space ids
	guideSection, apiSection, entSect  string
	start, config, hidden, draftTarget string // page ids in Guide
	root                               string // the published URL
}

func tinyPNG(t testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 1, color.RGBA{200, 100, 50, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func newReaderSite(e *env) *readerSite {
	e.t.Helper()
	s := &readerSite{}
	s.org, s.admin = e.org("Acme", "admin@acme.test")
	space := func(title string) string {
		return e.call(s.admin.Token, "POST", "/orgs/"+s.org+"/spaces", `{"title":"`+title+`"}`).want(http.StatusCreated).object()["id"].(string)
	}
	s.guide, s.v2, s.api, s.enterprise = space("Guide"), space("Guide v2"), space("API"), space("Enterprise")
	to := target(s.guide, "")
	e.uploadFile(s.admin.Token, to, "cat.png", tinyPNG(e.t))
	s.start = e.createPage(s.admin.Token, to, map[string]any{"title": "Getting started", "emoji": "1f680", "description": "First steps.",
		"markdown": everyBlockMarkdown})
	e.updatePage(s.admin.Token, to, s.start, map[string]any{"variables": map[string]any{"product": "Widget"}}).ok(nil)
	adv := e.createPage(s.admin.Token, to, map[string]any{"type": "GROUP", "title": "Advanced", "icon": "gear"})
	s.config = e.createPage(s.admin.Token, to, map[string]any{"title": "Configuration", "parent": adv, "icon": "book-open",
		"markdown": "Tune it.\n\n## Tuning\n\nBack to [the start](../getting-started.md).\n"})
	// Root pages come before the groups (a page after a group is refused: docs/git-sync.md).
	s.hidden = e.createPage(s.admin.Token, to, map[string]any{"title": "Secret notes", "hidden": true, "markdown": "Only by URL.", "before": adv})
	e.createPage(s.admin.Token, to, map[string]any{"type": "LINK", "title": "Status", "target": map[string]any{"kind": "url", "url": "https://status.example.com"}, "before": adv})
	e.createPage(s.admin.Token, target(s.v2, ""), map[string]any{"title": "Welcome to v2", "markdown": "The **second** version."})
	e.createPage(s.admin.Token, target(s.api, ""), map[string]any{"title": "Endpoints", "markdown": "GET /things lists things."})
	e.createPage(s.admin.Token, target(s.enterprise, ""), map[string]any{"title": "SSO", "markdown": "Enterprise single sign-on."})
	// A draft: a change request editing the start page, never merged.
	cr := e.openChangeRequest(s.admin.Token, s.guide, "Draft")
	e.updatePage(s.admin.Token, target(s.guide, cr), s.start, map[string]any{"markdown": "DRAFT TEXT never published"}).ok(nil)

	s.site = e.call(s.admin.Token, "POST", "/orgs/"+s.org+"/sites", `{"title":"Acme Docs"}`).want(http.StatusCreated).object()["id"].(string)
	base := "/orgs/" + s.org + "/sites/" + s.site
	e.call(s.admin.Token, "PATCH", base, `{"basename":"docs"}`).want(http.StatusOK)
	s.guideSection = e.call(s.admin.Token, "POST", base+"/sections", `{"spaceId":"`+s.guide+`","icon":"book"}`).want(http.StatusCreated).object()["id"].(string)
	e.call(s.admin.Token, "POST", base+"/site-spaces", `{"spaceId":"`+s.v2+`","sectionId":"`+s.guideSection+`"}`).want(http.StatusCreated)
	s.apiSection = e.call(s.admin.Token, "POST", base+"/sections", `{"spaceId":"`+s.api+`","title":"API"}`).want(http.StatusCreated).object()["id"].(string)
	e.call(s.admin.Token, "POST", base+"/section-groups", `{"title":"Reference","sections":["`+s.apiSection+`"]}`).want(http.StatusCreated)
	s.entSect = e.call(s.admin.Token, "POST", base+"/sections", `{"spaceId":"`+s.enterprise+`"}`).want(http.StatusCreated).object()["id"].(string)
	e.call(s.admin.Token, "PATCH", base+"/sections/"+s.entSect, `{"condition":"visitor.claims.plan == \"pro\""}`).want(http.StatusOK)
	e.gql(s.admin.Token, `mutation($o: ID!, $s: ID!) { updateSiteReaderSettings(organizationId: $o, siteId: $s, input: {variables: {version: "2.4.1"}}) { variables } }`,
		map[string]any{"o": s.org, "s": s.site}).ok(nil)
	s.root = "https://bindery.test/sites/docs/"
	return s
}

// page is one reader answer.
type page struct {
	t      testing.TB
	Status int
	Header http.Header
	Body   string
}

func (p page) want(status int) page {
	p.t.Helper()
	if p.Status != status {
		p.t.Fatalf("status = %d, want %d: %.600s", p.Status, status, p.Body)
	}
	return p
}

func (p page) has(parts ...string) page {
	p.t.Helper()
	for _, s := range parts {
		if !strings.Contains(p.Body, s) {
			p.t.Errorf("page lacks %q", s)
		}
	}
	return p
}

func (p page) lacks(parts ...string) page {
	p.t.Helper()
	for _, s := range parts {
		if strings.Contains(p.Body, s) {
			p.t.Errorf("page holds %q", s)
		}
	}
	return p
}

// read fetches a reader URL anonymously, with cookies and headers (name: value pairs).
func (e *env) read(path string, n *atomic.Int64, headers ...string) page {
	e.t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	_, rec := e.serve(req, "", n)
	return page{t: e.t, Status: rec.Code, Header: rec.Header(), Body: rec.Body.String()}
}

func TestReaderSite(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newReaderSite(e)
		home := e.read("/sites/docs/", nil).want(http.StatusOK)
		if ct := home.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("Content-Type = %q", ct)
		}
		home.has(
			// Landmarks, title, canonical and OpenGraph.
			`<title>Getting started | Acme Docs</title>`, `<main id="content"`, `<nav class="sidebar" id="sidebar" aria-label="Pages">`,
			`<link rel="canonical" href="`+s.root+`getting-started">`, `<meta property="og:title" content="Getting started | Acme Docs">`,
			`<meta name="description" content="First steps.">`,
			// Sections as tabs (the current one marked), the group as a menu, variants.
			`aria-current="true" class="current"><svg class="icon"`, `<summary>Reference</summary>`, `href="`+s.root+`api/"`,
			`<summary><span class="visually-hidden">Version: </span>Guide</summary>`, `href="`+s.root+`guide-v2/"`,
			// The sidebar: pages, the group as a heading, its page with its icon, the link page.
			`<span class="group-title"><svg class="icon"`, `Advanced</span>`, `href="`+s.root+`advanced/configuration"`,
			`href="https://status.example.com" rel="noopener" class="external"`,
			`aria-current="page" class="current"`, `<span class="emoji" aria-hidden="true">🚀</span>`,
			// Every block kind.
			`<strong>bold</strong>`, `<em>italic</em>`, `<s>gone</s>`, `<code>code</code>`, `<code class="math" role="math">e=mc^2</code>`,
			`<h2 id="install">Install`, `Version 2.4.1 of Widget.`, `<ul><li><p>one</p>`, `<ol start="3">`, `<ul class="tasks">`,
			`<input type="checkbox" checked disabled`, `<blockquote><p>A quote.</p>`, `<hr>`,
			`<figure class="code"><figcaption>main.go</figcaption><pre class="chroma numbered"`, `<span class="kd">func</span>`,
			`<img src="`+s.root+`~files/`, `alt="A cat" loading="lazy" width="4" height="3"><figcaption>Our cat</figcaption>`,
			`<th scope="col">Name</th><th scope="col" class="align-right">Score</th>`, `<td class="align-right"><em>3</em></td>`,
			`<div class="math" role="math"><code>x^2 + y^2</code></div>`, `<aside class="hint hint-warning" role="note"`,
			`<div class="tabs" data-tabs><section class="tab-panel" data-title="macOS">`, `class="card embed" href="https://www.youtube.com/watch?v=abc"`,
			`class="card file" href="`+s.root+`~files/`, `class="card content-ref" href="`+s.root+`advanced/configuration"><span class="card-title">Configuration</span>`,
			`<details class="expandable"><summary>More <strong>details</strong></summary>`,
			// Links resolve to published URLs; broken ones and unsafe ones are plain text.
			`<a href="`+s.root+`advanced/configuration#tuning">the configuration</a>`, `<span class="broken-link">nowhere</span>`,
			`<a href="https://example.com/x">a site</a>`, `<span class="broken-link">bad</span>`,
			// The outline, and the next page.
			`<a href="#install">Install</a>`, `rel="next" href="`+s.root+`advanced/configuration"`,
		).lacks("DRAFT TEXT", "Secret notes", "Enterprise", "javascript:", "SSO")

		// Another page: breadcrumbs, previous, the link back to the first page.
		e.read("/sites/docs/advanced/configuration", nil).want(http.StatusOK).has(
			`<nav class="crumbs" aria-label="Breadcrumbs"><ol><li>Advanced</li></ol></nav>`, `rel="prev" href="`+s.root+`getting-started"`,
			`<a href="`+s.root+`getting-started">the start</a>`, `<h2 id="tuning">Tuning`)
		// The variant, the section in the group, the hidden page (by its URL only).
		e.read("/sites/docs/guide-v2/", nil).want(http.StatusOK).has("Welcome to v2", "<strong>second</strong>", `aria-current="true">Guide v2</a>`)
		e.read("/sites/docs/api/", nil).want(http.StatusOK).has("GET /things lists things.", `<details open><summary class="current">`)
		e.read("/sites/docs/secret-notes", nil).want(http.StatusOK).has("Only by URL.")

		// What is not there answers 404, never 500.
		for _, path := range []string{"/sites/docs/nope", "/sites/docs/guide-v2/nope", "/sites/nope/", "/sites/docs/enterprise/", "/sites/docs/advanced/configuration/x.md"} {
			e.read(path, nil).want(http.StatusNotFound).has("Page not found")
		}
		e.read("/sites/docs", nil).want(http.StatusMovedPermanently)
		// The site's id works as its name too.
		e.read("/sites/"+s.site+"/", nil).want(http.StatusOK).has("Getting started")

		// The image is served from the space's files.
		img := regexp.MustCompile(`<img src="https://bindery.test(/sites/docs/~files/[^"]+)"`).FindStringSubmatch(home.Body)
		if img == nil {
			t.Fatal("no image URL")
		}
		file := e.read(img[1], nil).want(http.StatusOK)
		if file.Header.Get("Content-Type") != "image/png" || !strings.HasPrefix(file.Body, "\x89PNG") {
			t.Errorf("image: %q %.8q", file.Header.Get("Content-Type"), file.Body)
		}
		e.read("/sites/docs/~files/nope/nope/x.png", nil).want(http.StatusNotFound)

		// The ETag of the page answers 304 when it matches.
		tag := home.Header.Get("ETag")
		if !strings.HasPrefix(tag, `"`) {
			t.Fatalf("ETag = %q", tag)
		}
		e.read("/sites/docs/", nil, "If-None-Match", tag).want(http.StatusNotModified)
		e.read("/sites/docs/", nil, "If-None-Match", `"other"`).want(http.StatusOK)

		// For machines.
		md := e.read("/sites/docs/getting-started.md", nil).want(http.StatusOK)
		if !strings.HasPrefix(md.Body, "# Getting started\n\nIntro with **bold**") || !strings.Contains(md.Body, "Version 2.4.1 of Widget.") {
			t.Errorf("markdown = %.200q", md.Body)
		}
		e.read("/sites/docs/sitemap.xml", nil).want(http.StatusOK).has("<loc>"+s.root+"getting-started</loc>", "<loc>"+s.root+"api/endpoints</loc>").
			lacks("secret-notes", "sso", "status.example.com")
		e.read("/sites/docs/robots.txt", nil).want(http.StatusOK).has("Allow: /", "Sitemap: "+s.root+"sitemap.xml").lacks("Disallow: /\n")
		e.read("/sites/docs/llms.txt", nil).want(http.StatusOK).has("# Acme Docs", "## Guide v2", "- ["+"Getting started]("+s.root+"getting-started.md): First steps.").
			lacks("Secret notes", "SSO")

		// Search: the visitor's site spaces only, with snippets.
		e.read("/sites/docs/~search?q=configuration", nil).want(http.StatusOK).has(`<a class="result-title" href="` + s.root + `advanced/configuration">Configuration</a>`)
		e.read("/sites/docs/~search?q=single+sign", nil).want(http.StatusOK).has("No page matches").lacks("SSO")
	})
}

func TestReaderAdaptiveContent(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newReaderSite(e)
		// Unsigned claims count only where the site allows them.
		claims := e.read("/sites/docs/enterprise/?visitor.plan=pro", nil).want(http.StatusFound)
		cookie := claims.Header.Get("Set-Cookie")
		if loc := claims.Header.Get("Location"); loc != "/sites/docs/enterprise/" || !strings.Contains(cookie, "bindery_visitor_claims=") {
			t.Fatalf("claims redirect: %q %q", loc, cookie)
		}
		cookie = strings.Split(cookie, ";")[0]
		e.read("/sites/docs/enterprise/", nil, "Cookie", cookie).want(http.StatusNotFound)
		e.gql(s.admin.Token, `mutation($o: ID!, $s: ID!) { updateSiteReaderSettings(organizationId: $o, siteId: $s, input: {unsignedClaims: true}) { unsignedClaims } }`,
			map[string]any{"o": s.org, "s": s.site}).ok(nil)
		e.read("/sites/docs/enterprise/", nil, "Cookie", cookie).want(http.StatusOK).has("Enterprise single sign-on.")
		e.read("/sites/docs/", nil, "Cookie", cookie).want(http.StatusOK).has(`href="` + s.root + `enterprise/"`)
		e.read("/sites/docs/~search?q=single+sign", nil, "Cookie", cookie).want(http.StatusOK).has(">SSO</a>")
		e.read("/sites/docs/sitemap.xml", nil, "Cookie", cookie).want(http.StatusOK).has(s.root + "enterprise/sso")
	})
}

// visitorToken signs claims for a site's key.
func visitorToken(t testing.TB, key string, method jwt.SigningMethod, claims jwt.MapClaims) string {
	t.Helper()
	var k any = []byte(key)
	if method == jwt.SigningMethodNone {
		k = jwt.UnsafeAllowNoneSignatureType
	}
	s, err := jwt.NewWithClaims(method, claims).SignedString(k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestReaderVisibility(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newReaderSite(e)
		base := "/orgs/" + s.org + "/sites/" + s.site
		visibility := func(v string) {
			e.call(s.admin.Token, "PATCH", base, `{"visibility":"`+v+`"}`).want(http.StatusOK)
		}

		// public: indexed.
		pub := e.read("/sites/docs/", nil).want(http.StatusOK).lacks(`<meta name="robots"`)
		if cc := pub.Header.Get("Cache-Control"); !strings.HasPrefix(cc, "public") {
			t.Errorf("public Cache-Control = %q", cc)
		}

		// unlisted: anyone with the URL, never indexed.
		visibility("unlisted")
		unl := e.read("/sites/docs/", nil).want(http.StatusOK).has(`<meta name="robots" content="noindex">`)
		if unl.Header.Get("X-Robots-Tag") != "noindex" {
			t.Errorf("unlisted X-Robots-Tag = %q", unl.Header.Get("X-Robots-Tag"))
		}
		e.read("/sites/docs/robots.txt", nil).want(http.StatusOK).has("Disallow: /\n")
		e.read("/sites/docs/sitemap.xml", nil).want(http.StatusOK).lacks("<loc>")

		// share-link: only through an active share link's key, moved into a cookie.
		visibility("share-link")
		e.read("/sites/docs/", nil).want(http.StatusNotFound)
		link := e.call(s.admin.Token, "POST", base+"/share-links", `{"name":"Partners"}`).want(http.StatusCreated).object()
		key := strings.SplitN(link["urls"].(map[string]any)["published"].(string), "?share=", 2)[1]
		moved := e.read("/sites/docs/advanced/configuration?share="+key, nil).want(http.StatusFound)
		if moved.Header.Get("Location") != "/sites/docs/advanced/configuration" {
			t.Errorf("share redirect to %q", moved.Header.Get("Location"))
		}
		share := strings.Split(moved.Header.Get("Set-Cookie"), ";")[0]
		e.read("/sites/docs/advanced/configuration", nil, "Cookie", share).want(http.StatusOK).has("Tune it.")
		e.read("/sites/docs/", nil, "Cookie", "bindery_share_key=wrong").want(http.StatusNotFound)
		e.call(s.admin.Token, "PATCH", base+"/share-links/"+link["id"].(string), `{"active":false}`).want(http.StatusOK)
		e.read("/sites/docs/", nil, "Cookie", share).want(http.StatusNotFound)

		// visitor-auth: a valid HS256 token signed with the site's key, with an expiry.
		visibility("visitor-auth")
		e.read("/sites/docs/", nil).want(http.StatusUnauthorized).has("Sign in to read this site")
		var settings struct {
			UpdateSiteReaderSettings struct{ SigningKey string }
		}
		e.gql(s.admin.Token, `mutation($o: ID!, $s: ID!) { updateSiteReaderSettings(organizationId: $o, siteId: $s, input: {rotateSigningKey: true}) { signingKey } }`,
			map[string]any{"o": s.org, "s": s.site}).ok(&settings)
		key = settings.UpdateSiteReaderSettings.SigningKey
		if len(key) < 40 {
			t.Fatalf("signing key = %q", key)
		}
		exp := t0.Add(time.Hour).Unix() // the test clock starts at t0
		good := visitorToken(t, key, jwt.SigningMethodHS256, jwt.MapClaims{"exp": exp, "plan": "pro"})
		moved = e.read("/sites/docs/?jwt_token="+good, nil).want(http.StatusFound)
		token := strings.Split(moved.Header.Get("Set-Cookie"), ";")[0]
		if !strings.HasPrefix(token, "bindery_visitor_token=") || !strings.Contains(moved.Header.Get("Set-Cookie"), "HttpOnly") {
			t.Fatalf("token cookie = %q", moved.Header.Get("Set-Cookie"))
		}
		authed := e.read("/sites/docs/", nil, "Cookie", token).want(http.StatusOK).has(`href="` + s.root + `enterprise/"`) // the token's claims adapt it
		if cc := authed.Header.Get("Cache-Control"); !strings.HasPrefix(cc, "private") {
			t.Errorf("visitor-auth Cache-Control = %q", cc)
		}
		refused := map[string]string{
			"forged":      visitorToken(t, "not-the-site-key-not-the-site-key-000000", jwt.SigningMethodHS256, jwt.MapClaims{"exp": exp}),
			"expired":     visitorToken(t, key, jwt.SigningMethodHS256, jwt.MapClaims{"exp": t0.Add(-time.Hour).Unix()}),
			"no expiry":   visitorToken(t, key, jwt.SigningMethodHS256, jwt.MapClaims{"plan": "pro"}),
			"alg none":    visitorToken(t, key, jwt.SigningMethodNone, jwt.MapClaims{"exp": exp}),
			"other alg":   visitorToken(t, key, jwt.SigningMethodHS512, jwt.MapClaims{"exp": exp}),
			"not a token": "garbage",
		}
		for name, tok := range refused {
			if e.read("/sites/docs/", nil, "Cookie", "bindery_visitor_token="+tok).Status != http.StatusUnauthorized {
				t.Errorf("%s token: not refused", name)
			}
		}
		// A new key retires tokens signed with the old one.
		e.gql(s.admin.Token, `mutation($o: ID!, $s: ID!) { updateSiteReaderSettings(organizationId: $o, siteId: $s, input: {rotateSigningKey: true}) { signingKey } }`,
			map[string]any{"o": s.org, "s": s.site}).ok(nil)
		e.read("/sites/docs/", nil, "Cookie", token).want(http.StatusUnauthorized)
	})
}

// TestReaderGraphQL reads a published site through /graphql, and checks who may see and change
// the reader settings.
func TestReaderGraphQL(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newReaderSite(e)
		reader := e.member(s.org, "reader@acme.test", "read")
		var data struct {
			PublishedSite struct {
				Title      string
				SiteSpaces []struct{ Title, URL string }
				At         struct {
					PagePath string
					Page     struct {
						Title string
						Next  struct{ URL string }
					}
				}
			}
		}
		e.gql(reader.Token, `{ publishedSite(name: "docs") { title siteSpaces { title url } at(path: "guide-v2") { pagePath page { title next { url } } } } }`, nil).ok(&data)
		if p := data.PublishedSite; p.Title != "Acme Docs" || len(p.SiteSpaces) != 3 || p.At.Page.Title != "Welcome to v2" || p.At.PagePath != "" {
			t.Errorf("publishedSite = %+v", p)
		}
		if code := e.gql(reader.Token, `{ publishedSite(name: "nope") { id } }`, nil).code(); code != "NOT_FOUND" {
			t.Errorf("unknown site: %s", code)
		}
		vars := map[string]any{"o": s.org, "s": s.site}
		if code := e.gql(reader.Token, `mutation($o: ID!, $s: ID!) { updateSiteReaderSettings(organizationId: $o, siteId: $s, input: {unsignedClaims: true}) { unsignedClaims } }`, vars).code(); code != "FORBIDDEN" {
			t.Errorf("reader updates settings: %s", code)
		}
		other, outsider := e.org("Other", "admin@other.test")
		_ = other
		if code := e.gql(outsider.Token, `mutation($o: ID!, $s: ID!) { updateSiteReaderSettings(organizationId: $o, siteId: $s, input: {unsignedClaims: true}) { unsignedClaims } }`, vars).code(); code != "NOT_FOUND" {
			t.Errorf("outsider updates settings: %s", code)
		}
		for _, bad := range []string{`[1]`, `{"1x": "a"}`, `{"a": {"b": 1}}`} {
			if code := e.gql(s.admin.Token, `mutation($o: ID!, $s: ID!, $v: JSON) { updateSiteReaderSettings(organizationId: $o, siteId: $s, input: {variables: $v}) { variables } }`,
				map[string]any{"o": s.org, "s": s.site, "v": jsonValue(bad)}).code(); code != "INVALID" {
				t.Errorf("variables %s: %s", bad, code)
			}
		}
	})
}

// TestReaderStatementsDoNotGrow: a page view costs the same statements whatever the size of the
// space, on a first view (the page tree read) and on later ones (the tree cached). The reader's
// reads are alone (no GraphQL list: no loader window), so the count does not depend on the
// machine's load without a synctest bubble, which its code highlighting could not run in (the
// regexp library's process-wide timeout clock would start as the bubble's goroutine).
func TestReaderStatementsDoNotGrow(t *testing.T) {
	eachDBAlone(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		counts := map[int][2]int64{}
		for _, size := range []int{2, 12} {
			big := generateBigSpace(t, e, admin, orgID, size, size)
			site := e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites", `{"title":"Site","spaces":["`+big.space+`"]}`).want(http.StatusCreated).object()["id"].(string)
			var first, again atomic.Int64
			path := "/sites/" + site + "/chapter-1/section-1"
			e.read(path, &first).want(http.StatusOK).has("Section 1.1")
			e.read(path, &again).want(http.StatusOK)
			counts[size] = [2]int64{first.Load(), again.Load()}
		}
		if counts[2] != counts[12] {
			t.Errorf("statements (first view, later view) = %v for 6 pages, %v for 156 pages", counts[2], counts[12])
		}
		if counts[2][1] >= counts[2][0] {
			t.Errorf("a later view (%d statements) does not reuse the cached tree (first: %d)", counts[2][1], counts[2][0])
		}
		t.Logf("page view: %d statements (first), %d (later)", counts[12][0], counts[12][1])
	})
}

// BenchmarkReaderPage renders a page of a 10,000-page space (the tree cached after the first view).
//
//	go test -run '^$' -bench ReaderPage -benchtime 20x ./rest/
func BenchmarkReaderPage(b *testing.B) {
	skipUnderShort(b, "10,000-page")
	for _, d := range storagetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			e, orgID, admin := benchEnv(b, d, 0)
			big := generateBigSpace(b, e, admin, orgID, bigTop, bigChildren)
			site := createdID(b, contentDo(b, e, admin.Token, "POST", "/orgs/"+orgID+"/sites", `{"title":"Site","spaces":["`+big.space+`"]}`, nil, http.StatusCreated))
			path := "/sites/" + site + "/chapter-50/section-50"
			if _, rec := e.serve(httptest.NewRequest("GET", path, nil), "", nil); rec.Code != http.StatusOK { // reads and caches the tree
				b.Fatalf("first view: %d", rec.Code)
			}
			var n atomic.Int64
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("GET", path, nil)
				_, rec := e.serve(req, "", &n)
				if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Section 50.50") {
					b.Fatalf("status %d: %.300s", rec.Code, rec.Body)
				}
			}
			b.ReportMetric(float64(n.Load())/float64(b.N), "stmts/op")
		})
	}
}

// jsonValue decodes a JSON text, for GraphQL variables.
func jsonValue(s string) any {
	var v any
	_ = json.Unmarshal([]byte(s), &v)
	return v
}
