package search

import (
	"reflect"
	"testing"
)

func TestHighlightsAndFirstMatchFindFormsOfTerms(t *testing.T) {
	text := "Before: Installing the Installer, then configuration"
	got := Highlights(text, []string{"install", "config"})
	want := []Range{{Start: 8, Length: 10}, {Start: 23, Length: 9}, {Start: 39, Length: 13}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Highlights = %v, want %v", got, want)
	}
	if at := FirstMatch(text, []string{"configure", "installs"}); at != 8 {
		t.Errorf("FirstMatch = %d, want 8", at)
	}
	if at := FirstMatch(text, nil); at != -1 {
		t.Errorf("FirstMatch without terms = %d", at)
	}
	if !WordMatches("install", "installation") || WordMatches("install", "inst") {
		t.Error("WordMatches")
	}
}
