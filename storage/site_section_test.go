package storage_test

import (
	"testing"

	"github.com/bindery/bindery/storage"
	"github.com/google/go-cmp/cmp"
)

// An outline's order is total: positions first, then sections before groups, then ids; reading
// order goes depth first.
func TestSiteOutlineOrder(t *testing.T) {
	o := &storage.SiteOutline{
		Sections: []*storage.SiteSection{
			{ID: "b", Position: 1},
			{ID: "a", Position: 1},
			{ID: "in-g", GroupID: ptr("g"), Position: 0},
			{ID: "in-h", GroupID: ptr("h"), Position: 0},
		},
		Groups: []*storage.SiteSectionGroup{
			{ID: "g", Position: 1},
			{ID: "h", ParentID: ptr("g"), Position: 1},
		},
	}
	want := []storage.OutlineItem{{ID: "a"}, {ID: "b"}, {Group: true, ID: "g"}}
	if got := o.Children(nil); !cmp.Equal(got, want) {
		t.Errorf("root = %v, want %v", got, want)
	}
	walk := []storage.OutlineItem{{ID: "a"}, {ID: "b"}, {Group: true, ID: "g"}, {ID: "in-g"}, {Group: true, ID: "h"}, {ID: "in-h"}}
	if got := o.Walk(); !cmp.Equal(got, walk) {
		t.Errorf("walk = %v, want %v", got, walk)
	}
	if p := o.ParentOf(storage.OutlineItem{ID: "in-h"}); p == nil || *p != "h" {
		t.Errorf("parent of in-h = %v", p)
	}
}
