package document

import (
	"slices"
	"strconv"
	"strings"
)

// Contract returns a copy of doc in the contract's node types only, for the REST API (GitBook's
// Document schema): the few nodes that are Bindery's own are written as the contract's nearest
// nodes, nothing dropped.
//
//   - columns and conditional blocks (if), which the contract's documents do not hold at their
//     top level: their blocks, in order (a REST reader is a member of the space, who reads the
//     markdown, condition and all, anyway);
//   - updates: each update's date as a bold paragraph, then its blocks;
//   - html: a code block (syntax "html") holding the HTML as written;
//   - swagger-inline (GitBook's legacy API block): its method and path as code, then its blocks;
//   - prompt: its description as a paragraph, then its blocks;
//   - a button without a target (a search or ask action): its label as text;
//   - reusable-content: without the included document Bindery gives it as a fragment.
func Contract(doc Document) Document {
	doc.Nodes = contractNodes(doc.Nodes)
	return doc
}

func contractNodes(nodes []Node) []Node {
	var out []Node
	relabeled := false
	for _, n := range nodes {
		switch {
		case n.Type == "columns":
			for _, col := range n.Nodes {
				out = append(out, contractNodes(col.Nodes)...)
			}
			continue
		case n.Type == "if":
			out = append(out, contractNodes(n.Nodes)...)
			continue
		case n.Type == "updates":
			for _, u := range n.Nodes {
				if date, _ := u.Data["date"].(string); date != "" {
					p := Node{Object: ObjectBlock, Type: "paragraph", Key: u.Key, Data: map[string]any{},
						Nodes: []Node{{Object: ObjectText, Leaves: []Leaf{{Text: date, Marks: []Mark{{Type: "bold"}}}}}}}
					out = append(out, p)
				}
				out = append(out, contractNodes(u.Nodes)...)
			}
			continue
		case n.Type == "prompt":
			// GitBook's prompt block: its description as a paragraph, then its blocks.
			if d, _ := n.Data["description"].(string); d != "" {
				out = append(out, Node{Object: ObjectBlock, Type: "paragraph", Key: n.Key, Data: map[string]any{}, Nodes: []Node{textNode(d)}})
			}
			out = append(out, contractNodes(n.Nodes)...)
			continue
		case n.Type == "swagger-inline":
			// GitBook's legacy API block: its method and path as code, then its blocks.
			method, _ := n.Data["method"].(string)
			path, _ := n.Data["path"].(string)
			p := Node{Object: ObjectBlock, Type: "paragraph", Key: n.Key, Data: map[string]any{},
				Nodes: []Node{{Object: ObjectText, Leaves: []Leaf{{Text: strings.ToUpper(method) + " " + path, Marks: []Mark{{Type: "code"}}}}}}}
			out = append(out, p)
			out = append(out, contractNodes(n.Nodes)...)
			continue
		case n.Type == "html":
			raw, _ := n.Data["html"].(string)
			code := Node{Object: ObjectBlock, Type: "code", Key: n.Key, Data: map[string]any{"syntax": "html"}}
			for i, line := range strings.Split(strings.TrimSuffix(raw, "\n"), "\n") {
				code.Nodes = append(code.Nodes, Node{Object: ObjectBlock, Type: "code-line", Key: n.Key + "." + strconv.Itoa(i), Data: map[string]any{},
					Nodes: []Node{textNode(line)}})
			}
			out = append(out, code)
			continue
		case n.Type == "reusable-content":
			// The included document is Bindery's, for readers: the contract's block names it.
			n.Fragments = nil
			out = append(out, n)
			continue
		case n.Type == "button" && n.Data["ref"] == nil:
			label, _ := n.Data["label"].(string)
			n = textNode(label)
			relabeled = true
		}
		if n.Nodes != nil {
			n.Nodes = contractNodes(n.Nodes)
		}
		n.Fragments = mapFragments(n.Fragments, contractNodes)
		out = append(out, n)
	}
	if relabeled { // the label joins the text around it (on copies: joinText appends in place)
		for i := range out {
			out[i].Leaves = slices.Clone(out[i].Leaves)
		}
		out = joinText(out)
	}
	if out == nil && nodes != nil {
		out = []Node{}
	}
	return out
}
