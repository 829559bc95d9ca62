package text

import "testing"

func TestSlug(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Getting Started!", "getting-started"},
		{"  API  v2 -- Reference ", "api-v2-reference"},
		{"Café crème", "cafe-creme"},
		{"Straße", "strasse"},
		{"Привет, мир", "privet-mir"},
		{"Αθήνα", "athena"},
		{"Ελληνικά και English", "ellenika-kai-english"},
		{"Don’t panic", "don-t-panic"},
		{"🚀", ""},
		{"", ""},
	} {
		if got := Slug(c.in); got != c.want {
			t.Errorf("Slug(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSlugOf(t *testing.T) {
	if got := SlugOf("🚀 !!", 100, "page"); got != "page" {
		t.Errorf("a title without letters: %q, want the fallback", got)
	}
	if got := SlugOf("aaaa bbbb", 5, "x"); got != "aaaa" {
		t.Errorf("cut at a hyphen: %q, want %q", got, "aaaa")
	}
	if got := SlugOf("Москва", 100, "page"); got != "moskva" {
		t.Errorf("Cyrillic: %q", got)
	}
}

func TestUnique(t *testing.T) {
	taken := map[string]bool{"intro": true, "intro-2": true}
	has := func(s string) bool { return taken[s] }
	if got := Unique("intro", has); got != "intro-3" {
		t.Errorf("got %q, want intro-3", got)
	}
	if got := Unique("other", has); got != "other" {
		t.Errorf("a free slug changes: %q", got)
	}
}
