package document

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
			if target := refTarget(n.Data); target != "" {
				out = append(out, Reference{Node: n.Key, Type: n.Type, Target: target})
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
