package storage

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Slug is the URL form of a title: lowercase ASCII letters and digits joined by single hyphens,
// accents dropped (é → e), everything else a separator. Only search's heading anchors
// (search_text.go) still use it; page slugs and site paths come from graph/text, which also
// transliterates other scripts.
func Slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFKD.String(strings.ToLower(title)) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		case unicode.Is(unicode.Mn, r):
			// combining accents fall away
		default:
			dash = true
		}
	}
	return b.String()
}
