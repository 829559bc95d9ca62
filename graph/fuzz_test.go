package graph

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/bindery/bindery/graph/expr"
	"github.com/bindery/bindery/graph/text"
)

// FuzzSearchQuery checks that the search query parser never panics and is fast on any input.
func FuzzSearchQuery(f *testing.F) {
	for _, seed := range []string{`install guide`, `"exact phrase" -draft OR api`, `-`, `"unclosed`, `a OR OR b`, strings.Repeat("x ", 500)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, q string) {
		start := time.Now()
		_ = text.ParseQuery(q)
		if d := time.Since(start); d > time.Second {
			t.Errorf("took %v", d)
		}
	})
}

// FuzzDocumentLimits checks that the checks run before validation never panic and stay fast on
// any document (they parse it and count fields with fragments expanded once each).
func FuzzDocumentLimits(f *testing.F) {
	for _, seed := range []string{
		`{ __typename }`, `fragment A on Query { __typename ...A } { ...A }`, `{ a: __typename b: __typename }`,
		`fragment F1 on Q { ...F0 ...F0 } fragment F0 on Q { x } { ...F1 }`, `{`, `query($x: String = "\u0000") { f(a: $x) }`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, q string) {
		start := time.Now()
		_ = documentLimits{}.MutateOperationParameters(context.Background(), &graphql.RawParams{Query: q})
		if d := time.Since(start); d > time.Second {
			t.Errorf("took %v", d)
		}
	})
}

// FuzzBoundedEvaluation checks that visitor conditions, checked and evaluated, never panic and
// stay within the evaluator's time limit whatever they hold.
func FuzzBoundedEvaluation(f *testing.F) {
	for _, seed := range []string{
		`visitor.claims.plan == "pro"`, `len(repeat(reduce(1..20, #acc + #acc, "ab"), 1000000)) > 0`,
		`all(1..250000, # >= 0 && # >= 0)`, `count(1..500, count(1..500, # > 0) == 500) > 0`,
		`visitor.claims.n > 3 || "x" in visitor.claims.tags`, `sortBy(1..100000, -#)[0] > 0`,
	} {
		f.Add(seed)
	}
	claims := map[string]any{"plan": "pro", "n": 4, "tags": []any{"x", "y"}}
	f.Fuzz(func(t *testing.T, condition string) {
		start := time.Now()
		_ = expr.CheckCondition(condition)
		_ = expr.ConditionHolds(condition, claims)
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("took %v", d)
		}
	})
}
