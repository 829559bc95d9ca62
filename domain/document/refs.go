package document

import (
	"maps"
	"slices"
	"strings"
)

// Reference is a target a document points at, as written in its markdown: a URL, a relative
// path to a page or file, or an anchor.
type Reference struct {
	Node   string // key of the node holding it
	Type   string // the node's type: link, image, inline-image, file, content-ref, embed
	Target string
}

// References lists the references of a markdown text in document order: links, images, files,
// content references and embeds, in blocks, inlines and fragments alike.
func References(markdown string) []Reference {
	var out []Reference
	var walk func(nodes []Node)
	walk = func(nodes []Node) {
		for _, n := range nodes {
			// An include tag (a content-ref to a reusable content's file here, without a
			// resolver) is not a link: its content is shown in place.
			if target := refTarget(n.Data); target != "" && !(n.Type == "content-ref" && strings.Contains(target, includesDir)) {
				out = append(out, Reference{Node: n.Key, Type: n.Type, Target: target})
			}
			if n.Type == "table" { // cards' targets and covers are record values
				for _, target := range recordTargets(n.Data) {
					out = append(out, Reference{Node: n.Key, Type: n.Type, Target: target})
				}
			}
			walk(n.Nodes)
			for _, f := range n.Fragments {
				walk(f.Nodes)
			}
		}
	}
	walk(FromMarkdown(markdown, nil).Nodes)
	return out
}

// refTarget reads what a node's data points at: its ref's URL or file, or an embed's URL.
func refTarget(data map[string]any) string {
	if ref, ok := data["ref"].(map[string]any); ok {
		for _, field := range []string{"url", "file", "page", "anchor"} {
			if s, ok := ref[field].(string); ok && s != "" {
				return s
			}
		}
	}
	if u, ok := data["url"].(string); ok {
		return u
	}
	return ""
}

// recordTargets lists the references held by a table's records (content-ref and image values,
// covers by URL), in record order.
func recordTargets(data map[string]any) []string {
	records, _ := data["records"].(map[string]any)
	type rec struct {
		order   string
		targets []string
	}
	var recs []rec
	for _, r := range records {
		m, _ := r.(map[string]any)
		values, _ := m["values"].(map[string]any)
		var targets []string
		for _, k := range slices.Sorted(maps.Keys(values)) {
			if ref, ok := values[k].(map[string]any); ok {
				if t := refTarget(map[string]any{"ref": ref}); t != "" {
					targets = append(targets, t)
				}
			}
		}
		order, _ := m["orderIndex"].(string)
		recs = append(recs, rec{order, targets})
	}
	slices.SortFunc(recs, func(a, b rec) int { return strings.Compare(a.order, b.order) })
	var out []string
	for _, r := range recs {
		out = append(out, r.targets...)
	}
	return out
}
