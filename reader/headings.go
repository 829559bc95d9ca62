package reader

import "slices"

// headingLevels gives a document's headings their HTML levels under the page title (h1) so that
// the page's heading order skips no level: the heading types the document uses, in order, become
// h2, h3, h4 (a page whose first heading is "##" starts at h2, not h3), and a heading never goes
// more than one level deeper than the one before it.
type headingLevels struct {
	level map[string]int // heading type → HTML level
	last  int
}

func newHeadingLevels(nodes []node) *headingLevels {
	used := map[string]bool{}
	var walk func([]node)
	walk = func(nodes []node) {
		for _, n := range nodes {
			if n.Type == "heading-1" || n.Type == "heading-2" || n.Type == "heading-3" {
				used[n.Type] = true
			}
			walk(n.Nodes)
			for _, f := range n.Fragments {
				walk(f.Nodes)
			}
		}
	}
	walk(nodes)
	h := &headingLevels{level: map[string]int{}, last: 1}
	types := make([]string, 0, len(used))
	for t := range used {
		types = append(types, t)
	}
	slices.Sort(types) // heading-1 < heading-2 < heading-3
	for i, t := range types {
		h.level[t] = 2 + i
	}
	return h
}

// next is the level of the document's next heading, of type typ.
func (h *headingLevels) next(typ string) int {
	level := min(h.level[typ], h.last+1)
	h.last = level
	return level
}
