// Package sitestyle holds a site's look and feel as GitBook's contract describes it
// (SiteCustomizationSettings): its defaults, its validation against the contract's own schemas,
// site spaces' overrides merged over it, and the colors the reader derives from it, kept
// readable whatever colors are chosen (contrast.go). It also validates a site's adaptive schema
// (the JSON schema of its visitors' claims), which the contract defines beside it.
//
// contract.json is the part of the GitBook API 0.146.0 specification these documents need
// (components.schemas SiteCustomizationSettings, SiteAdaptiveJSONSchema, the site-space override
// body as SiteSpaceCustomizationOverride, and what they refer to), copied unchanged.
package sitestyle

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

//go:embed contract.json
var contractJSON []byte

// MaxDocument bounds a stored customization or adaptive schema.
const MaxDocument = 64 << 10

var schemas = sync.OnceValue(func() openapi3.Schemas {
	doc, err := openapi3.NewLoader().LoadFromData(contractJSON)
	if err != nil {
		panic(fmt.Sprintf("sitestyle: embedded contract.json: %v", err))
	}
	if err := doc.Validate(context.Background()); err != nil {
		panic(fmt.Sprintf("sitestyle: embedded contract.json: %v", err))
	}
	return doc.Components.Schemas
})

// The documents this package validates, by their schema's name in contract.json.
const (
	Settings       = "SiteCustomizationSettings"
	Override       = "SiteSpaceCustomizationOverride"
	AdaptiveSchema = "SiteAdaptiveJSONSchema"
)

// InvalidError is a document that its schema refuses: Field is where (a JSON pointer's path,
// dotted), Msg why.
type InvalidError struct{ Field, Msg string }

func (e *InvalidError) Error() string { return e.Field + ": " + e.Msg }

// Validate checks raw against the schema named (Settings, Override, AdaptiveSchema), refusing
// fields the contract does not define too, and returns it decoded.
func Validate(schema string, raw []byte) (map[string]any, error) {
	if len(raw) > MaxDocument {
		return nil, &InvalidError{"", fmt.Sprintf("must be at most %d bytes", MaxDocument)}
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil || doc == nil {
		return nil, &InvalidError{"", "must be a JSON object"}
	}
	return doc, ValidateValue(schema, doc)
}

// ValidateValue is Validate for a decoded document.
func ValidateValue(schema string, doc map[string]any) error {
	s := schemas()[schema].Value
	if err := unknownFields(s, doc, ""); err != nil {
		return err
	}
	err := s.VisitJSON(doc, openapi3.MultiErrors(), openapi3.EnableFormatValidation(),
		openapi3.WithStringFormatValidator("uri", openapi3.NewCallbackValidator(validURI)),
		openapi3.WithStringFormatValidator("emoji", openapi3.NewCallbackValidator(func(string) error { return nil })))
	if err == nil {
		return nil
	}
	return firstProblem(err)
}

// firstProblem turns the validator's errors into one InvalidError: the deepest field refused,
// so that a oneOf's message names what is wrong inside it.
func firstProblem(err error) error {
	var best *openapi3.SchemaError
	var walk func(error)
	walk = func(err error) {
		var multi openapi3.MultiError
		if errors.As(err, &multi) {
			for _, e := range multi {
				walk(e)
			}
			return
		}
		var se *openapi3.SchemaError
		if errors.As(err, &se) {
			if best == nil || len(se.JSONPointer()) > len(best.JSONPointer()) {
				best = se
			}
			if se.Origin != nil {
				walk(se.Origin)
			}
		}
	}
	walk(err)
	if best == nil {
		return &InvalidError{"", "is not valid"}
	}
	return &InvalidError{strings.Join(best.JSONPointer(), "."), best.Reason}
}

// validURI accepts absolute http(s) URLs only: a site's logo or link must not run script.
func validURI(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return errors.New("must be an absolute http or https URL")
	}
	return nil
}

// unknownFields refuses the fields of an object that its schema does not name, where the schema
// names its fields and says nothing of others: a misspelt setting is an error, not ignored.
func unknownFields(s *openapi3.Schema, v any, at string) error {
	switch v := v.(type) {
	case map[string]any:
		for _, alt := range append(append(openapi3.SchemaRefs{}, s.AllOf...), s.OneOf...) {
			if alt.Value != nil && alt.Value.Type.Is("object") && len(alt.Value.Properties) > 0 && len(s.OneOf) == 0 {
				return unknownFields(alt.Value, v, at)
			}
		}
		if !s.Type.Is("object") || len(s.Properties) == 0 || s.AdditionalProperties.Schema != nil {
			return nil
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p, ok := s.Properties[k]
			if !ok {
				return &InvalidError{strings.TrimPrefix(at+"."+k, "."), "is not a setting"}
			}
			if err := unknownFields(p.Value, v[k], at+"."+k); err != nil {
				return err
			}
		}
	case []any:
		if s.Items == nil {
			return nil
		}
		for i, x := range v {
			if err := unknownFields(s.Items.Value, x, fmt.Sprintf("%s.%d", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Defaults is the customization of a site that has set none: GitBook's defaults, with no
// header links, footer or announcement.
func Defaults() map[string]any {
	color := func(c string) map[string]any { return map[string]any{"light": c, "dark": c} }
	return map[string]any{
		"styling": map[string]any{
			"theme": "clean", "primaryColor": color("#346DDB"), "infoColor": color("#787878"),
			"successColor": color("#00C950"), "warningColor": color("#FE9A00"), "dangerColor": color("#FB2C36"),
			"corners": "rounded", "depth": "subtle", "links": "default", "font": "Inter", "monospaceFont": "IBMPlexMono",
			"background": "plain", "icons": "regular", "sidebar": map[string]any{"background": "default", "list": "default"},
			"search": "subtle",
		},
		"internationalization":  map[string]any{"locale": "en"},
		"favicon":               map[string]any{},
		"header":                map[string]any{"preset": "default", "links": []any{}},
		"footer":                map[string]any{"groups": []any{}},
		"themes":                map[string]any{"default": "light", "toggeable": true},
		"pdf":                   map[string]any{"enabled": true},
		"feedback":              map[string]any{"enabled": false},
		"ai":                    map[string]any{"mode": "search"},
		"advancedCustomization": map[string]any{"enabled": true},
		"trademark":             map[string]any{"enabled": false},
		"externalLinks":         map[string]any{"target": "self"},
		"pagination":            map[string]any{"enabled": true},
		"pageActions":           map[string]any{"externalAI": false, "markdown": true, "mcp": false},
		"git":                   map[string]any{"showEditLink": false},
		"privacyPolicy":         map[string]any{},
		"socialPreview":         map[string]any{},
		"insights":              map[string]any{"trackingCookie": true},
	}
}

// Merge applies an override to a document as a JSON merge patch (RFC 7386): objects merge field
// by field, null removes a field (the site's value shows again), anything else replaces. Neither
// argument is changed.
func Merge(doc, patch map[string]any) map[string]any {
	out := make(map[string]any, len(doc))
	for k, v := range doc {
		out[k] = v
	}
	for k, p := range patch {
		switch p := p.(type) {
		case nil:
			delete(out, k)
		case map[string]any:
			base, _ := out[k].(map[string]any)
			out[k] = Merge(base, p)
		default:
			out[k] = p
		}
	}
	return out
}
