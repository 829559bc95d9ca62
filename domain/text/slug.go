// Package text holds the graph's rules about text that need no database: slugs, and the rule
// that makes a slug unique among its neighbours.
package text

import (
	"fmt"
	"strings"

	"github.com/gosimple/unidecode"
)

// Slug is the URL form of a title: lowercase ASCII letters and digits joined by single hyphens.
// Other scripts are transliterated first (Привет → privet, Αθήνα → athena, café → cafe, straße →
// strasse), so a title in any language gets a readable slug; whatever is left that is not a
// letter or digit separates words.
func Slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(unidecode.Unidecode(title)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
	}
	return b.String()
}

// SlugOf is Slug cut to at most max bytes (never ending in a hyphen), or fallback when the
// title leaves nothing (only punctuation or emoji, say).
func SlugOf(title string, max int, fallback string) string {
	s := Slug(title)
	if len(s) > max {
		s = strings.TrimRight(s[:max], "-")
	}
	if s == "" {
		return fallback
	}
	return s
}

// Unique returns base if taken does not hold it, else the first of base-2, base-3, … that it
// does not hold. Page slugs among siblings, site paths within a site and heading anchors within a
// page (document.Anchors) follow this one rule.
func Unique(base string, taken func(string) bool) string {
	candidate := base
	for n := 2; taken(candidate); n++ {
		candidate = fmt.Sprintf("%s-%d", base, n)
	}
	return candidate
}
