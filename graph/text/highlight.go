package text

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Range is a part of a text in UTF-16 code units, as JavaScript counts string positions.
type Range struct {
	Start, Length int
}

// Highlights returns the ranges of text's words that are forms of the searched terms
// (WordMatches), in order.
func Highlights(text string, terms []string) []Range {
	out := []Range{}
	if len(terms) == 0 {
		return out
	}
	units := 0 // UTF-16 offset of byte i
	start, startUnits := -1, 0
	for i, r := range text + " " {
		if isWordRune(r) {
			if start < 0 {
				start, startUnits = i, units
			}
		} else if start >= 0 {
			w := strings.ToLower(text[start:i])
			for _, t := range terms {
				if WordMatches(t, w) {
					out = append(out, Range{Start: startUnits, Length: units - startUnits})
					break
				}
			}
			start = -1
		}
		units += utf16Len(r)
	}
	return out
}

func utf16Len(r rune) int {
	if r == utf8.RuneError {
		return 1
	}
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1
}

// FirstMatch returns the byte offset of text's first word that is a form of a searched term, or -1.
func FirstMatch(text string, terms []string) int {
	start := -1
	for i, c := range text + " " {
		if isWordRune(c) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := strings.ToLower(text[start:i])
			for _, t := range terms {
				if WordMatches(t, w) {
					return start
				}
			}
			start = -1
		}
	}
	return -1
}

// WordMatches tells whether a word of a text is a form of a searched term: a light English
// stemming (installing, installer and installation all match install) that approximates the
// databases' stemmers closely enough to place a snippet and its highlights.
func WordMatches(term, word string) bool {
	t, w := lightStem(term), lightStem(word)
	if strings.HasPrefix(w, t) {
		return true
	}
	return strings.HasPrefix(t, w) && len(w) >= 3 && len(t)-len(w) <= 2
}

func lightStem(w string) string {
	for _, suffix := range []string{"ations", "ation", "ings", "ing", "ers", "er", "edly", "ed", "ies", "es", "s", "ly", "ments", "ment"} {
		if strings.HasSuffix(w, suffix) && len(w)-len(suffix) >= 3 {
			return w[:len(w)-len(suffix)]
		}
	}
	return w
}
