package document

import (
	"strings"

	"github.com/yuin/goldmark/text"
)

// ConvertReusable converts a reusable content on its own, as the contract's reusable-content
// document reads show it: relative references start from its file (Include.Path), as where it
// is included, and the includes inside it resolve with includes (never itself).
func ConvertReusable(inc Include, files FileResolver, includes IncludeResolver) (Document, error) {
	src := []byte(strings.ReplaceAll(inc.Markdown, "\r\n", "\n"))
	root := markdown.Parser().Parse(text.NewReader(src))
	c := &converter{src: src, files: files, notes: footnotes(root), includes: includes,
		including: []string{inc.ID}, base: includeBase(inc.Path)}
	nodes := c.blocks(root)
	if nodes == nil {
		nodes = []Node{}
	}
	doc := Document{Object: "document", Data: map[string]any{}, Nodes: nodes}
	if c.over {
		return doc, ErrTooLarge
	}
	return doc, nil
}
