package textinput_test

import (
	"testing"

	"github.com/bindery/bindery/domain/textinput"
)

func TestFindBadJSONText(t *testing.T) {
	for _, tt := range []struct {
		body, field string
		problem     textinput.Problem
	}{
		{`{"title":"Docs"}`, "", ""},
		{`{"title":"caf\u00e9 \ud83d\ude00"}`, "", ""},                // an escaped pair is one character
		{`{"title":"back\\u0000slash \\ud800"}`, "", ""},              // escaped backslashes: no escape follows
		{"{\"title\":\"\xff\xfe\"}", "title", textinput.NotUTF8},      // raw bytes that are not UTF-8
		{`{"title":"a\ud800b"}`, "title", textinput.Surrogate},        // a high surrogate alone
		{`{"title":"a\udc00"}`, "title", textinput.Surrogate},         // a low surrogate alone
		{`{"title":"a\ud800\u0041"}`, "title", textinput.Surrogate},   // a high one followed by no low one
		{`{"title":"\uD800"}`, "title", textinput.Surrogate},          // upper-case hex
		{`{"a":{"b":[1,{"c":"\u0000"}]}}`, "a.b[1].c", textinput.NUL}, // nested, NUL
		{`{"ok":"x","list":["fine","\udfff"]}`, "list[1]", textinput.Surrogate},
		{"{\"k\xff\":1}", "k\uFFFD", textinput.NotUTF8}, // a key, named as decoded
		{`"\ud800"`, "", textinput.Surrogate},           // the body itself
		{`{"title":"\ud800`, "", ""},                    // malformed: the decoder answers
	} {
		field, problem := textinput.FindBadJSON([]byte(tt.body))
		if field != tt.field || problem != tt.problem {
			t.Errorf("%q: (%q, %q), want (%q, %q)", tt.body, field, problem, tt.field, tt.problem)
		}
	}
}

func TestCheckText(t *testing.T) {
	for s, want := range map[string]textinput.Problem{"": "", "naïve": "", "a\x00": textinput.NUL, "\xff": textinput.NotUTF8, "\xed\xa0\x80": textinput.NotUTF8} {
		if got := textinput.Check(s); got != want {
			t.Errorf("CheckText(%q) = %q, want %q", s, got, want)
		}
	}
}
