package gitsync

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// IncludeText is the file of a reusable content after an edit: text is the file as stored
// (front matter included), title and body the new title and markdown (without front matter).
// The front matter is kept as written, with its title set when the title changed; a file
// without front matter gets one only when the title is not the one its name gives (the title
// Read would find). An unchanged title and body give text back byte for byte.
func IncludeText(text, path, title, body string) string {
	front, _ := splitFrontMatter(text)
	if title == includeTitle(text, path) {
		if body == IncludeMarkdown(text) {
			return text
		}
		if front == "" {
			return body
		}
		return "---\n" + front + "\n---\n\n" + body
	}
	var meta yaml.Node
	if front == "" || yaml.Unmarshal([]byte(front), &meta) != nil || len(meta.Content) == 0 || meta.Content[0].Kind != yaml.MappingNode {
		meta = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	m := meta.Content[0]
	set := false
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "title" {
			m.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Value: title}
			set = true
		}
	}
	if !set {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "title"}, &yaml.Node{Kind: yaml.ScalarNode, Value: title})
	}
	out, err := yaml.Marshal(&meta)
	if err != nil {
		return body
	}
	return "---\n" + strings.TrimSuffix(string(out), "\n") + "\n---\n\n" + body
}

// IncludeMarkdown is a reusable content's markdown as an editor shows it: without its front
// matter and the blank lines that separate it.
func IncludeMarkdown(text string) string {
	return strings.TrimLeft(IncludeBody(text), "\n")
}
