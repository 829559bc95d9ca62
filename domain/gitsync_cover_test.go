package domain

import (
	"encoding/json"
	"testing"

	"github.com/bindery/bindery/domain/gitsync"
	"github.com/bindery/bindery/domain/model"
	"github.com/google/go-cmp/cmp"
)

// TestCoverFrontMatter: a front matter cover's size the contract does not know and its mask
// come back on export from the page's Git metadata, unless the layout's size changed since.
func TestCoverFrontMatter(t *testing.T) {
	tests := []struct {
		name  string
		cover gitsync.Cover
		edit  func(*model.PageLayout)
		want  gitsync.Cover
	}{
		{"background and mask", gitsync.Cover{Visible: true, Size: "background", Mask: "none"}, nil,
			gitsync.Cover{Visible: true, Size: "background", Mask: "none"}},
		{"full", gitsync.Cover{Visible: false, Size: "full"}, nil, gitsync.Cover{Visible: false, Size: "full"}},
		{"no size", gitsync.Cover{Visible: true}, nil, gitsync.Cover{Visible: true, Size: "hero"}},
		{"background made full", gitsync.Cover{Visible: true, Size: "background", Mask: "none"},
			func(l *model.PageLayout) { l.CoverSize = "full" }, gitsync.Cover{Visible: true, Size: "full", Mask: "none"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			front := &gitsync.Layout{Cover: &tt.cover}
			layout := layoutFromFront(front)
			if tt.edit != nil {
				tt.edit(&layout)
			}
			b, _ := json.Marshal(layout)
			raw := string(b)
			got := layoutToFront(&raw, coverFromFront(front))
			if diff := cmp.Diff(tt.want, *got.Cover); diff != "" {
				t.Errorf("cover (-want +got):\n%s", diff)
			}
		})
	}
}
