package rest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/openapidoc"
	"github.com/bindery/bindery/domain/safefetch"
	"github.com/bindery/bindery/storage"
)

// deepSpec is a 3.0 document whose one schema nests arrays levels deep (the document's own
// nesting included), as JSON or as flow YAML.
func deepSpec(levels int, yaml bool) string {
	n := levels - 4 // the document, components, schemas and the leaf schema
	if yaml {
		return "openapi: 3.0.3\ninfo: {title: Deep, version: '1'}\npaths: {}\ncomponents: {schemas: {A: " +
			strings.Repeat("{type: array, items: ", n) + "{type: string}" + strings.Repeat("}", n) + "}}\n"
	}
	return `{"openapi":"3.0.3","info":{"title":"Deep","version":"1"},"paths":{},"components":{"schemas":{"A":` +
		strings.Repeat(`{"type":"array","items":`, n) + `{"type":"string"}` + strings.Repeat(`}`, n) + `}}}`
}

// A specification nesting deeper than the limit is refused with a 400 naming the limit, through
// both doors and every way in, before its schemas are decoded; one at the limit is stored. A
// fetched one fails its job with the same message on the specification.
func TestOpenAPISpecNestingLimit(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Deep", "admin@deep.test")
		base := "/orgs/" + orgID + "/openapi"
		limit := fmt.Sprint(openapidoc.MaxDepth)
		e.call(admin.Token, "PUT", base+"/kept", map[string]any{"source": map[string]any{"text": petstore30}}).want(http.StatusCreated)
		unchanged := e.snapshot(admin.Token, base)
		keptUnchanged := e.snapshot(admin.Token, base+"/kept/versions")

		for _, yaml := range []bool{false, true} {
			for _, levels := range []int{openapidoc.MaxDepth + 1, 7500} {
				doc := deepSpec(levels, yaml)
				name := fmt.Sprintf("%d levels (yaml %v)", levels, yaml)
				for _, req := range []struct {
					method, path string
					body         map[string]any
				}{
					{"POST", base, specBody("deep", doc)},
					{"PUT", base + "/deep", map[string]any{"source": map[string]any{"text": doc}}},
					{"PUT", base + "/kept", map[string]any{"source": map[string]any{"text": doc}}},
				} {
					msg := e.call(admin.Token, req.method, req.path, req.body).wantError(http.StatusBadRequest)
					if !strings.HasPrefix(msg, "source.text") || !strings.Contains(msg, limit) {
						t.Errorf("%s %s, %s: message %q names neither the field nor the limit", req.method, req.path, name, msg)
					}
				}
				for _, m := range []string{
					`mutation($o: ID!, $t: String!) { createOpenAPISpec(organizationId: $o, input: {slug: "deep", source: {text: $t}}) { id } }`,
					`mutation($o: ID!, $t: String!) { putOpenAPISpec(organizationId: $o, slug: "kept", input: {source: {text: $t}}) { id } }`,
				} {
					g := e.gql(admin.Token, m, map[string]any{"o": orgID, "t": doc})
					if g.code() != "INVALID" || !strings.Contains(g.Errors[0].Message, limit) {
						t.Errorf("GraphQL, %s: %+v", name, g.Errors)
					}
				}
			}
		}
		unchanged("refused specifications")
		keptUnchanged("refused versions")

		for _, yaml := range []bool{false, true} {
			slug := fmt.Sprintf("limit-%v", yaml)
			spec := e.call(admin.Token, "PUT", base+"/"+slug, map[string]any{"source": map[string]any{"text": deepSpec(openapidoc.MaxDepth, yaml)}}).want(http.StatusCreated).object()
			if spec["lastVersion"] == nil {
				t.Errorf("at the limit (yaml %v): %v", yaml, spec)
			}
		}

		// A version stored before the limits (written straight to storage here) makes no pages: a
		// 400 naming the specification, not an internal error.
		legacy := deepSpec(openapidoc.MaxDepth+1, false)
		if _, _, err := e.res.Store.SaveSpec(t.Context(), storage.SpecWrite{OrganizationID: orgID, Slug: "legacy", Content: &legacy, Hash: "legacy", State: "complete", Now: time.Now()}); err != nil {
			t.Fatal(err)
		}
		spaceID := e.newSpace(admin.Token, orgID, "API")
		g := e.gql(admin.Token, insertPagesQuery, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"spec": "legacy", "models": true}})
		if g.code() != "INVALID" || g.Errors[0].Extensions["field"] != "spec" || !strings.Contains(g.Errors[0].Message, limit) {
			t.Errorf("pages of a legacy version too deep: %+v", g.Errors)
		}

		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(deepSpec(5000, strings.HasSuffix(r.URL.Path, ".yaml"))))
		}))
		defer srv.Close()
		e.res.Settings.Fetch = safefetch.Policy{AllowHTTP: true, AllowPrivate: true}
		for _, file := range []string{"spec.json", "spec.yaml"} {
			slug := "remote-" + strings.TrimPrefix(file, "spec.")
			e.call(admin.Token, "PUT", base+"/"+slug, map[string]any{"source": map[string]any{"url": srv.URL + "/" + file}}).want(http.StatusCreated)
			e.runJobs()
			spec := e.call(admin.Token, "GET", base+"/"+slug, nil).want(http.StatusOK).object()
			if spec["lastProcessErrorCode"] != "PARSE_ERROR" || spec["lastVersion"] != nil || !strings.Contains(jsonText(spec["lastProcessedErrors"]), limit) {
				t.Errorf("fetched %s: %v", file, spec)
			}
		}
	})
}
