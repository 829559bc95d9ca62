package opt

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

type level string

// UnmarshalGQL reads the GraphQL form (upper case), as the model's enums do.
func (l *level) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok || s != strings.ToUpper(s) {
		return errors.New("not a level")
	}
	*l = level(strings.ToLower(s))
	return nil
}

type rule struct {
	Kind  level    `json:"kind"`
	Users []string `json:"users,omitempty"`
}

type rules struct {
	Type  level          `json:"type"`
	Rules []*rule        `json:"rules"`
	Limit *int           `json:"limit"`
	Title Field[*string] `json:"title"`
}

func TestJSONKeepsAbsentNullAndSet(t *testing.T) {
	var in struct {
		A Field[*string] `json:"a"`
		B Field[*string] `json:"b"`
		C Field[*string] `json:"c"`
	}
	if err := json.Unmarshal([]byte(`{"b":null,"c":"x"}`), &in); err != nil {
		t.Fatal(err)
	}
	if in.A.IsSet() || !in.B.IsSet() || in.B.Value() != nil || !in.C.IsSet() || *in.C.Value() != "x" {
		t.Errorf("absent, null, set = %+v %+v %+v", in.A, in.B, in.C)
	}
	if v, ok := in.A.ValueOK(); ok || v != nil {
		t.Error("an absent field has no value")
	}
	out, err := json.Marshal(struct {
		A Field[*string] `json:"a,omitzero"`
		C Field[*string] `json:"c,omitzero"`
	}{in.A, in.C})
	if err != nil || string(out) != `{"c":"x"}` {
		t.Errorf("marshal = %s, %v; want the absent field left out", out, err)
	}
}

func TestGraphQLValues(t *testing.T) {
	var s Field[*string]
	if err := s.UnmarshalGQL(nil); err != nil || !s.IsSet() || s.Value() != nil {
		t.Errorf("null: %+v, %v", s, err)
	}
	var l Field[*level]
	if err := l.UnmarshalGQL("ADMIN"); err != nil || *l.Value() != "admin" {
		t.Errorf("an enum reads its GraphQL form through its UnmarshalGQL: %+v, %v", l, err)
	}
	if err := l.UnmarshalGQL("admin"); err == nil {
		t.Error("an enum's own refusal is kept")
	}
	var list Field[[]string]
	if err := list.UnmarshalGQL("one"); err != nil || !reflect.DeepEqual(list.Value(), []string{"one"}) {
		t.Errorf("a single value is a list of one: %+v, %v", list, err)
	}
	var r Field[*rules]
	in := map[string]any{"type": "RULES", "limit": int64(3), "title": nil, "rules": []any{map[string]any{"kind": "SOME", "users": []any{"u1"}}}}
	if err := r.UnmarshalGQL(in); err != nil {
		t.Fatal(err)
	}
	got := r.Value()
	if got.Type != "rules" || *got.Limit != 3 || len(got.Rules) != 1 || got.Rules[0].Kind != "some" || got.Rules[0].Users[0] != "u1" || !got.Title.IsSet() || got.Title.Value() != nil {
		t.Errorf("nested input object = %+v", got)
	}
	var n Field[*int]
	if err := n.UnmarshalGQL(json.Number("12")); err != nil || *n.Value() != 12 {
		t.Errorf("json.Number: %+v, %v", n, err)
	}
	var small Field[*int8]
	if err := small.UnmarshalGQL(int64(1000)); err == nil {
		t.Error("an integer too large for its field is refused")
	}
	var when Field[*time.Time]
	if err := when.UnmarshalGQL("2026-11-28T10:00:00Z"); err != nil || when.Value().Hour() != 10 {
		t.Errorf("time: %+v, %v", when, err)
	}
	var b Field[*bool]
	if err := b.UnmarshalGQL("true"); err == nil {
		t.Error("a string is not a boolean")
	}
	var m Field[map[string]any]
	if err := m.UnmarshalGQL(map[string]any{"k": "v"}); err != nil || m.Value()["k"] != "v" {
		t.Errorf("map: %+v, %v", m, err)
	}
}
