// Package textinput is the rule that input is text: UTF-8 without NUL characters, checked
// where each door decodes it.
package textinput

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/apperr"
)

// Text input is UTF-8 text without NUL characters: PostgreSQL's text cannot store a NUL (it
// answered 500), and JSON decoders silently turn bytes that are not UTF-8, and UTF-16 surrogates
// escaped alone (\ud800), into U+FFFD, which would store "��" in place of what was sent. So input
// is checked once, raw, where each door decodes it (REST's JSON bodies, paths and query strings;
// GraphQL's request body, variables and literals), and every operation inherits the rule: 400 /
// INVALID naming the field.

// Problem is what makes a string unacceptable as text; "" when nothing does.
type Problem string

const (
	NUL       Problem = "must not contain a NUL character (\\u0000)"
	NotUTF8   Problem = "must be valid UTF-8 text"
	Surrogate Problem = "must not contain a lone UTF-16 surrogate (\\ud800 to \\udfff)"
)

// Error is the refusal of text in field.
func Error(field string, problem Problem) error {
	return apperr.Invalidf(field, "%s", string(problem))
}

// NULError is the refusal of text holding a NUL character in field.
func NULError(field string) error { return Error(field, NUL) }

// Check is the problem of a decoded string (one that escapes no longer hide): a NUL
// character or bytes that are not UTF-8.
func Check(s string) Problem {
	if strings.IndexByte(s, 0) >= 0 {
		return NUL
	}
	if !utf8.ValidString(s) {
		return NotUTF8
	}
	return ""
}

// CheckLiteral is the problem of the source text of a JSON or GraphQL string literal, its
// escapes not yet decoded: a NUL character, raw or escaped; bytes that are not UTF-8; or a
// \uXXXX escape of a surrogate that is not half of a pair.
func CheckLiteral(raw []byte) Problem {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == 0:
			return NUL
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				return NotUTF8
			}
			i += size
		case c == '\\' && i+1 < len(raw) && raw[i+1] == 'u':
			r, ok := hex4(raw, i+2)
			switch {
			case !ok: // not an escape the decoder takes: its own error answers
				i += 2
			case r == 0:
				return NUL
			case utf16.IsSurrogate(r) && r < 0xdc00: // high: a low one must follow
				low, ok := rune(0), false
				if i+7 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
					low, ok = hex4(raw, i+8)
				}
				if !ok || low < 0xdc00 || low > 0xdfff {
					return Surrogate
				}
				i += 12
			case utf16.IsSurrogate(r): // a low one alone
				return Surrogate
			default:
				i += 6
			}
		case c == '\\':
			i += 2
		default:
			i++
		}
	}
	return ""
}

// hex4 reads the four hexadecimal digits at raw[i:].
func hex4(raw []byte, i int) (rune, bool) {
	if i+4 > len(raw) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(raw[i:i+4]), 16, 32)
	return rune(n), err == nil
}

// mayHoldBadText reports cheaply whether a JSON text might hold a string CheckLiteral refuses:
// bytes that are not UTF-8, or an escape of NUL or of a surrogate. Most bodies hold neither and
// are not walked.
func mayHoldBadText(body []byte) bool {
	if !utf8.Valid(body) || bytes.Contains(body, []byte(`\u0000`)) {
		return true
	}
	for i := bytes.Index(body, []byte(`\u`)); i >= 0 && i+3 < len(body); {
		if d := body[i+2]; (d == 'd' || d == 'D') && strings.IndexByte("89abcdefABCDEF", body[i+3]) >= 0 {
			return true
		}
		next := bytes.Index(body[i+2:], []byte(`\u`))
		if next < 0 {
			break
		}
		i += 2 + next
	}
	return false
}

// FindBadJSON checks every string of a JSON text, keys included, before it is decoded, and
// returns the first bad one's path (a.b[2].c; "" for the text itself) and problem. Malformed
// JSON is not its concern: the decoder's own error answers it.
func FindBadJSON(body []byte) (string, Problem) {
	if !mayHoldBadText(body) {
		return "", ""
	}
	type level struct {
		path    string
		array   bool
		index   int
		key     string
		wantKey bool
	}
	var stack []*level
	valuePath := func() string {
		if len(stack) == 0 {
			return ""
		}
		top := stack[len(stack)-1]
		if top.array {
			return fmt.Sprintf("%s[%d]", top.path, top.index)
		}
		if top.path == "" {
			return top.key
		}
		return top.path + "." + top.key
	}
	valueDone := func() {
		if len(stack) == 0 {
			return
		}
		if top := stack[len(stack)-1]; top.array {
			top.index++
		} else {
			top.wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var offset int64
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", "" // io.EOF, or malformed JSON
		}
		raw := body[offset:dec.InputOffset()] // the token, after the separators before it
		offset = dec.InputOffset()
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{', '[':
				stack = append(stack, &level{path: valuePath(), array: tok == '[', wantKey: tok == '{'})
			default:
				stack = stack[:len(stack)-1]
				valueDone()
			}
		case string:
			if top := len(stack) - 1; top >= 0 && stack[top].wantKey {
				stack[top].key, stack[top].wantKey = tok, false
				if p := CheckLiteral(raw); p != "" {
					return valuePath(), p
				}
				continue
			}
			if p := CheckLiteral(raw); p != "" {
				return valuePath(), p
			}
			valueDone()
		default:
			valueDone()
		}
	}
}

// FindBad returns the path (a.b[2].c) of the first string in v, a decoded JSON value, keys
// included, that Check refuses, and why; prefix names v itself.
func FindBad(v any, prefix string) (string, Problem) {
	switch v := v.(type) {
	case string:
		return prefix, Check(v)
	case []any:
		for i, x := range v {
			if p, problem := FindBad(x, fmt.Sprintf("%s[%d]", prefix, i)); problem != "" {
				return p, problem
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
			if problem := Check(k); problem != "" {
				return p, problem
			}
			if p, problem := FindBad(v[k], p); problem != "" {
				return p, problem
			}
		}
	}
	return "", ""
}
