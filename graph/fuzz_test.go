package graph

import (
	"context"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/bindery/bindery/domain/expr"
)

// The fuzz targets bound work by what they can count, not by the clock (a loaded machine slows
// any step): allocations, which a loop that went quadratic or unbounded multiplies.

// wantAllocsAtMost fails when one call of fn allocates more than limit times.
func wantAllocsAtMost(t *testing.T, limit float64, fn func()) {
	t.Helper()
	if n := testing.AllocsPerRun(1, fn); n > limit {
		t.Errorf("%.0f allocations, want at most %.0f", n, limit)
	}
}

// FuzzDocumentLimits checks that the checks run before validation never panic and stay linear on
// any document (they parse it and count fields with fragments expanded once each).
func FuzzDocumentLimits(f *testing.F) {
	for _, seed := range []string{
		`{ __typename }`, `fragment A on Query { __typename ...A } { ...A }`, `{ a: __typename b: __typename }`,
		`fragment F1 on Q { ...F0 ...F0 } fragment F0 on Q { x } { ...F1 }`, `{`, `query($x: String = "\u0000") { f(a: $x) }`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, q string) {
		wantAllocsAtMost(t, 8*float64(len(q))+64, func() {
			_ = documentLimits{}.MutateOperationParameters(context.Background(), &graphql.RawParams{Query: q})
		})
	})
}

// FuzzBoundedEvaluation checks that visitor conditions, checked and evaluated, never panic and
// stay within the evaluator's budget whatever they hold. The budget charges values by size, not
// allocations; the heaviest seed (sorting 100,000 numbers) allocates about 650,000 times, so four
// million is far past any condition the budget admits, and far below one it failed to stop.
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
		wantAllocsAtMost(t, 4_000_000, func() {
			_ = expr.CheckCondition(condition)
			_ = expr.ConditionHolds(condition, claims)
		})
	})
}
