package graph

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain"
	"github.com/vektah/gqlparser/v2/ast"
)

// Every list of objects in the schema is priced: through a page-size argument, as part of a
// connection, or in unpagedLists. A field added without one fails here, so that no new list can
// be read unpriced; add a page argument or an entry in unpagedLists with the most it may return.
func TestEveryListIsPriced(t *testing.T) {
	schema := NewExecutableSchema(Config{Resolvers: &Resolver{}}).Schema()
	var unpriced []string
	known := map[string]bool{}
	for _, typ := range schema.Types {
		if strings.HasPrefix(typ.Name, "__") || (typ.Kind != ast.Object && typ.Kind != ast.Interface) {
			continue
		}
		for _, f := range typ.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			key := typ.Name + "." + f.Name
			known[key] = true
			elem := schema.Types[f.Type.Name()]
			many := f.Type.Elem != nil && elem != nil && (elem.Kind == ast.Object || elem.Kind == ast.Interface || elem.Kind == ast.Union)
			if !many && !isConnection(f.Type) {
				continue
			}
			paged := false
			for _, name := range pageArguments {
				paged = paged || f.Arguments.ForName(name) != nil
			}
			_, listed := unpagedLists[key]
			inConnection := strings.HasSuffix(typ.Name, "Connection") || strings.HasSuffix(typ.Name, "Edge")
			if !paged && !listed && !(inConnection && !isConnection(f.Type)) {
				unpriced = append(unpriced, key)
			}
		}
	}
	sort.Strings(unpriced)
	if len(unpriced) > 0 {
		t.Errorf("lists without a price (add a first argument, or an entry in unpagedLists in graph/limits.go):\n  %s", strings.Join(unpriced, "\n  "))
	}
	for _, table := range []map[string]int{unpagedLists, expensiveFields} {
		for key := range table {
			if !known[key] {
				t.Errorf("%s is priced but is not in the schema", key)
			}
		}
	}
}

// post sends a GraphQL request body to a handler without a store: whatever is refused must be
// refused before any resolver runs.
func post(t *testing.T, h http.Handler, body string) (*httptest.ResponseRecorder, time.Duration) {
	t.Helper()
	req := httptest.NewRequest("POST", "/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(rec, req)
	return rec, time.Since(start)
}

func query(q string) string {
	b, _ := json.Marshal(map[string]string{"query": q})
	return string(b)
}

func firstError(t *testing.T, rec *httptest.ResponseRecorder) (string, string) {
	t.Helper()
	var out struct {
		Errors []struct {
			Message    string
			Extensions map[string]any
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || len(out.Errors) == 0 {
		t.Fatalf("answer %d %.300s", rec.Code, rec.Body)
	}
	code, _ := out.Errors[0].Extensions["code"].(string)
	return code, out.Errors[0].Message
}

// Issue 12, findings 2–4: documents that cost far more than their size are refused quickly.
func TestDocumentLimits(t *testing.T) {
	h := NewHandler(&domain.App{})
	chain := func(n int, spread string) string {
		var b strings.Builder
		b.WriteString("fragment F0 on Organization { id title }\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "fragment F%d on Organization { %s }\n", i, strings.ReplaceAll(spread, "P", fmt.Sprintf("F%d", i-1)))
		}
		fmt.Fprintf(&b, "{ organizations { nodes { ...F%d } } }", n)
		return b.String()
	}
	aliases := func(n int, field string) string {
		var b strings.Builder
		b.WriteString("{ ")
		for i := range n {
			fmt.Fprintf(&b, "a%d: %s ", i, field)
		}
		b.WriteString("}")
		return b.String()
	}
	for _, tt := range []struct {
		name, body, code string
		status           int
	}{
		{"fragment chain", query(chain(30, "...P ...P")), "QUERY_TOO_LARGE", 200},
		{"fragment chain through fields", query(chain(30, "a: members { nodes { id } } ...P ...P")), "QUERY_TOO_LARGE", 200},
		{"many aliases", query(aliases(5000, "__typename")), "QUERY_TOO_LARGE", 200},
		{"many tokens", query("{ " + strings.Repeat("__typename ", 20000) + "}"), "QUERY_TOO_LARGE", 200},
		{"search aliases", query(aliases(400, `organization(id: "x") { search(query: "a") { nodes { __typename } } }`)), "COMPLEXITY_LIMIT_EXCEEDED", 200},
		{"nested lists", query(`{ organizations { nodes { spaces(first: 1000) { nodes { changeRequestList(first: 1000) { nodes { commentList(first: 1000) { nodes { replyList(first: 1000) { nodes { id } } } } } } } } } } }`), "COMPLEXITY_LIMIT_EXCEEDED", 200},
		{"deep page tree", query(`{ organizations { nodes { spaces { nodes { content { pages { pages { pages { pages { document } } } } } } } } } }`), "COMPLEXITY_LIMIT_EXCEEDED", 200},
		{"large body", `{"query":"{ __typename }","variables":{"x":"` + strings.Repeat("x", MaxBodyBytes) + `"}}`, "REQUEST_TOO_LARGE", 413},
		{"malformed body", `{"query": 5, "secret-input": "` + strings.Repeat("y", 1000) + `"}`, "BAD_REQUEST", 400},
		{"not JSON", `<xml>` + strings.Repeat("z", 1000), "BAD_REQUEST", 400},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec, took := post(t, h, tt.body)
			code, msg := firstError(t, rec)
			if code != tt.code || rec.Code != tt.status {
				t.Errorf("answer %d %s: %s; want %d %s", rec.Code, code, msg, tt.status, tt.code)
			}
			if took > time.Second {
				t.Errorf("took %v", took)
			}
			body := rec.Body.String()
			for _, leak := range []string{"yyyyyyyy", "zzzzzzzz", "xxxxxxxx", "RawParams", "Go struct", "string"} {
				if strings.Contains(body, leak) && tt.code == "BAD_REQUEST" && leak != "string" {
					t.Errorf("answer echoes %q: %.200s", leak, body)
				}
			}
		})
	}
	// Ordinary documents pass the checks (and fail later only for want of a token).
	for _, q := range []string{
		`{ organization(id: "x") { spaces(first: 20) { nodes { id title content { pages { id title pages { id } } } } } } }`,
		`{ organization(id: "x") { spaces(first: 1) { nodes { content { pages { document } } } } } }`,
		chain(8, "...P ...P"),
		aliases(100, "__typename"),
	} {
		rec, _ := post(t, h, query(q))
		if !strings.Contains(rec.Body.String(), `"errors"`) {
			continue
		}
		if code, msg := firstError(t, rec); code != "UNAUTHENTICATED" && code != "" {
			t.Errorf("%.80s: refused %s %s", q, code, msg)
		}
	}
}
