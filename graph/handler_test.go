package graph

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bindery/bindery/domain"
)

func TestDepthLimitRejectsDeepQueriesBeforeResolving(t *testing.T) {
	h := newHandler(&Resolver{App: &domain.App{}}, 4) // no store: a rejected query must never reach a resolver
	for _, tt := range []struct {
		name, query string
		depth       int
	}{
		{"fields", `{ organizations { nodes { members { nodes { id } } } } }`, 5},
		{"through a fragment", `fragment M on Member { user { urls { location } } } { organizations { nodes { members { nodes { ...M } } } } }`, 7},
		{"through an inline fragment", `{ organizations { nodes { ... on Organization { members { nodes { id } } } } } }`, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]string{"query": tt.query})
			req := httptest.NewRequest("POST", "/graphql", strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			var out struct {
				Errors []struct {
					Message    string
					Extensions map[string]any
				}
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || len(out.Errors) != 1 {
				t.Fatalf("answer %d %s", rec.Code, rec.Body)
			}
			if out.Errors[0].Extensions["code"] != "DEPTH_LIMIT_EXCEEDED" || !strings.Contains(out.Errors[0].Message, "limit is 4") {
				t.Errorf("error = %+v", out.Errors[0])
			}
			if want := "nested " + string(rune('0'+tt.depth)) + " levels"; !strings.Contains(out.Errors[0].Message, want) {
				t.Errorf("message %q does not say %q", out.Errors[0].Message, want)
			}
			if rec.Code == http.StatusOK && out.Errors == nil {
				t.Error("query ran")
			}
		})
	}
}

// TestIntrospectionHidesCodegenDirectives: the schema served declares GraphQL's own directives
// but none of gqlgen's code-generation ones (@goField and the like).
func TestIntrospectionHidesCodegenDirectives(t *testing.T) {
	h := newHandler(&Resolver{App: &domain.App{}}, MaxDepth)
	body, _ := json.Marshal(map[string]string{"query": `{ __schema { directives { name } } }`})
	req := httptest.NewRequest("POST", "/graphql", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out struct {
		Data struct {
			Schema struct{ Directives []struct{ Name string } } `json:"__schema"`
		}
		Errors []any
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || len(out.Errors) > 0 {
		t.Fatalf("introspection: %d %s", rec.Code, rec.Body)
	}
	names := map[string]bool{}
	for _, d := range out.Data.Schema.Directives {
		names[d.Name] = true
	}
	for _, name := range []string{"include", "skip", "deprecated"} {
		if !names[name] {
			t.Errorf("introspection lacks @%s: %v", name, names)
		}
	}
	for name := range names {
		if strings.HasPrefix(name, "go") {
			t.Errorf("introspection shows the code-generation directive @%s", name)
		}
	}
	if len(NewExecutableSchema(Config{}).Schema().Directives) == len(servedSchema().Directives) {
		t.Error("the generated schema declares no code-generation directive: is this test meaningful?")
	}
}
