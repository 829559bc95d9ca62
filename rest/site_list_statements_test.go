package rest_test

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
)

// Every per-site field of a list of sites (adaptive schema and its template conditions,
// redirects, visitor authentication with its generated key, reader settings, published content, preview URL) costs the same statements for 1 site as for 8: each is read, for all the sites
// of the list, in one batch per level.
func TestSiteListFieldsStatementsDoNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		added := 0
		add := func(n int) {
			for range n {
				added++
				site, path := o.site(fmt.Sprintf("Docs %d", added))
				ss := o.siteAdd(o.admin.Token, site, o.space("", "Space"))
				e.call(o.admin.Token, "PUT", path+"/adaptive-schema", map[string]any{"jsonSchema": map[string]any{
					"type": "object", "additionalProperties": false,
					"properties": map[string]any{"plan": map[string]any{"type": "string", "enum": []string{"free", "pro"}, "description": "Plan"}},
				}}).want(http.StatusOK)
				for _, src := range []string{"/old", "/older"} {
					e.call(o.admin.Token, "POST", path+"/redirects", map[string]any{"source": src,
						"destination": map[string]any{"kind": "site-space", "siteSpaceId": ss.ID}}).want(http.StatusCreated)
				}
			}
		}
		const q = `query($o: ID!) { organization(id: $o) { sites(first: 50) { nodes {
			id
			adaptiveSchema { updatedAt }
			adaptiveTemplateConditions { condition }
			redirects(first: 10, search: "old") { totalCount nodes { source destination { kind } } }
			publishingAuth { privateKey backend }
			readerSettings { unsignedClaims }
			customization
			publishedContent { customizations { site } structure { structure { id } } }
			publishingPreview { url }
		} } } }`
		keys := map[string]string{}
		count := func(want int) int64 {
			var n atomic.Int64
			var g struct {
				Organization struct {
					Sites struct {
						Nodes []struct {
							ID                         string
							AdaptiveSchema             *struct{ UpdatedAt string }
							AdaptiveTemplateConditions []struct{ Condition string }
							Redirects                  struct {
								TotalCount int
								Nodes      []struct{ Source string }
							}
							PublishingAuth    struct{ PrivateKey, Backend string }
							PublishingPreview struct{ URL string }
						}
					}
				}
			}
			res := e.gqlCounted(o.admin.Token, q, map[string]any{"o": o.id}, &n)
			res.ok(&g)
			sites := g.Organization.Sites.Nodes
			if len(sites) != want {
				t.Fatalf("%d sites, want %d", len(sites), want)
			}
			for _, s := range sites {
				if s.AdaptiveSchema == nil || len(s.AdaptiveTemplateConditions) != 2 || s.Redirects.TotalCount != 2 ||
					len(s.Redirects.Nodes) != 2 || s.Redirects.Nodes[0].Source != "/old" || s.PublishingAuth.Backend != "custom" || s.PublishingAuth.PrivateKey == "" ||
					s.PublishingPreview.URL == "" {
					t.Fatalf("site = %+v", s)
				}
				if k, ok := keys[s.ID]; ok && k != s.PublishingAuth.PrivateKey {
					t.Fatalf("site %s: the signing key changed on a second read", s.ID)
				}
				keys[s.ID] = s.PublishingAuth.PrivateKey
			}
			return n.Load()
		}
		add(1)
		one := count(1) // generates the one key
		add(7)
		fresh := count(8) // generates 7 keys in one statement
		again := count(8) // keys stored: reads only
		t.Logf("statements: 1 site %d, 8 sites %d (keys generated), then %d", one, fresh, again)
		if fresh > one || again > one {
			t.Errorf("statements grew with sites: 1 site %d, 8 sites %d (keys generated), then %d", one, fresh, again)
		}
		// REST agrees with the key the list generated.
		var auth struct{ PrivateKey string }
		for id, k := range keys {
			e.call(o.admin.Token, "GET", sitePath(o, id)+"/publishing/auth", nil).want(http.StatusOK).decode(&auth)
			if auth.PrivateKey != k {
				t.Errorf("site %s: REST key %q, list key %q", id, auth.PrivateKey, k)
			}
			break
		}
	})
}
