package graph

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bindery/bindery/domain/model"
)

// An input object inside an optional update field (opt.Field) is read by opt, by JSON name,
// not by gqlgen: every field the schema gives it must have a Go field of the same JSON name.
func TestOptionalInputObjectsReadEveryField(t *testing.T) {
	schema := NewExecutableSchema(Config{}).Schema()
	for name, typ := range map[string]reflect.Type{
		"MergeRulesInput":          reflect.TypeFor[model.MergeRules](),
		"MergeRuleInput":           reflect.TypeFor[model.MergeRule](),
		"SitePointerInput":         reflect.TypeFor[model.SitePointer](),
		"SiteAdaptiveContentInput": reflect.TypeFor[model.SiteAdaptiveContent](),
		"PageLayoutInput":          reflect.TypeFor[model.PageLayout](),
	} {
		def := schema.Types[name]
		if def == nil {
			t.Errorf("%s is not in the schema", name)
			continue
		}
		names := map[string]bool{}
		for i := range typ.NumField() {
			tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			names[tag] = true
		}
		for _, f := range def.Fields {
			if !names[f.Name] {
				t.Errorf("%s.%s has no Go field with JSON name %q in %s", name, f.Name, f.Name, typ)
			}
		}
	}
}
