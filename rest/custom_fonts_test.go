package rest_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// fontBytes is a file that starts as a WOFF2 font does.
var fontBytes = append([]byte("wOF2\x00\x01\x00\x00"), bytes.Repeat([]byte{7}, 120)...)

// uploadFont asks for an upload URL and PUTs body there; it answers the key and the PUT's status.
func (e *env) uploadFont(token, orgID string, body []byte, declared int) (string, int) {
	e.t.Helper()
	up := e.call(token, "POST", "/orgs/"+orgID+"/storage/upload", map[string]any{
		"kind": "customization_font", "file": map[string]any{"name": "Brand Sans.woff2", "type": "font/woff2", "size": declared}}).want(http.StatusCreated).object()
	if up["object"] != "storage-signed-url" || !strings.HasPrefix(up["url"].(string), e.res.Settings.PublicURL+"/uploads/"+orgID+"/") {
		e.t.Fatalf("upload URL = %v", up)
	}
	u, _ := url.Parse(up["url"].(string))
	req := httptest.NewRequest("PUT", u.RequestURI(), bytes.NewReader(body))
	_, rec := e.serve(req, "", nil)
	return up["key"].(string), rec.Code
}

func TestCustomFonts(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "branded")
		o := p.o
		base := "/orgs/" + o.id + "/fonts"

		key, status := e.uploadFont(o.admin.Token, o.id, fontBytes, len(fontBytes))
		if status != http.StatusOK {
			t.Fatalf("upload: %d", status)
		}
		// Not a font, more bytes than declared, a tampered or reused URL: refused.
		if _, status := e.uploadFont(o.admin.Token, o.id, []byte("<svg>not a font</svg>"), 100); status != http.StatusBadRequest {
			t.Errorf("upload of a non-font: %d", status)
		}
		if _, status := e.uploadFont(o.admin.Token, o.id, fontBytes, 10); status != http.StatusBadRequest {
			t.Errorf("upload larger than declared: %d", status)
		}
		up := e.call(o.admin.Token, "POST", "/orgs/"+o.id+"/storage/upload", map[string]any{
			"kind": "customization_font", "file": map[string]any{"name": "a.woff2", "type": "font/woff2", "size": 500}}).want(http.StatusCreated).object()
		u, _ := url.Parse(up["url"].(string))
		tampered := strings.Replace(u.RequestURI(), "size=500", "size=5000", 1)
		_, rec := e.serve(httptest.NewRequest("PUT", tampered, bytes.NewReader(fontBytes)), "", nil)
		if rec.Code != http.StatusNotFound {
			t.Errorf("tampered URL: %d", rec.Code)
		}
		e.wantBadBodies(o.admin.Token, "POST", "/orgs/"+o.id+"/storage/upload",
			badBody{"import kind", map[string]any{"kind": "import_file", "file": map[string]any{"name": "a", "type": "font/woff2", "size": 5}}, "kind"},
			badBody{"too large", map[string]any{"kind": "customization_font", "file": map[string]any{"name": "a", "type": "font/woff2", "size": 50 << 20}}, "file.size"},
			badBody{"not a font type", map[string]any{"kind": "customization_font", "file": map[string]any{"name": "a", "type": "image/png", "size": 5}}, "file.type"},
		)

		font := e.call(o.admin.Token, "PUT", base, map[string]any{"fontFamily": "Brand Sans", "fontFaces": []any{map[string]any{"weight": 400, "storageKey": key}}}).want(http.StatusCreated).object()
		id := font["id"].(string)
		src := font["fontFaces"].([]any)[0].(map[string]any)["sources"].([]any)[0].(map[string]any)
		if font["custom"] != true || font["fontFamily"] != "Brand Sans" || src["format"] != "woff2" || src["url"] != "https://bindery.test/fonts/"+id+"/400.woff2" {
			t.Errorf("font = %v", font)
		}
		res := e.read("/fonts/"+id+"/400.woff2", nil).want(http.StatusOK)
		if res.Header.Get("Content-Type") != "font/woff2" || res.Body != string(fontBytes) {
			t.Errorf("font file: %q %q", res.Header.Get("Content-Type"), res.Body)
		}

		// Precondition failures: no regular weight, a key of nothing uploaded.
		e.call(o.admin.Token, "PUT", base, map[string]any{"fontFamily": "Bold Only", "fontFaces": []any{map[string]any{"weight": 700, "storageKey": key}}}).wantError(http.StatusPreconditionFailed)
		e.call(o.admin.Token, "PUT", base, map[string]any{"fontFamily": "Ghost", "fontFaces": []any{map[string]any{"weight": 400, "storageKey": "customization_font/nothing/x.woff2"}}}).wantError(http.StatusPreconditionFailed)
		e.call(o.admin.Token, "PUT", base, map[string]any{"fontFamily": `Evil"}`, "fontFaces": []any{map[string]any{"weight": 400, "storageKey": key}}}).wantError(http.StatusPreconditionFailed)

		// Update: a bold face, then removing it; the regular face stays required.
		bold, _ := e.uploadFont(o.admin.Token, o.id, fontBytes, len(fontBytes))
		upd := e.call(o.admin.Token, "POST", base+"/"+id, map[string]any{"fontFaces": []any{map[string]any{"weight": 700, "storageKey": bold}}}).want(http.StatusCreated).object()
		if n := len(upd["fontFaces"].([]any)); n != 2 {
			t.Errorf("faces after adding bold: %d", n)
		}
		e.call(o.admin.Token, "POST", base+"/"+id, map[string]any{"fontFaces": []any{map[string]any{"weight": 400, "storageKey": nil}}}).wantError(http.StatusPreconditionFailed)
		e.call(o.admin.Token, "POST", base+"/"+id, map[string]any{"fontFaces": []any{map[string]any{"weight": 700, "storageKey": nil}}}).want(http.StatusCreated)

		var list struct {
			Items []struct {
				ID          string
				Permissions struct{ Edit bool }
			}
		}
		e.call(o.admin.Token, "GET", base, nil).want(http.StatusOK).decode(&list)
		if len(list.Items) != 1 || list.Items[0].ID != id || !list.Items[0].Permissions.Edit {
			t.Errorf("list = %+v", list)
		}
		var g struct {
			Organization struct {
				CustomFonts struct {
					Nodes []struct {
						FontFamily string
						FontFaces  []struct{ Weight int }
					}
				}
			}
		}
		e.gql(o.admin.Token, `query($o: ID!) { organization(id: $o) { customFonts { nodes { fontFamily fontFaces { weight } } } } }`, map[string]any{"o": o.id}).ok(&g)
		if n := g.Organization.CustomFonts.Nodes; len(n) != 1 || n[0].FontFamily != "Brand Sans" || len(n[0].FontFaces) != 1 {
			t.Errorf("GraphQL fonts = %+v", g)
		}

		// The site's customization names it: the reader draws it from the site's own origin.
		e.call(o.admin.Token, "PUT", p.path+"/customization", map[string]any{"styling": map[string]any{"font": map[string]any{
			"id": id, "custom": true, "fontFamily": "Brand Sans", "fontFaces": []any{map[string]any{"weight": 400, "sources": []any{map[string]any{"url": "https://example.com/x.woff2"}}}}}}}).want(http.StatusOK)
		home := e.read("/sites/branded/", nil).want(http.StatusOK)
		if !strings.Contains(home.Body, `@font-face{font-family:"Brand Sans";font-weight:400;font-display:swap;src:url("https://bindery.test/sites/branded/~font/`+id+`/400.woff2") format("woff2")}`) ||
			!strings.Contains(home.Body, `html{font-family:"Brand Sans",`) || strings.Contains(home.Body, "example.com/x.woff2") {
			t.Errorf("page does not draw the font:\n%s", home.Body)
		}
		if csp := home.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "font-src 'self'") {
			t.Errorf("CSP = %q", csp)
		}
		ff := e.read("/sites/branded/~font/"+id+"/400.woff2", nil).want(http.StatusOK)
		if ff.Body != string(fontBytes) || ff.Header.Get("Content-Type") != "font/woff2" {
			t.Errorf("site font file: %q", ff.Header)
		}
		e.read("/sites/branded/~font/"+id+"/700.woff2", nil).want(http.StatusNotFound)

		// Another organization: 404 everywhere, its own sites cannot serve the font.
		e.call(p.other.Token, "GET", base+"/"+id, nil).wantError(http.StatusNotFound)
		e.call(p.other.Token, "GET", "/orgs/"+p.otherOrg+"/fonts/"+id, nil).wantError(http.StatusNotFound)
		e.call(p.other.Token, "PUT", "/orgs/"+p.otherOrg+"/fonts", map[string]any{"fontFamily": "Stolen", "fontFaces": []any{map[string]any{"weight": 400, "storageKey": key}}}).wantError(http.StatusPreconditionFailed)
		e.call(p.other.Token, "DELETE", base+"/"+id, nil).wantError(http.StatusNotFound)
		// Readers see fonts, cannot change them.
		reader := e.member(o.id, "reader@acme.test", "read")
		e.call(reader.Token, "GET", base+"/"+id, nil).want(http.StatusOK)
		e.call(reader.Token, "POST", "/orgs/"+o.id+"/storage/upload", map[string]any{"kind": "customization_font", "file": map[string]any{"name": "a", "type": "font/woff2", "size": 5}}).wantError(http.StatusForbidden)
		e.call(reader.Token, "DELETE", base+"/"+id, nil).wantError(http.StatusForbidden)

		e.call(o.admin.Token, "DELETE", base+"/"+id, nil).want(http.StatusResetContent)
		e.call(o.admin.Token, "DELETE", base+"/"+id, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "GET", base+"/"+id, nil).wantError(http.StatusNotFound)
		if home := e.read("/sites/branded/", nil).want(http.StatusOK); strings.Contains(home.Body, "@font-face") {
			t.Errorf("a deleted font is still drawn")
		}
	})
}
