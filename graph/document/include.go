package document

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark/text"
)

// Reusable content: GitBook keeps it in files of its own (.gitbook/includes/…) and pages include
// it with {% include "path" %}. Given an IncludeResolver, the tag becomes the contract's
// reusable-content block, and the included document is the block's "reusable-content" fragment
// (Bindery's, so that readers, search and evaluation see the content in place; Contract drops
// it). A tag that resolves nowhere, includes itself or nests too deep stays a content-ref to the
// path as written, which the reader shows as a missing reusable content.

// Include is a reusable content as a page includes it: its id and its markdown (without front
// matter).
type Include struct {
	ID, Markdown string
}

// IncludeResolver finds the reusable content an include tag's path names; ok=false when none.
type IncludeResolver func(src string) (Include, bool)

// maxIncludeDepth bounds how deep includes nest: a reusable content may include another, but
// not itself, and not without end.
const maxIncludeDepth = 4

// ConvertWith is Convert resolving include tags with includes (nil: none resolve).
func ConvertWith(markdownText string, files FileResolver, includes IncludeResolver) (Document, error) {
	return convert(markdownText, files, includes)
}

// include converts an include tag: the reusable content with its document, or a content-ref.
func (c *converter) include(t *tagBlock) Node {
	src := t.Attrs["src"]
	inc, ok := Include{}, false
	if c.includes != nil && len(c.including) < maxIncludeDepth {
		inc, ok = c.includes(src)
	}
	if !ok || slices.Contains(c.including, inc.ID) {
		return c.voidBlock("content-ref", map[string]any{"ref": c.ref(src)})
	}
	b := c.voidBlock("reusable-content", map[string]any{"ref": map[string]any{"kind": "reusable-content", "reusableContent": inc.ID}})
	key := c.key()
	sub := &converter{src: []byte(strings.ReplaceAll(inc.Markdown, "\r\n", "\n")), files: c.files, includes: c.includes,
		n: c.n, depth: c.depth, including: append(slices.Clone(c.including), inc.ID)}
	root := markdown.Parser().Parse(text.NewReader(sub.src))
	sub.notes = footnotes(root)
	nodes := sub.blocks(root)
	c.n, c.over = sub.n, c.over || sub.over
	if len(nodes) == 0 {
		nodes = []Node{c.emptyParagraph()}
	}
	b.Fragments = []Fragment{{Key: key, Fragment: "reusable-content", Type: "reusable-content", Nodes: nodes}}
	return b
}

// includesDir is where GitBook keeps reusable content.
const includesDir = ".gitbook/includes/"

// IncludeKey names a reusable content by its path under .gitbook/includes/, the same whether
// written from the repository's root (".gitbook/includes/footer.md") or relative to a page
// ("../../.gitbook/includes/footer.md"); a path outside that folder is named by its last segment.
func IncludeKey(p string) string {
	if i := strings.LastIndex(p, includesDir); i >= 0 {
		return p[i+len(includesDir):]
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// SearchTextIncluding is SearchText with the reusable contents a page includes read in place:
// included maps IncludeKey of each reusable content's path to its markdown (without front
// matter), and its id is its key.
func SearchTextIncluding(markdownText string, included map[string]string) string {
	if len(included) == 0 {
		return SearchText(markdownText)
	}
	return SearchTextWith(markdownText, func(src string) (Include, bool) {
		key := IncludeKey(src)
		md, ok := included[key]
		return Include{ID: key, Markdown: md}, ok
	})
}
