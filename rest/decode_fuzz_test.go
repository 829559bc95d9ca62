package rest

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
)

// FuzzDecodeBody checks that REST's body decoder never panics, answers any body it refuses with an
// Invalid error (a 400, never a 500) and accepts no NUL character in a string.
func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []string{
		`{"title":"Docs"}`, `{"title":"a\u0000b"}`, `{"title":5}`, `{"emoji":null,"title":"x"}`, `[]`, ``, `{`,
		`{"title":"\\u0000"}`, `{"visibility":"public","title":"` + strings.Repeat("x", 300) + `"}`, `{"a":{"b":[1,{"c":"\u0000"}]}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		start := time.Now()
		r := httptest.NewRequest("POST", "/v1/x", strings.NewReader(body))
		var in struct {
			model.CreateSpaceInput
			Extra map[string]any `json:"extra"`
		}
		err := decodeBody(httptest.NewRecorder(), r, &in)
		if err != nil && apperr.KindOf(err) != apperr.Invalid {
			t.Errorf("%q: %v is not Invalid", body, err)
		}
		if err == nil && in.Title != nil && strings.ContainsRune(*in.Title, 0) {
			t.Errorf("%q: a NUL was accepted", body)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("took %v", d)
		}
	})
}
