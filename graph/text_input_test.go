package graph

import "testing"

func TestFindBadJSONText(t *testing.T) {
	for _, tt := range []struct {
		body, field string
		problem     TextProblem
	}{
		{`{"title":"Docs"}`, "", ""},
		{`{"title":"caf\u00e9 \ud83d\ude00"}`, "", ""},          // an escaped pair is one character
		{`{"title":"back\\u0000slash \\ud800"}`, "", ""},        // escaped backslashes: no escape follows
		{"{\"title\":\"\xff\xfe\"}", "title", TextNotUTF8},      // raw bytes that are not UTF-8
		{`{"title":"a\ud800b"}`, "title", TextSurrogate},        // a high surrogate alone
		{`{"title":"a\udc00"}`, "title", TextSurrogate},         // a low surrogate alone
		{`{"title":"a\ud800\u0041"}`, "title", TextSurrogate},   // a high one followed by no low one
		{`{"title":"\uD800"}`, "title", TextSurrogate},          // upper-case hex
		{`{"a":{"b":[1,{"c":"\u0000"}]}}`, "a.b[1].c", TextNUL}, // nested, NUL
		{`{"ok":"x","list":["fine","\udfff"]}`, "list[1]", TextSurrogate},
		{"{\"k\xff\":1}", "k\uFFFD", TextNotUTF8}, // a key, named as decoded
		{`"\ud800"`, "", TextSurrogate},           // the body itself
		{`{"title":"\ud800`, "", ""},              // malformed: the decoder answers
	} {
		field, problem := FindBadJSONText([]byte(tt.body))
		if field != tt.field || problem != tt.problem {
			t.Errorf("%q: (%q, %q), want (%q, %q)", tt.body, field, problem, tt.field, tt.problem)
		}
	}
}

func TestCheckText(t *testing.T) {
	for s, want := range map[string]TextProblem{"": "", "naïve": "", "a\x00": TextNUL, "\xff": TextNotUTF8, "\xed\xa0\x80": TextNotUTF8} {
		if got := CheckText(s); got != want {
			t.Errorf("CheckText(%q) = %q, want %q", s, got, want)
		}
	}
}
