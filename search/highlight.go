package search

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
	stems := termStems(terms)
	units := 0 // UTF-16 offset of byte i
	start, startUnits := -1, 0
	for i, r := range text + " " {
		if isWordRune(r) {
			if start < 0 {
				start, startUnits = i, units
			}
		} else if start >= 0 {
			if anyStemMatches(stems, text[start:i]) {
				out = append(out, Range{Start: startUnits, Length: units - startUnits})
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
	if len(terms) == 0 {
		return -1
	}
	stems := termStems(terms)
	start := -1
	for i, c := range text + " " {
		if isWordRune(c) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if anyStemMatches(stems, text[start:i]) {
				return start
			}
			start = -1
		}
	}
	return -1
}

// termStems are the terms' light stems, computed once per text rather than once per word and
// term (an organization search's 100 results with a typed word's 25 terms spent a quarter of
// the request stemming).
func termStems(terms []string) []string {
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = lightStem(t)
	}
	return out
}

// anyStemMatches tells whether a word of a text is a form of one of the terms, by their stems.
func anyStemMatches(stems []string, word string) bool {
	w := lightStem(strings.ToLower(word))
	for _, t := range stems {
		if stemsMatch(t, w) {
			return true
		}
	}
	return false
}

// WordMatches tells whether a word of a text is a form of a searched term: a light English
// stemming (installing, installer and installation all match install) that approximates the
// databases' stemmers closely enough to place a snippet and its highlights.
func WordMatches(term, word string) bool { return stemsMatch(lightStem(term), lightStem(word)) }

func stemsMatch(t, w string) bool {
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
