package graph

import (
	"context"
	"fmt"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/textinput"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// textInput refuses GraphQL operations whose variables or literal arguments are not text (see
// textinput.Check, textinput.CheckLiteral), naming the variable or argument. Variables sent as JSON were checked
// raw before decoding (boundRequest); this catches those of GET and multipart requests that JSON
// decoding left invalid, and literals.
type textInput struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = textInput{}

func (textInput) ExtensionName() string                   { return "TextInput" }
func (textInput) Validate(graphql.ExecutableSchema) error { return nil }

func (textInput) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if field, problem := textinput.FindBad(map[string]any(oc.Variables), ""); problem != "" {
		return textError(field, problem)
	}
	if oc.Doc == nil {
		return nil
	}
	var found string
	var problem textinput.Problem
	// Only a document with an escape can hide a lone surrogate in a literal: the others are not
	// read again.
	escapes, source := strings.Contains(oc.RawQuery, `\u`), []rune(nil)
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
			if v.Kind == ast.StringValue || v.Kind == ast.BlockValue || v.Kind == ast.EnumValue {
				if problem = textinput.Check(v.Raw); problem == "" && escapes && v.Position != nil {
					// The lexer decoded escapes already (a lone \ud800 became U+FFFD): read the
					// literal's source, whose position counts runes, not bytes.
					if source == nil {
						source = []rune(oc.RawQuery)
					}
					if v.Position.Start >= 0 && v.Position.End <= len(source) && v.Position.Start <= v.Position.End {
						problem = textinput.CheckLiteral([]byte(string(source[v.Position.Start:v.Position.End])))
					}
				}
				if problem != "" {
					found = path
					return
				}
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
		return textError(found, problem)
	}
	return nil
}

func textError(field string, problem textinput.Problem) *gqlerror.Error {
	err := gqlerror.Errorf("%s", apperr.Message(textinput.Error(field, problem)))
	err.Extensions = map[string]any{"code": apperr.Invalid, "field": field}
	return err
}
