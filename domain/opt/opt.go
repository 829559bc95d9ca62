// Package opt is a value of an update input that may be absent, null or set: the PATCH
// semantics of both doors. A JSON body's missing key and a GraphQL input's missing field leave
// a Field unset; null sets it to T's zero value (a nil pointer).
//
// It reads JSON (REST bodies) and GraphQL input values (gqlgen calls UnmarshalGQL for a field
// whose type it does not know, which keeps the domain free of gqlgen's own Omittable).
package opt

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Field is an input value that may be absent. The zero Field is absent.
type Field[T any] struct {
	value T
	set   bool
}

// Of is a Field set to v.
func Of[T any](v T) Field[T] { return Field[T]{value: v, set: true} }

// IsSet reports whether the input had the field, null included.
func (f Field[T]) IsSet() bool { return f.set }

// Value is the field's value, T's zero value when absent or null.
func (f Field[T]) Value() T { return f.value }

// ValueOK is the field's value and whether the input had the field.
func (f Field[T]) ValueOK() (T, bool) { return f.value, f.set }

// IsZero reports an absent field, so that `json:",omitzero"` leaves it out.
func (f Field[T]) IsZero() bool { return !f.set }

// MarshalJSON writes the value (null when absent).
func (f Field[T]) MarshalJSON() ([]byte, error) { return json.Marshal(f.value) }

// UnmarshalJSON sets the field: JSON null gives T's zero value.
func (f *Field[T]) UnmarshalJSON(b []byte) error {
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	f.value, f.set = v, true
	return nil
}

// MarshalGQL writes the value as JSON, which is how GraphQL writes every leaf value it knows.
func (f Field[T]) MarshalGQL(w io.Writer) {
	b, err := json.Marshal(f.value)
	if err != nil {
		b = []byte("null")
	}
	_, _ = w.Write(b)
}

// UnmarshalGQL sets the field from a GraphQL input value (already validated against the schema
// and coerced by the executor): nil, a string, a number, a boolean, a list or an object.
func (f *Field[T]) UnmarshalGQL(v any) error { return f.setFrom(v) }

func (f *Field[T]) setFrom(v any) error {
	var out T
	if err := decode(v, reflect.ValueOf(&out).Elem()); err != nil {
		return err
	}
	f.value, f.set = out, true
	return nil
}

// gqlUnmarshaler is a type that reads its own GraphQL form (enums and scalars of the model).
type gqlUnmarshaler interface{ UnmarshalGQL(v any) error }

var timeType = reflect.TypeFor[time.Time]()

// decode stores the GraphQL input value v in to.
func decode(v any, to reflect.Value) error {
	if f, ok := to.Addr().Interface().(interface{ setFrom(any) error }); ok {
		return f.setFrom(v) // a Field inside an input object: null sets it
	}
	if v == nil {
		to.SetZero()
		return nil
	}
	if to.Kind() == reflect.Pointer {
		p := reflect.New(to.Type().Elem())
		if err := decode(v, p.Elem()); err != nil {
			return err
		}
		to.Set(p)
		return nil
	}
	if u, ok := to.Addr().Interface().(gqlUnmarshaler); ok {
		return u.UnmarshalGQL(v)
	}
	if to.Type() == timeType {
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%v is not a time", v)
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return err
		}
		to.Set(reflect.ValueOf(t))
		return nil
	}
	switch to.Kind() {
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%v is not a string", v)
		}
		to.SetString(s)
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("%v is not a boolean", v)
		}
		to.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(number(v), 10, 64)
		if err != nil || to.OverflowInt(n) {
			return fmt.Errorf("%v is not an integer of this size", v)
		}
		to.SetInt(n)
	case reflect.Float32, reflect.Float64:
		n, err := strconv.ParseFloat(number(v), 64)
		if err != nil {
			return fmt.Errorf("%v is not a number", v)
		}
		to.SetFloat(n)
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			list = []any{v} // GraphQL coerces a single value into a list of one
		}
		s := reflect.MakeSlice(to.Type(), len(list), len(list))
		for i, item := range list {
			if err := decode(item, s.Index(i)); err != nil {
				return err
			}
		}
		to.Set(s)
	case reflect.Map, reflect.Interface:
		rv := reflect.ValueOf(v)
		if !rv.Type().AssignableTo(to.Type()) {
			return fmt.Errorf("%v cannot be read as %s", v, to.Type())
		}
		to.Set(rv)
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%v is not an object", v)
		}
		return decodeObject(obj, to)
	default:
		return fmt.Errorf("cannot read a GraphQL value as %s", to.Type())
	}
	return nil
}

// decodeObject stores an input object's fields in the struct to, each by its JSON name (the
// model's JSON names are its GraphQL names).
func decodeObject(obj map[string]any, to reflect.Value) error {
	t := to.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = strings.ToLower(sf.Name[:1]) + sf.Name[1:]
		}
		v, ok := obj[name]
		if !ok {
			continue
		}
		if err := decode(v, to.Field(i)); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// number is the text of a numeric GraphQL value (int, int64, float64 or json.Number).
func number(v any) string {
	switch n := v.(type) {
	case json.Number:
		return string(n)
	case string:
		return "" // GraphQL never coerces a string into a number
	default:
		return fmt.Sprint(n)
	}
}
