// Command openapigen writes rest/openapi_contract.json: the operations of GitBook's API contract
// that Bindery serves (those in rest.Routes()) and the components they refer to, no more. The
// server embeds it to describe itself at GET /v1/openapi.json (see rest/openapi.go). Run it with
// `go generate ./rest` after adding a route; it reads the contract that .ci/fetch-contract
// downloads (or $BINDERY_CONTRACT_SPEC).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bindery/bindery/rest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "openapigen:", err)
		os.Exit(1)
	}
}

func run() error {
	path := os.Getenv("BINDERY_CONTRACT_SPEC")
	if path == "" {
		path = filepath.Join("..", ".cache", "gitbook-api-0.146.0", "openapi.json")
	}
	raw, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		// Do not fail everyone's `go generate ./...` for want of npm: keep the committed file.
		fmt.Fprintf(os.Stderr, "openapigen: %s is missing (run .ci/fetch-contract); openapi_contract.json left as it is\n", path)
		return nil
	}
	if err != nil {
		return err
	}
	var spec struct {
		Paths      map[string]map[string]any `json:"paths"`
		Components map[string]map[string]any `json:"components"`
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		return err
	}
	ops := map[string]any{}
	refs := map[string]bool{}
	for _, rt := range rest.Routes() {
		item := spec.Paths[rest.SpecPath(rt.Path)]
		if item == nil {
			continue
		}
		op, ok := item[strings.ToLower(rt.Method)]
		if !ok {
			continue
		}
		// Path-level parameters apply to every method: fold them into the operation.
		if params, ok := item["parameters"].([]any); ok {
			m := op.(map[string]any)
			own, _ := m["parameters"].([]any)
			m["parameters"] = append(params, own...)
		}
		ops[rt.Method+" "+rt.Path] = op
		collect(op, refs)
	}
	refs["#/components/schemas/Error"] = true // every error answer has this shape
	components := map[string]map[string]any{}
	for len(refs) > 0 {
		var next = map[string]bool{}
		for ref := range refs {
			parts := strings.Split(strings.TrimPrefix(ref, "#/components/"), "/")
			if len(parts) != 2 {
				return fmt.Errorf("unexpected $ref %s", ref)
			}
			if components[parts[0]] == nil {
				components[parts[0]] = map[string]any{}
			}
			if _, done := components[parts[0]][parts[1]]; done {
				continue
			}
			v := spec.Components[parts[0]][parts[1]]
			if v == nil {
				return fmt.Errorf("dangling $ref %s", ref)
			}
			components[parts[0]][parts[1]] = v
			collect(v, next)
		}
		refs = next
	}
	// Indented, so that a new route shows as a readable diff.
	out, err := json.MarshalIndent(map[string]any{"source": "@gitbook/api@0.146.0 spec/openapi.json", "operations": ops, "components": components}, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile("openapi_contract.json", append(out, '\n'), 0o644)
}

func collect(v any, refs map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if s, ok := val.(string); ok && k == "$ref" {
				refs[s] = true
				continue
			}
			collect(val, refs)
		}
	case []any:
		for _, val := range x {
			collect(val, refs)
		}
	}
}
