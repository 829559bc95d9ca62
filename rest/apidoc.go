package rest

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/bindery/bindery/domain"
)

//go:generate go run ./openapigen

// contractJSON is the part of GitBook's OpenAPI contract that Bindery serves: the operations of
// the route table and the components they use, written by openapigen.
//
//go:embed openapi_contract.json
var contractJSON []byte

// OpenAPIPath is where the document is served, without a token.
const OpenAPIPath = "/v1/openapi.json"

// OpenAPI is the OpenAPI 3.1 description of the /v1 routes this server serves, built from the
// route table (Routes): each route takes GitBook's operation from the contract, with Bindery's
// decisions applied (204 on every successful DELETE; the Error body on every error), and Bindery's
// own routes (extensionRoutes) carry x-bindery-extension. Routes with no description at all are
// listed in x-bindery-undocumented (a test keeps that list empty).
func OpenAPI(serverURL, version string) map[string]any {
	var contract struct {
		Operations map[string]map[string]any `json:"operations"`
		Components map[string]any            `json:"components"`
	}
	if err := json.Unmarshal(contractJSON, &contract); err != nil {
		panic(fmt.Sprintf("rest: embedded openapi_contract.json: %v", err))
	}
	components := contract.Components
	schemas, _ := components["schemas"].(map[string]any)
	if schemas == nil {
		schemas = map[string]any{}
		components["schemas"] = schemas
	}
	for name, s := range extensionSchemas {
		schemas[name] = s
	}
	components["securitySchemes"] = map[string]any{
		"bearer": map[string]any{"type": "http", "scheme": "bearer", "description": "An API token (bdy_…): `bindery admin token create`."},
	}

	paths := map[string]any{}
	var undocumented []string
	for _, rt := range Routes() {
		path := SpecPath(rt.Path)
		key := rt.Method + " " + rt.Path
		op := contract.Operations[key]
		switch {
		case op != nil:
			op = deepCopy(op).(map[string]any)
			delete(op, "security") // GitBook's schemes; Bindery's bearer token applies to all

		case extensionOps[key] != nil:
			op = deepCopy(extensionOps[key]).(map[string]any)
		case eventOps[key] != nil:
			op = deepCopy(eventOps[key]).(map[string]any)
		default:
			undocumented = append(undocumented, key)
			op = map[string]any{"summary": "Undocumented", "responses": map[string]any{"200": map[string]any{"description": "OK"}}}
		}
		if IsExtension(rt.Method, rt.Path) {
			op["x-bindery-extension"] = true
		}
		addPathParams(op, path, components)
		applyDecisions(rt.Method, op)
		item, _ := paths[path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[path] = item
		}
		item[strings.ToLower(rt.Method)] = op
	}
	paths["/openapi.json"] = map[string]any{"get": map[string]any{
		"operationId": "getOpenAPI", "summary": "This document", "security": []any{}, "x-bindery-extension": true,
		"responses": map[string]any{"200": map[string]any{"description": "The OpenAPI 3.1 description of the routes this server serves.",
			"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"type": "object"}}}}},
	}}

	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":   "Bindery",
			"version": version,
			"description": "The GitBook-compatible management API of this Bindery server. Operations and schemas are GitBook's " +
				"(@gitbook/api 0.146.0) for the routes Bindery implements; x-bindery-extension marks Bindery's own. " +
				"Every successful DELETE answers 204; every error answers {\"error\":{\"code\",\"message\"}}. " +
				"Every answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset; past a limit the answer is 429 " +
				"with Retry-After. A POST with an Idempotency-Key header runs once: a retry with the same key and body gets the first answer.",
		},
		"servers":    []any{map[string]any{"url": strings.TrimRight(serverURL, "/") + "/v1"}},
		"security":   []any{map[string]any{"bearer": []any{}}},
		"paths":      paths,
		"components": components,
	}
	if len(undocumented) > 0 {
		doc["x-bindery-undocumented"] = undocumented
	}
	to31(doc)
	return doc
}

// serveOpenAPI answers GET /v1/openapi.json (no token: it describes the API, not its data).
func serveOpenAPI(res *domain.App) http.HandlerFunc {
	var (
		once sync.Once
		body []byte
	)
	return func(w http.ResponseWriter, _ *http.Request) {
		once.Do(func() {
			body, _ = json.Marshal(OpenAPI(res.Settings.PublicURL, res.Settings.Version))
		})
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "public, max-age=300")
		w.Write(body) //nolint:errcheck // the client went away
	}
}

var chiParam = regexp.MustCompile(`\{([^}:]+)(:[^}]*)?\}`)

// SpecPath turns a chi pattern into an OpenAPI path template: {id:regex} → {id}, and the
// wildcard that takes a page's path, slashes included (…/path/*), → {pagePath}.
func SpecPath(p string) string {
	if rest, ok := strings.CutSuffix(p, "/path/*"); ok {
		p = rest + "/path/{pagePath}"
	}
	return chiParam.ReplaceAllString(p, "{$1}")
}

