package expr

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/document"
)

var (
	testEnv = Env{
		SpaceVars: map[string]string{"version": "2.4.1", "product": "bindery", "count": "3", "empty": ""},
		PageVars:  map[string]string{"title": "Install", "odd key": "x"},
	}
	testNow = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
)

func clock() time.Time { return testNow }

func TestEvaluator(t *testing.T) {
	tests := []struct {
		expression string
		want       string
		err        string // substring of the error, when one is expected
	}{
		// Variables.
		{`space.vars.version`, "2.4.1", ""},
		{`page.vars.title`, "Install", ""},
		{`page.vars["odd key"]`, "x", ""},
		{`space.vars.empty`, "", ""},
		{`space.vars.product + " " + space.vars.version`, "bindery 2.4.1", ""},
		{`upper(space.vars.product)`, "BINDERY", ""},
		{`space.vars.product | upper()`, "BINDERY", ""},
		{`int(space.vars.count) * 2`, "6", ""},
		{`split(space.vars.version, ".")[0]`, "2", ""},
		{`join(map(split(space.vars.version, "."), int(#) + 1), ".")`, "3.5.2", ""},
		{`let v = space.vars.version; v startsWith "2" ? "current" : "old"`, "current", ""},
		{`len(space.vars.product)`, "7", ""},
		{`space.vars.product[0:3]`, "bin", ""},
		// Undefined variables.
		{`space.vars.missing`, "", "undefined variable space.vars.missing"},
		{`page.vars["missing"]`, "", "undefined variable page.vars.missing"},
		{`$env.space.vars.missing`, "", "undefined variable space.vars.missing"},
		{`$env.page.vars.title`, "Install", ""},
		{`space.vars.missing ?? "none"`, "none", ""},
		{`space.vars?.missing ?? "none"`, "none", ""},
		{`space.vars?.missing`, "", ""},
		{`get(space.vars, "missing")`, "", ""},
		{`default(space.vars?.missing, "fallback")`, "fallback", ""},
		{`default(space.vars.empty, "fallback")`, "fallback", ""},
		{`default(space.vars.version, "fallback")`, "2.4.1", ""},
		{`site.vars.x`, "", "unknown name site"},
		{`space.nope`, "", "has no field nope"},
		// Result types.
		{`"text"`, "text", ""},
		{`42`, "42", ""},
		{`-7`, "-7", ""},
		{`2.5 * 2`, "5", ""},
		{`10 / 4`, "2.5", ""},
		{`0.1 + 0.2`, "0.30000000000000004", ""},
		{`1e21 * 10`, "1e+22", ""},
		{`1 / 0`, "+Inf", ""},
		{`true`, "true", ""},
		{`1 > 2`, "false", ""},
		{`nil`, "", ""},
		{`[1, "a", true, nil]`, `[1,"a",true,null]`, ""},
		{`{"b": 1, "a": [2]}`, `{"a":[2],"b":1}`, ""},
		{`page.vars`, `{"odd key":"x","title":"Install"}`, ""},
		{`date("2024-01-02")`, "2024-01-02T00:00:00Z", ""},
		{`date("2024-01-02 10:00", "2006-01-02 15:04", "Europe/Paris")`, "2024-01-02T10:00:00+01:00", ""},
		{`date("2024-01-02").Year()`, "2024", ""},
		{`duration("90m")`, "1h30m0s", ""},
		{`date("2024-02-01") - date("2024-01-01")`, "744h0m0s", ""},
		// Built-ins.
		{`capitalize("éclair")`, "Éclair", ""},
		{`capitalize("")`, "", ""},
		{`repeat("ab", 3)`, "ababab", ""},
		{`replace("a.b.c", ".", "/")`, "a/b/c", ""},
		{`join(["a", "b"])`, "ab", ""},
		{`join([1, 2.5, true], "-")`, "1-2.5-true", ""},
		{`uniq([1, 1.0, "a", "a", [1], [1], nil, nil])`, `[1,"a",[1],null]`, ""},
		{`trim("  a  ")`, "a", ""},
		{`lower("ABC")`, "abc", ""},
		{`sum(1..10)`, "55", ""},
		{`sortBy(["b", "c", "a"], #)`, `["a","b","c"]`, ""},
		{`now()`, "2026-03-04T05:06:07Z", ""},
		{`now().Year()`, "2026", ""},
		{`now().Format("Jan 2006")`, "Mar 2026", ""},
		{`today()`, "2026-03-04", ""},
		{`date()`, "2026-03-04T05:06:07Z", ""},
		{`now().In(timezone("Asia/Tokyo")).Hour()`, "14", ""},
		{`now() == now()`, "true", ""},
		// Errors.
		{``, "", "empty expression"},
		{`   `, "", "empty expression"},
		{`1 +`, "", "unexpected token EOF (1:3)"},
		{`"a" + 1`, "", "mismatched types string and int"},
		{`unknown()`, "", "unknown name unknown"},
		{`int("x")`, "", `invalid operation: int(x)`},
		{`[1][5]`, "", "index out of range"},
		{`date("yesterday")`, "", "invalid date yesterday"},
		{`timezone("Nowhere/Else")`, "", "unknown time zone"},
		{`repeat("a", -1)`, "", "invalid argument for repeat"},
		{`repeat(space.vars.product, space.vars.count)`, "", "not an integer"},
		{`capitalize(get(space.vars, "missing"))`, "", "capitalize: argument 1 is <nil>, not a string"},
	}
	eval := Evaluator(testEnv, All, clock)
	for _, tt := range tests {
		t.Run(tt.expression, func(t *testing.T) {
			got, ok, err := eval(tt.expression)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %q, %v, error %v; want an error with %q", got, ok, err, tt.err)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("error on several lines: %q", err)
				}
				if ok || got != "" {
					t.Errorf("error with a value: %q, %v", got, ok)
				}
				return
			}
			if err != nil || !ok {
				t.Fatalf("got %q, ok=%v, error %v; want %q", got, ok, err, tt.want)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	tests := []struct {
		expression string
		evaluated  bool
		err        bool
	}{
		{`space.vars.version`, true, false},
		{`date("2024-01-02").Year()`, true, false},
		{`upper("a") + lower("B")`, true, false},
		{`now()`, false, false},
		{`now().Year()`, false, false},
		{`today()`, false, false},
		{`date()`, false, false},
		{`date().Year() > 2000 ? "new" : "old"`, false, false},
		{`map(1..3, now())`, false, false},
		{`space.vars.version + today()`, false, false},
		{`now(`, false, true},                       // does not compile: an error in any mode
		{`space.vars.missing + now()`, false, true}, // undefined variable: an error in any mode
	}
	eval := Evaluator(testEnv, Deterministic, func() time.Time {
		t.Error("the clock was read under Deterministic")
		return testNow
	})
	all := Evaluator(testEnv, All, clock)
	for _, tt := range tests {
		t.Run(tt.expression, func(t *testing.T) {
			_, ok, err := eval(tt.expression)
			if (err != nil) != tt.err || ok != tt.evaluated {
				t.Errorf("Deterministic: ok=%v err=%v; want ok=%v, error %v", ok, err, tt.evaluated, tt.err)
			}
			_, ok, err = all(tt.expression)
			if (err != nil) != tt.err || ok == tt.err {
				t.Errorf("All: ok=%v err=%v; want error %v", ok, err, tt.err)
			}
		})
	}
}

// TestBudgets runs pathological expressions: each must fail with an error, quickly, and without
// taking the memory it asks for.
func TestBudgets(t *testing.T) {
	doublings := `let v0 = "xxxxxxxxxxxxxxxx"`
	for i := 1; i <= 40; i++ {
		doublings += fmt.Sprintf("; let v%d = v%d + v%d", i, i-1, i-1)
	}
	nested := "let a = [1,2,3,4,5,6,7,8]; let b = [a,a,a,a,a,a,a,a]; let c = [b,b,b,b,b,b,b,b]; let d = [c,c,c,c,c,c,c,c]; " +
		"let e = [d,d,d,d,d,d,d,d]; let f = [e,e,e,e,e,e,e,e]; let g = [f,f,f,f,f,f,f,f]; "
	tests := []struct{ name, expression, err string }{
		{"too long", `"` + strings.Repeat("x", MaxLength) + `"`, "longer than 1024 characters"},
		{"too many nodes", "1" + strings.Repeat("+1", maxNodes), "exceeds maximum allowed nodes"},
		{"string doubling", `reduce(1..64, #acc + #acc, "x")`, "budget"},
		{"string doubling with let", doublings + "; len(v40)", "budget"},
		{"repeat", `repeat("x", 1000000000)`, "budget"},
		{"repeat of a long string", `repeat(repeat("x", 10000), 10000)`, "budget"},
		{"replace growth", `replace(repeat("x", 10000), "x", repeat("y", 10000))`, "budget"},
		{"join growth", `join(map(1..10000, "x"), repeat("-", 10000))`, "budget"},
		{"large range", `len(1..100000000)`, "budget"},
		{"nested loops", `count(1..1000, count(1..1000, count(1..1000, true) > 0) > 0)`, "budget"},
		{"shared nesting flattened", nested + `len(flatten(g))`, "budget"},
		{"shared nesting as text", nested + `len(string(g))`, "budget"},
		{"shared nesting as result", nested + `g`, "budget"},
		{"shared nesting in max", nested + `max(g)`, "budget"},
		{"uniq of many lists", `len(uniq(map(1..3000, [#])))`, "budget"},
		// Predicates over numbers charge nothing by their values: each iteration is charged its
		// body's size, so loops are bounded by the budget, not only by the clock.
		{"long predicate", `all(1..250000, ` + strings.Repeat("# >= 0 && ", 40) + `true)`, "budget"},
		{"nested predicates", `count(1..500, count(1..500, # > 0) == 500)`, "budget"},
		{"reduce chain", `reduce(1..250000, #acc + # * 2 - 1 + # % 7, 0)`, "budget"},
		{"sortBy", `len(sortBy(1..200000, -# * 3 + # % 5))`, "budget"},
		{"long comparisons", `let s = repeat("x", 100000); count(1..100000, s == s + "")`, "budget"},
	}
	eval := Evaluator(testEnv, All, clock)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			got, ok, err := eval(tt.expression)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("got %.40q, ok=%v, error %v; want an error with %q", got, ok, err, tt.err)
			}
			if d := time.Since(start); d > 2*timeLimit {
				t.Errorf("took %v", d)
			}
		})
	}
	// Within the budget, real work is fine; the length limit counts characters.
	for _, e := range []string{`"` + strings.Repeat("é", MaxLength-2) + `"`, `len(repeat("x", 100000))`, `sum(1..100000)`, `len(join(map(1..10000, "ab"), ","))`} {
		if _, ok, err := eval(e); err != nil || !ok {
			t.Errorf("%s: ok=%v, error %v", e, ok, err)
		}
	}
}

