package openapidoc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// itemsChain is a 3.0 document whose schema A is arrays of arrays, levels deep in all (the
// document, components and schemas are three more), ending in leaf.
func itemsChain(levels int, leaf string) string {
	return `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"A":` +
		strings.Repeat(`{"type":"array","items":`, levels-1) + leaf + strings.Repeat(`}`, levels-1) + `}}}`
}

// yamlChain is itemsChain in block YAML: each level is indented two more spaces.
func yamlChain(levels int) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A:\n")
	indent := "      "
	for range levels - 1 {
		b.WriteString(indent + "type: array\n" + indent + "items:\n")
		indent += "  "
	}
	b.WriteString(indent + "type: string\n")
	return b.String()
}

func wantProblem(t *testing.T, name string, err error, mention string) {
	t.Helper()
	var p *Problem
	if !errors.As(err, &p) || !strings.Contains(p.Message, mention) {
		t.Errorf("%s: %v, want a problem mentioning %q", name, err, mention)
	}
}

func TestNestingLimit(t *testing.T) {
	ctx := context.Background()
	limit := fmt.Sprint(MaxDepth)
	// The schema chain adds MaxDepth-3 levels to the document's own three: exactly at the limit.
	for name, doc := range map[string]string{"json": itemsChain(MaxDepth-3, `{"type":"string"}`), "yaml": yamlChain(MaxDepth - 3)} {
		if _, err := Parse(ctx, []byte(doc)); err != nil {
			t.Errorf("%s at the limit: %v", name, err)
		}
	}
	for name, doc := range map[string]string{
		"json one level over":   itemsChain(MaxDepth-2, `{"type":"string"}`),
		"yaml one level over":   yamlChain(MaxDepth - 2),
		"json 7,500 levels":     itemsChain(7500, `{"type":"string"}`),
		"yaml flow 7,500":       "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents: {schemas: {A: " + strings.Repeat("{type: array, items: ", 7500) + "{type: string}" + strings.Repeat("}", 7500) + "}}\n",
		"json deep in an array": `{"openapi":"3.1.0","info":{"title":"T","version":"1"},"x-a":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`,
	} {
		_, err := Parse(ctx, []byte(doc))
		wantProblem(t, name, err, limit)
	}
	// A quote in a plain YAML scalar does not start a string: the nesting after it counts.
	hidden := "{openapi: 3.0.3, info: {title: T, version: '1'}, paths: {}, components: {schemas: {A: {description: x\", items: " +
		strings.Repeat("{items: ", 300) + "{type: string}" + strings.Repeat("}", 300) + ", title: y\"}}}}"
	_, err := Parse(ctx, []byte(hidden))
	wantProblem(t, "yaml flow with quotes in plain scalars", err, limit)
	// So does a referenced file's, located at the file.
	root := `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"A":{"$ref":"deep.json#/A"}}}}`
	_, err = ParseURL(ctx, []byte(root), "https://example.com/openapi.json", func(context.Context, string) ([]byte, error) {
		return []byte(`{"A":` + strings.Repeat(`{"items":`, 300) + `{}` + strings.Repeat(`}`, 300) + `}`), nil
	})
	wantProblem(t, "a referenced file 300 levels deep", err, limit)
	if p := (*Problem)(nil); errors.As(err, &p) && p.Location != "deep.json" {
		t.Errorf("a referenced file too deep: located at %q, want deep.json", p.Location)
	}
	// Brackets inside strings are text, not nesting.
	doc := `{"openapi":"3.1.0","info":{"title":"` + strings.Repeat(`{[\"`, 1000) + `","version":"1"}}`
	if _, err := Parse(ctx, []byte(doc)); err != nil {
		t.Errorf("brackets in a string: %v", err)
	}
}

// A document within the depth limit is still refused when its decoding would cost too much: a
// large value at the bottom of a deep chain is decoded again at every level above it.
func TestNestingWork(t *testing.T) {
	ctx := context.Background()
	leaf := `{"type":"string","description":"` + strings.Repeat("x", 1<<20) + `"}`
	_, err := Parse(ctx, []byte(itemsChain(200, leaf)))
	wantProblem(t, "1 MiB 200 levels deep", err, fmt.Sprint(MaxWork))
	if _, err := Parse(ctx, []byte(itemsChain(8, leaf))); err != nil {
		t.Errorf("1 MiB 8 levels deep: %v", err)
	}
	// The budget is shared with the files a fetched document references.
	root := `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"A":{"$ref":"a.json#/A"},"B":{"$ref":"b.json#/B"}}}}`
	file := func(name string) []byte {
		return []byte(`{"` + name + `":` + strings.Repeat(`{"type":"array","items":`, 44) + leaf + strings.Repeat(`}`, 44) + `}`)
	}
	_, err = ParseURL(ctx, []byte(root), "https://example.com/openapi.json", func(_ context.Context, url string) ([]byte, error) {
		return file(strings.ToUpper(strings.TrimPrefix(url, "https://example.com/")[:1])), nil
	})
	wantProblem(t, "two files of 1 MiB 45 levels deep", err, fmt.Sprint(MaxWork))
}

// Refusing a deep document costs work in proportion to its size: it is refused before the
// library decodes it (which costs size times depth). Allocations count the work.
func TestNestingRefusalIsLinear(t *testing.T) {
	ctx := context.Background()
	for name, doc := range map[string]func(levels int) string{
		"json": func(n int) string { return itemsChain(n, `{"type":"string"}`) },
		"yaml": func(n int) string {
			return "openapi: 3.0.3\ninfo: {title: T, version: '1'}\ncomponents: {schemas: {A: " + strings.Repeat("{type: array, items: ", n) + "{type: string}" + strings.Repeat("}", n) + "}}\n"
		},
	} {
		allocs := func(n int) float64 {
			d := []byte(doc(n))
			return testing.AllocsPerRun(1, func() {
				if _, err := Parse(ctx, d); err == nil {
					t.Fatalf("%s %d levels: accepted", name, n)
				}
			})
		}
		small, large := allocs(1000), allocs(4000)
		if large > 4.5*small+10 {
			t.Errorf("%s: %v allocations for 1,000 levels, %v for 4,000: more than 4 times", name, small, large)
		}
	}
}

func TestParseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	doc := []byte(itemsChain(10, `{"type":"string"}`))
	if _, err := Parse(ctx, doc); !errors.Is(err, context.Canceled) {
		t.Errorf("Parse: %v, want the context's error", err)
	}
	if _, err := ParseURL(ctx, doc, "https://example.com/openapi.json", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("ParseURL: %v, want the context's error", err)
	}
	// A large document looks at its context while it is scanned, not only before.
	n := 0
	counting := countingCtx{Context: context.Background(), after: 3, calls: &n}
	if _, err := checkNesting(counting, []byte(itemsChain(8, `{"type":"string","description":"`+strings.Repeat("x", 1<<20)+`"}`)), "document", MaxWork); !errors.Is(err, context.Canceled) || n < 3 {
		t.Errorf("scan of 1 MiB: %v after %d looks at the context", err, n)
	}
}

// countingCtx is cancelled from its after-th look at Err on.
type countingCtx struct {
	context.Context
	after int
	calls *int
}

func (c countingCtx) Err() error {
	if *c.calls++; *c.calls >= c.after {
		return context.Canceled
	}
	return nil
}