// addPathParams declares every {param} of the path the operation does not declare already,
// reading referenced parameters' names from the components (a component's key need not be the
// parameter's name: openapiSpecSlug declares specSlug).
func addPathParams(op map[string]any, path string, components map[string]any) {
	params, _ := op["parameters"].([]any)
	shared, _ := components["parameters"].(map[string]any)
	declared := map[string]bool{}
	for _, p := range params {
		m, ok := p.(map[string]any)
		if !ok {
			continue
		}
		if ref, ok := m["$ref"].(string); ok {
			key := ref[strings.LastIndex(ref, "/")+1:]
			declared[key] = true // in case the component is missing: its key is the best guess
			if c, ok := shared[key].(map[string]any); ok {
				m = c
			}
		}
		if m["in"] == "path" {
			declared[fmt.Sprint(m["name"])] = true
		}
	}
	for _, m := range chiParam.FindAllStringSubmatch(path, -1) {
		if !declared[m[1]] {
			params = append(params, map[string]any{"name": m[1], "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		}
	}
	if len(params) > 0 {
		op["parameters"] = params
	}
}

// applyDecisions writes Bindery's answers where they differ from GitBook's documentation.
func applyDecisions(method string, op map[string]any) {
	responses, _ := op["responses"].(map[string]any)
	if responses == nil {
		responses = map[string]any{}
		op["responses"] = responses
	}
	if method == http.MethodDelete {
		for code := range responses {
			if strings.HasPrefix(code, "2") {
				delete(responses, code)
			}
		}
		responses["204"] = map[string]any{"description": "Done (Bindery answers every successful DELETE with 204 and no body)."}
	}
	if _, ok := responses["default"]; !ok {
		responses["default"] = map[string]any{"description": "An error.", "content": map[string]any{
			"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}}}
	}
}

// to31 rewrites OpenAPI 3.0 schema idioms of the contract as 3.1 (JSON Schema 2020-12) ones:
// nullable becomes a "null" type, boolean exclusive bounds become numeric ones.
func to31(v any) {
	switch x := v.(type) {
	case map[string]any:
		if n, ok := x["nullable"].(bool); ok {
			delete(x, "nullable")
			if n {
				switch t := x["type"].(type) {
				case string:
					x["type"] = []any{t, "null"}
				case nil:
					if _, isRef := x["$ref"]; !isRef {
						inner := map[string]any{}
						for k, val := range x {
							inner[k] = val
							delete(x, k)
						}
						x["anyOf"] = []any{inner, map[string]any{"type": "null"}}
						to31(inner)
						return
					}
				}
			}
		}
		for _, bound := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
			if b, ok := x[bound[0]].(bool); ok {
				delete(x, bound[0])
				if b {
					x[bound[0]] = x[bound[1]]
					delete(x, bound[1])
				}
			}
		}
		for _, val := range x {
			to31(val)
		}
	case []any:
		for _, val := range x {
			to31(val)
		}
	}
}

func deepCopy(v any) any {
	raw, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(raw, &out)
	return out
}

// extensionSchemas and extensionOps describe Bindery's own routes (extensionRoutes).
var extensionSchemas = map[string]any{
	"BinderyAPIToken": map[string]any{
		"type": "object", "required": []any{"id", "createdAt"},
		"properties": map[string]any{
			"id":         map[string]any{"type": "string"},
			"createdAt":  map[string]any{"type": "string", "format": "date-time"},
			"lastUsedAt": map[string]any{"type": "string", "format": "date-time", "description": "To the minute; absent when never used."},
			"expiresAt":  map[string]any{"type": "string", "format": "date-time", "description": "Absent when the token never expires."},
		},
	},
}

var extensionOps = map[string]map[string]any{
	"GET /user/tokens": {
		"operationId": "listUserAPITokens", "summary": "List the caller's API tokens, newest first (never their secrets)",
		"tags":       []any{"users"},
		"parameters": []any{map[string]any{"$ref": "#/components/parameters/listPage"}, map[string]any{"$ref": "#/components/parameters/listLimit"}},
		"responses": map[string]any{"200": map[string]any{"description": "The tokens", "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
			"allOf": []any{map[string]any{"$ref": "#/components/schemas/List"}, map[string]any{
				"type": "object", "required": []any{"items"},
				"properties": map[string]any{
					"items": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/components/schemas/BinderyAPIToken"}},
				},
			}},
		}}}}},
	},
	"DELETE /user/tokens/{tokenId}": {
		"operationId": "revokeUserAPIToken", "summary": "Revoke one of the caller's API tokens: it is refused from the next request on",
		"tags":      []any{"users"},
		"responses": map[string]any{"404": map[string]any{"description": "No such token of the caller's"}},
	},
}
