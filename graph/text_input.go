package graph

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/bindery/bindery/graph/apperr"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Text input holds no NUL character: PostgreSQL's text cannot store one (it answered 500), and
// no field has a use for it. Input is checked once where each door decodes it (REST's JSON bodies,
// paths and query strings; GraphQL's variables and literals), so that every operation inherits
// the rule: 400 / INVALID naming the field.

// FindNUL returns the path (a.b[2].c) of the first string in v, a decoded JSON value, that holds
// a NUL character, keys included; prefix names v itself.
func FindNUL(v any, prefix string) (string, bool) {
	switch v := v.(type) {
	case string:
		return prefix, strings.IndexByte(v, 0) >= 0
	case []any:
		for i, x := range v {
			if p, ok := FindNUL(x, fmt.Sprintf("%s[%d]", prefix, i)); ok {
				return p, true
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys) // the same field is named on every try
		for _, k := range keys {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			if strings.IndexByte(k, 0) >= 0 {
				return p, true
			}
			if p, ok := FindNUL(v[k], p); ok {
				return p, true
			}
		}
	}
	return "", false
}

// NULError is the refusal of text holding a NUL character in field.
func NULError(field string) error {
	return apperr.Invalidf(field, "must not contain a NUL character (\\u0000)")
}

// textInput refuses GraphQL operations whose variables or literal arguments hold a NUL
// character, naming the variable or argument.
type textInput struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = textInput{}

func (textInput) ExtensionName() string                   { return "TextInput" }
func (textInput) Validate(graphql.ExecutableSchema) error { return nil }

func (textInput) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if field, ok := FindNUL(map[string]any(oc.Variables), ""); ok {
		return nulError(field)
	}
	if oc.Doc == nil {
		return nil
	}
	var found string
	var walk func(set ast.SelectionSet)
	walkValue := func(name string, v *ast.Value) {
		if found != "" || v == nil {
			return
		}
		var visit func(path string, v *ast.Value)
		visit = func(path string, v *ast.Value) {
			if found != "" {
				return
			}
			if (v.Kind == ast.StringValue || v.Kind == ast.BlockValue || v.Kind == ast.EnumValue) && strings.IndexByte(v.Raw, 0) >= 0 {
				found = path
				return
			}
			for i, c := range v.Children {
				if v.Kind == ast.ListValue {
					visit(fmt.Sprintf("%s[%d]", path, i), c.Value)
				} else {
					visit(path+"."+c.Name, c.Value)
				}
			}
		}
		visit(name, v)
	}
	walk = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				for _, a := range s.Arguments {
					walkValue(a.Name, a.Value)
				}
				walk(s.SelectionSet)
			case *ast.InlineFragment:
				walk(s.SelectionSet)
			}
		}
	}
	for _, op := range oc.Doc.Operations {
		walk(op.SelectionSet)
	}
	for _, f := range oc.Doc.Fragments {
		walk(f.SelectionSet)
	}
	if found != "" {
		return nulError(found)
	}
	return nil
}

func nulError(field string) *gqlerror.Error {
	err := gqlerror.Errorf("%s", apperr.Message(NULError(field)))
	err.Extensions = map[string]any{"code": apperr.Invalid, "field": field}
	return err
}
