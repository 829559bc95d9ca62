package document

import "strings"

// GitBook's legacy API block is written out in the page:
//
//	{% swagger method="get" path="/pets" baseUrl="https://api.example" summary="List pets" %}
//	{% swagger-description %} … {% endswagger-description %}
//	{% swagger-parameter in="query" name="limit" type="integer" required="false" %} … {% endswagger-parameter %}
//	{% swagger-response status="200: OK" description="Pets" %} … {% endswagger-response %}
//	{% endswagger %}
//
// It becomes Bindery's swagger-inline block: data {method, path, baseUrl?, summary?}, holding
// the description's blocks, the parameters as a list (name, where, type, required, then the
// parameter's description), and the responses as tabs titled by status.

// swaggerInline converts a legacy {% swagger %} block.
func (c *converter) swaggerInline(t *tagBlock) Node {
	data := map[string]any{"method": strings.ToLower(t.Attrs["method"]), "path": t.Attrs["path"]}
	for attr, field := range map[string]string{"baseurl": "baseUrl", "summary": "summary"} {
		if v := t.Attrs[attr]; v != "" {
			data[field] = v
		}
	}
	b := c.block("swagger-inline", data)
	var params, responses Node
	for ch := t.FirstChild(); ch != nil; ch = ch.NextSibling() {
		tag, _ := ch.(*tagBlock)
		switch {
		case tag != nil && tag.Name == "swagger-description":
			b.Nodes = append(b.Nodes, c.blocks(tag)...)
		case tag != nil && tag.Name == "swagger-parameter":
			if params.Type == "" {
				params = c.block("list-unordered", nil)
			}
			params.Nodes = append(params.Nodes, c.swaggerParameter(tag))
		case tag != nil && tag.Name == "swagger-response":
			if responses.Type == "" {
				responses = c.block("tabs", nil)
			}
			responses.Nodes = append(responses.Nodes, c.swaggerResponse(tag))
		default:
			b.Nodes = append(b.Nodes, c.convertBlock(ch)...)
		}
	}
	for _, n := range []Node{params, responses} {
		if n.Type != "" {
			b.Nodes = append(b.Nodes, n)
		}
	}
	if len(b.Nodes) == 0 {
		b.Nodes = []Node{c.emptyParagraph()}
	}
	return b
}

// swaggerParameter is a parameter's list item: "name (in, type, required)", then its
// description (the tag's body, or its description attribute).
func (c *converter) swaggerParameter(t *tagBlock) Node {
	li := c.block("list-item", nil)
	p := c.block("paragraph", nil)
	var about []string
	for _, attr := range []string{"in", "type"} {
		if v := t.Attrs[attr]; v != "" {
			about = append(about, v)
		}
	}
	if t.Attrs["required"] == "true" {
		about = append(about, "required")
	}
	p.Nodes = []Node{{Object: ObjectText, Leaves: []Leaf{{Text: t.Attrs["name"], Marks: []Mark{{Type: "code", Data: map[string]any{}}}}}}}
	if len(about) > 0 {
		p.Nodes[0].Leaves = append(p.Nodes[0].Leaves, Leaf{Text: " (" + strings.Join(about, ", ") + ")", Marks: []Mark{}})
	}
	li.Nodes = []Node{p}
	if d := t.Attrs["description"]; d != "" {
		dp := c.block("paragraph", nil)
		dp.Nodes = []Node{textNode(d)}
		li.Nodes = append(li.Nodes, dp)
	}
	li.Nodes = append(li.Nodes, c.blocks(t)...)
	return li
}

// swaggerResponse is a response's tab: titled by its status, its description attribute, then
// its body (usually an example).
func (c *converter) swaggerResponse(t *tagBlock) Node {
	title := t.Attrs["status"]
	if title == "" {
		title = "Response"
	}
	item := c.block("tabs-item", map[string]any{"title": title})
	if d := t.Attrs["description"]; d != "" {
		dp := c.block("paragraph", nil)
		dp.Nodes = []Node{textNode(d)}
		item.Nodes = append(item.Nodes, dp)
	}
	item.Nodes = append(item.Nodes, c.blocks(t)...)
	if len(item.Nodes) == 0 {
		item.Nodes = []Node{c.emptyParagraph()}
	}
	return item
}

// prompt converts GitBook's prompt block, {% prompt description icon defaultExpanded
// openInAIProviders %} … {% endprompt %}: a prompt for readers to copy (usually one code block).
// It is Bindery's own block, data from its attributes, its content the blocks inside.
func (c *converter) prompt(t *tagBlock) Node {
	data := map[string]any{}
	for attr, field := range map[string]string{"description": "description", "icon": "icon"} {
		if v := t.Attrs[attr]; v != "" {
			data[field] = v
		}
	}
	switch v := strings.Trim(t.Attrs["defaultexpanded"], "\"”“"); v {
	case "hidden", "partial", "full":
		data["defaultExpanded"] = v
	}
	if v, ok := t.Attrs["openinaiproviders"]; ok {
		data["openInAIProviders"] = v == "true"
	}
	b := c.block("prompt", data)
	b.Nodes = c.containerBlocks(t)
	return b
}
