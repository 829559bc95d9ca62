package document

import (
	"net/url"
	"path"
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

// Include is a reusable content as a page includes it: its id, its markdown (without front
// matter) and the path of its file relative to the space's root (".gitbook/includes/x.md";
// "" when unknown). A relative reference inside it is relative to that file, as in GitBook: the
// document holds it as a path from the root ("/getting-started/install.md"), so that it names
// the same page or file wherever the content is included.
type Include struct {
	ID, Markdown, Path string
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
		// As written: the reader names the missing file by it.
		return c.voidBlock("content-ref", map[string]any{"ref": c.refFrom("", src)})
	}
	b := c.voidBlock("reusable-content", map[string]any{"ref": map[string]any{"kind": "reusable-content", "reusableContent": inc.ID}})
	key := c.key()
	sub := &converter{src: []byte(strings.ReplaceAll(inc.Markdown, "\r\n", "\n")), files: c.files, includes: c.includes,
		n: c.n, depth: c.depth, including: append(slices.Clone(c.including), inc.ID), base: includeBase(inc.Path)}
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

// includeBase is the folder relative references of an include file start from: its file's
// folder, or GitBook's includes folder when the path is unknown.
func includeBase(p string) string {
	if p == "" {
		return strings.TrimSuffix(includesDir, "/")
	}
	return path.Dir(p)
}

// fromBase rewrites a relative reference written in a file of folder base as a path from the
// root ("../guides/a.md#x" in ".gitbook/includes" → "/guides/a.md#x"); anything else (a URL,
// an anchor, a path from the root, or base "") stays as written. A file outside the root (base
// "../.gitbook/includes", GitBook's includes beside a root that .gitbook.yaml moved into "docs")
// reaches the space's pages by climbing out and back in through the root's folders
// ("../../docs/guides/a.md"): climbing k levels above the root, the next k folders are the
// root's own, so the rest is the path from the root ("/guides/a.md").
func fromBase(base, target string) string {
	if base == "" || target == "" || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "/") {
		return target
	}
	if u, err := url.Parse(target); err != nil || u.Scheme != "" {
		return target
	}
	p, rest := target, ""
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p, rest = p[:i], p[i:]
	}
	joined := path.Join(base, p)
	if up := climbs(joined); up > 0 {
		if segs := strings.Split(joined, "/")[up:]; len(segs) > up {
			return "/" + strings.Join(segs[up:], "/") + rest
		}
	}
	return path.Clean("/"+joined) + rest
}

// climbs counts the leading ".." of a clean relative path.
func climbs(p string) int {
	n := 0
	for p == ".." || strings.HasPrefix(p, "../") {
		n++
		p = strings.TrimPrefix(strings.TrimPrefix(p, ".."), "/")
	}
	return n
}

// IncludedReferences lists the references inside the reusable contents a markdown text includes
// (resolved by includes), as the document holds them: relative ones from the root (see Include).
func IncludedReferences(markdownText string, includes IncludeResolver) []Reference {
	if includes == nil || !strings.Contains(markdownText, "include") {
		return nil
	}
	doc, _ := convert(markdownText, nil, includes)
	var out []Reference
	var walk func(nodes []Node, inside bool)
	walk = func(nodes []Node, inside bool) {
		for _, n := range nodes {
			if target := refTarget(n.Data); inside && target != "" && n.Type != "reusable-content" &&
				!(n.Type == "content-ref" && strings.Contains(target, includesDir)) {
				out = append(out, Reference{Node: n.Key, Type: n.Type, Target: target})
			}
			walk(n.Nodes, inside)
			for _, f := range n.Fragments {
				walk(f.Nodes, inside || f.Fragment == "reusable-content")
			}
		}
	}
	walk(doc.Nodes, false)
	return out
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

// IncludedKeys lists the IncludeKey of every reusable content a markdown text includes (its
// include tags outside code), in order, each once.
func IncludedKeys(markdownText string) []string {
	if !strings.Contains(markdownText, "include") {
		return nil
	}
	var keys []string
	_, _ = convert(markdownText, nil, func(src string) (Include, bool) {
		if k := IncludeKey(src); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
		return Include{}, false
	})
	return keys
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