func TestNeverPanics(t *testing.T) {
	eval := Evaluator(Env{}, All, func() time.Time { panic("clock broke") })
	_, ok, err := eval(`now()`)
	if err == nil || ok {
		t.Errorf("ok=%v, error %v; want an error", ok, err)
	}
	// A nil clock reads the system's.
	got, ok, err := Evaluator(Env{}, All, nil)(`now().Year() >= 2025`)
	if err != nil || !ok || got != "true" {
		t.Errorf("nil clock: %q, %v, %v", got, ok, err)
	}
	// Nil variable maps are empty ones.
	if _, _, err := eval(`space.vars.x`); err == nil || !strings.Contains(err.Error(), "undefined variable") {
		t.Errorf("nil maps: %v", err)
	}
}

func TestConcurrentUse(t *testing.T) {
	eval := Evaluator(testEnv, All, clock)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			for range 50 {
				got, ok, err := eval(`space.vars.version + "-" + string(` + string(rune('0'+i%10)) + `)`)
				if err != nil || !ok || got != "2.4.1-"+string(rune('0'+i%10)) {
					t.Errorf("got %q, %v, %v", got, ok, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestWithDocuments evaluates a page's content through domain/document, as a page read with
// evaluated=true or deterministic-only does.
func TestWithDocuments(t *testing.T) {
	e := func(s string) string { return `<code class="expression">` + s + `</code>` }
	markdown := "# " + e("space.vars.product") + " " + e("space.vars.version") + "\n\n" +
		"Updated " + e("today()") + ". Broken: " + e("space.vars.nope") + ". Bad: " + e("1 +") + ".\n\n" +
		"`" + e("space.vars.version") + "` stays code.\n"

	t.Run("document, all", func(t *testing.T) {
		doc := document.Evaluate(document.FromMarkdown(markdown, nil), Evaluator(testEnv, All, clock))
		b, _ := json.Marshal(doc)
		want := `{"object":"document","data":{},"nodes":[` +
			`{"object":"block","type":"heading-1","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"bindery 2.4.1","marks":[]}]}]},` +
			`{"object":"block","type":"paragraph","key":"4","data":{},"nodes":[` +
			`{"object":"text","leaves":[{"object":"leaf","text":"Updated 2026-03-04. Broken: ","marks":[]}]},` +
			`{"object":"inline","type":"expression","key":"6","isVoid":true,"data":{"error":"undefined variable space.vars.nope","expression":"space.vars.nope"}},` +
			`{"object":"text","leaves":[{"object":"leaf","text":". Bad: ","marks":[]}]},` +
			`{"object":"inline","type":"expression","key":"7","isVoid":true,"data":{"error":"unexpected token EOF (1:3)","expression":"1 +"}},` +
			`{"object":"text","leaves":[{"object":"leaf","text":".","marks":[]}]}]},` +
			`{"object":"block","type":"paragraph","key":"8","data":{},"nodes":[{"object":"text","leaves":[` +
			`{"object":"leaf","text":"\u003ccode class=\"expression\"\u003espace.vars.version\u003c/code\u003e","marks":[{"object":"mark","type":"code","data":{}}]},` +
			`{"object":"leaf","text":" stays code.","marks":[]}]}]}]}`
		if string(b) != want {
			t.Errorf("got\n%s\nwant\n%s", b, want)
		}
	})

	t.Run("document, deterministic only", func(t *testing.T) {
		doc := document.Evaluate(document.FromMarkdown(markdown, nil), Evaluator(testEnv, Deterministic, clock))
		b, _ := json.Marshal(doc.Nodes[1])
		want := `{"object":"block","type":"paragraph","key":"4","data":{},"nodes":[` +
			`{"object":"text","leaves":[{"object":"leaf","text":"Updated ","marks":[]}]},` +
			`{"object":"inline","type":"expression","key":"5","isVoid":true,"data":{"expression":"today()"}},` +
			`{"object":"text","leaves":[{"object":"leaf","text":". Broken: ","marks":[]}]},` +
			`{"object":"inline","type":"expression","key":"6","isVoid":true,"data":{"error":"undefined variable space.vars.nope","expression":"space.vars.nope"}},` +
			`{"object":"text","leaves":[{"object":"leaf","text":". Bad: ","marks":[]}]},` +
			`{"object":"inline","type":"expression","key":"7","isVoid":true,"data":{"error":"unexpected token EOF (1:3)","expression":"1 +"}},` +
			`{"object":"text","leaves":[{"object":"leaf","text":".","marks":[]}]}]}`
		if string(b) != want {
			t.Errorf("got\n%s\nwant\n%s", b, want)
		}
	})

	t.Run("markdown, all", func(t *testing.T) {
		got, errs := document.EvaluateMarkdown(markdown, Evaluator(testEnv, All, clock))
		want := "# bindery 2.4.1\n\n" +
			"Updated 2026-03-04. Broken: " + e("space.vars.nope") + ". Bad: " + e("1 +") + ".\n\n" +
			"`" + e("space.vars.version") + "` stays code.\n"
		if got != want {
			t.Errorf("got\n%q\nwant\n%q", got, want)
		}
		wantErrs := map[string]string{"space.vars.nope": "undefined variable space.vars.nope", "1 +": "unexpected token EOF (1:3)"}
		if len(errs) != len(wantErrs) || errs["space.vars.nope"] != wantErrs["space.vars.nope"] || errs["1 +"] != wantErrs["1 +"] {
			t.Errorf("errors %v, want %v", errs, wantErrs)
		}
	})

	t.Run("markdown, deterministic only", func(t *testing.T) {
		got, _ := document.EvaluateMarkdown(markdown, Evaluator(testEnv, Deterministic, clock))
		if !strings.Contains(got, "Updated "+e("today()")+".") || !strings.HasPrefix(got, "# bindery 2.4.1\n") {
			t.Errorf("got %q", got)
		}
	})
}

func TestDeadline(t *testing.T) {
	r := &run{budget: maxSize, deadline: time.Now().Add(-time.Millisecond)}
	if err := r.charge("x"); err != errTimeout {
		t.Errorf("charge after the deadline: %v", err)
	}
	if err := message(fmt.Errorf("wrapped: %w", errTimeout)); err != errTimeout {
		t.Errorf("message: %v", err)
	}
}

// FuzzEvaluator checks that any expression evaluates without panicking, within the time limit,
// and gives either a value or an error.
func FuzzEvaluator(f *testing.F) {
	for _, seed := range []string{
		`space.vars.version`, `upper(page.vars.title) + "!"`, `map(1..3, # * 2)`, `now().Format("2006")`,
		`reduce(1..9, #acc + #acc, "x")`, `{"a": [1, {"b": nil}]}`, `space.vars?.x ?? default(nil, 1)`,
		`let x = split("a,b", ","); join(uniq(x + x), "|")`, `date("2024-01-02", "2006-01-02", "UTC")`,
	} {
		f.Add(seed)
	}
	eval := Evaluator(testEnv, All, clock)
	f.Fuzz(func(t *testing.T, expression string) {
		start := time.Now()
		got, ok, err := eval(expression)
		if err != nil && (ok || got != "") {
			t.Errorf("error %v with value %q, ok=%v", err, got, ok)
		}
		if err == nil && !ok {
			t.Errorf("left under All: %q", expression)
		}
		if d := time.Since(start); d > 3*timeLimit {
			t.Errorf("took %v", d)
		}
	})
}

func TestClaimsRead(t *testing.T) {
	got, err := ClaimsRead(`visitor.claims.plan == "pro" && visitor.claims.unsigned.beta && visitor.claims.org.id > 3 || !visitor.claims?.plan`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "org,plan,unsigned.beta" {
		t.Errorf("ClaimsRead = %v", got)
	}
	if _, err := ClaimsRead(`visitor.claims.plan ==`); err == nil {
		t.Error("a syntax error was read")
	}
}
