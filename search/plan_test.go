package search

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSearchTailCompletions(t *testing.T) {
	for _, c := range []struct {
		query string
		want  bool
	}{
		{"vot", false},
		{"zupa vot", true},
		{"the vot", false},     // a stop word narrows nothing
		{"-zupa vot", false},   // nor does an exclusion
		{"zupa OR vot", false}, // an alternative of its own
		{`"zupa" vot`, true},
		{"zupa OR a vot", false}, // "a" is a stop word
	} {
		q := ParseQuery(c.query)
		if got := followsOtherWords(q); got != c.want {
			t.Errorf("followsOtherWords(%q) = %v, want %v", c.query, got, c.want)
		}
	}
	got := shortest([]string{"vota", "votamaru", "votb", "votbe", "votc", "voto"}, 3)
	if want := []string{"vota", "votb", "votc"}; !cmp.Equal(got, want) {
		t.Errorf("shortest = %v, want %v", got, want)
	}
}
