package domain

import (
	"testing"

	"github.com/bindery/bindery/storage"
	"github.com/google/go-cmp/cmp"
)

// An outline's order is total: positions first, then sections before groups, then ids; reading
// order goes depth first.
func TestSiteTreeOrder(t *testing.T) {
	in := func(id string) *string { return &id }
	tree := siteTree{&storage.SiteOutline{
		Sections: []*storage.SiteSection{
			{ID: "b", Position: 1},
			{ID: "a", Position: 1},
			{ID: "in-g", GroupID: in("g"), Position: 0},
			{ID: "in-h", GroupID: in("h"), Position: 0},
		},
		Groups: []*storage.SiteSectionGroup{
			{ID: "g", Position: 1},
			{ID: "h", ParentID: in("g"), Position: 1},
		},
	}}
	want := []storage.OutlineItem{{ID: "a"}, {ID: "b"}, {Group: true, ID: "g"}}
	if got := tree.Children(nil); !cmp.Equal(got, want) {
		t.Errorf("root = %v, want %v", got, want)
	}
	walk := []storage.OutlineItem{{ID: "a"}, {ID: "b"}, {Group: true, ID: "g"}, {ID: "in-g"}, {Group: true, ID: "h"}, {ID: "in-h"}}
	if got := tree.Walk(); !cmp.Equal(got, walk) {
		t.Errorf("walk = %v, want %v", got, walk)
	}
	if p := tree.parentOf(storage.OutlineItem{ID: "in-h"}); p == nil || *p != "h" {
		t.Errorf("parent of in-h = %v", p)
	}
	if !tree.inside("h", "g") || tree.inside("g", "h") {
		t.Errorf("inside: h is in g, g is not in h")
	}
	if got := tree.nextPosition(nil); got != 2 {
		t.Errorf("next position at the root = %d, want 2", got)
	}
}
