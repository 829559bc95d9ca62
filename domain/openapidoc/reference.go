package openapidoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// API-reference pages: what a document's tags and operations look like as markdown pages (one
// page per tag, its operations in it, as GitBook generates them). The markdown is the page's
// content like any other page's, so readers and both API doors show it unchanged.

// DefaultTag holds the operations that name no tag (as Swagger UI groups them).
const DefaultTag = "default"

// Operation is one operation of a document.
type Operation struct {
	Method, Path string
	Op           *openapi3.Operation
	Item         *openapi3.PathItem
}

// Tag is a group of operations, as an API-reference page shows them.
type Tag struct {
	Name, Description string
	Operations        []Operation
}

// methodOrder is the order operations of one path are listed in.
var methodOrder = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"}

// Tags groups the document's operations by tag: the tags the document declares, in its order,
// then those only operations name (in the order they first appear), then DefaultTag for
// operations without one. Tags without operations are left out. An operation with two tags is
// on both pages. Paths keep the document's order.
func (d *Doc) Tags() []Tag {
	byName := map[string]*Tag{}
	var order []string
	add := func(name, description string) *Tag {
		if t := byName[name]; t != nil {
			return t
		}
		t := &Tag{Name: name, Description: description}
		byName[name] = t
		order = append(order, name)
		return t
	}
	for _, t := range d.T.Tags {
		if t != nil && t.Name != "" {
			add(t.Name, t.Description)
		}
	}
	for _, p := range d.pathOrder() {
		item := d.T.Paths.Value(p)
		if item == nil {
			continue
		}
		ops := item.Operations()
		for _, m := range methodOrder {
			op := ops[m]
			if op == nil {
				continue
			}
			names := op.Tags
			if len(names) == 0 {
				names = []string{DefaultTag}
			}
			for _, name := range names {
				t := add(name, "")
				t.Operations = append(t.Operations, Operation{Method: m, Path: p, Op: op, Item: item})
			}
		}
	}
	out := make([]Tag, 0, len(order))
	for _, name := range order {
		if t := byName[name]; len(t.Operations) > 0 {
			out = append(out, *t)
		}
	}
	return out
}

// Tag returns the tag named name. ok is false when the document has no operation with it.
func (d *Doc) Tag(name string) (Tag, bool) {
	for _, t := range d.Tags() {
		if t.Name == name {
			return t, true
		}
	}
	return Tag{}, false
}

// pathOrder lists the document's paths in the order it writes them (kin-openapi keeps them in a
// map): read from the document's JSON, then any it did not list there, sorted.
func (d *Doc) pathOrder() []string {
	if d.T.Paths == nil {
		return nil
	}
	var order []string
	seen := map[string]bool{}
	dec := json.NewDecoder(bytes.NewReader(d.JSON))
	if tok, err := dec.Token(); err == nil && tok == json.Delim('{') {
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				break
			}
			if key != "paths" {
				var skip json.RawMessage
				if dec.Decode(&skip) != nil {
					break
				}
				continue
			}
			if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
				break
			}
			for dec.More() {
				p, err := dec.Token()
				var skip json.RawMessage
				if err != nil || dec.Decode(&skip) != nil {
					break
				}
				if s, ok := p.(string); ok && !seen[s] {
					seen[s] = true
					order = append(order, s)
				}
			}
			break
		}
	}
	for _, p := range d.T.Paths.Keys() {
		if !seen[p] {
			order = append(order, p)
		}
	}
	return order
}

// TagMarkdown is the content of a tag's page: its description, then each operation with its
// parameters, request body and responses.
func TagMarkdown(t Tag) string {
	var b strings.Builder
	if t.Description != "" {
		b.WriteString(strings.TrimSpace(t.Description) + "\n\n")
	}
	for _, o := range t.Operations {
		writeOperation(&b, o)
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// OperationTitle is how an operation is named: its summary, else its id, else method and path.
func OperationTitle(o Operation) string {
	switch {
	case o.Op.Summary != "":
		return oneLine(o.Op.Summary)
	case o.Op.OperationID != "":
		return o.Op.OperationID
	}
	return o.Method + " " + o.Path
}

func writeOperation(b *strings.Builder, o Operation) {
	op := o.Op
	fmt.Fprintf(b, "## %s\n\n", escapeInline(OperationTitle(o)))
	fmt.Fprintf(b, "%s\n\n", code(o.Method+" "+o.Path))
	if op.Deprecated {
		b.WriteString("{% hint style=\"warning\" %}\nThis operation is deprecated.\n{% endhint %}\n\n")
	}
	if op.Description != "" {
		b.WriteString(strings.TrimSpace(op.Description) + "\n\n")
	}
	params := append(slices.Clone(o.Item.Parameters), op.Parameters...)
	if rows := paramRows(params); len(rows) > 0 {
		b.WriteString("### Parameters\n\n| Name | In | Type | Required | Description |\n| --- | --- | --- | --- | --- |\n")
		for _, r := range rows {
			b.WriteString(r)
		}
		b.WriteString("\n")
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		rb := op.RequestBody.Value
		b.WriteString("### Request body\n\n")
		if rb.Description != "" {
			b.WriteString(strings.TrimSpace(rb.Description) + "\n\n")
		}
		b.WriteString("| Content type | Schema | Required |\n| --- | --- | --- |\n")
		for _, ct := range sortedKeys(rb.Content) {
			fmt.Fprintf(b, "| %s | %s | %s |\n", code(ct), cell(schemaType(rb.Content[ct].Schema, 0)), yesNo(rb.Required))
		}
		b.WriteString("\n")
	}
	if op.Responses != nil && op.Responses.Len() > 0 {
		b.WriteString("### Responses\n\n| Status | Description | Content |\n| --- | --- | --- |\n")
		for _, status := range responseOrder(op.Responses.Keys()) {
			ref := op.Responses.Value(status)
			if ref == nil || ref.Value == nil {
				continue
			}
			var desc string
			if ref.Value.Description != nil {
				desc = *ref.Value.Description
			}
			var content []string
			for _, ct := range sortedKeys(ref.Value.Content) {
				content = append(content, code(ct)+": "+schemaType(ref.Value.Content[ct].Schema, 0))
			}
			fmt.Fprintf(b, "| %s | %s | %s |\n", code(status), cell(desc), cell(strings.Join(content, ", ")))
		}
		b.WriteString("\n")
	}
}

func paramRows(params openapi3.Parameters) []string {
	var rows []string
	seen := map[string]int{}
	for _, ref := range params {
		if ref == nil || ref.Value == nil {
			continue
		}
		p := ref.Value
		var schema *openapi3.SchemaRef
		if p.Schema != nil {
			schema = p.Schema
		} else {
			for _, ct := range sortedKeys(p.Content) {
				schema = p.Content[ct].Schema
				break
			}
		}
		row := fmt.Sprintf("| %s | %s | %s | %s | %s |\n", code(p.Name), p.In, cell(schemaType(schema, 0)), yesNo(p.Required), cell(p.Description))
		// An operation's parameter overrides its path's of the same name and place.
		if i, ok := seen[p.In+" "+p.Name]; ok {
			rows[i] = row
			continue
		}
		seen[p.In+" "+p.Name] = len(rows)
		rows = append(rows, row)
	}
	return rows
}

// ModelsMarkdown is the content of the models page: each schema of the components with its
// properties.
func ModelsMarkdown(d *Doc) string {
	var b strings.Builder
	if d.T.Components == nil || len(d.T.Components.Schemas) == 0 {
		return "This specification defines no models.\n"
	}
	for _, name := range sortedKeys(d.T.Components.Schemas) {
		writeSchema(&b, name, d.T.Components.Schemas[name])
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func writeSchema(b *strings.Builder, name string, ref *openapi3.SchemaRef) {
	if ref == nil || ref.Value == nil {
		return
	}
	s := ref.Value
	fmt.Fprintf(b, "## %s\n\n", escapeInline(name))
	if s.Description != "" {
		b.WriteString(strings.TrimSpace(s.Description) + "\n\n")
	}
	fmt.Fprintf(b, "Type: %s\n\n", code(schemaType(&openapi3.SchemaRef{Value: s}, 0)))
	if len(s.Properties) > 0 {
		b.WriteString("| Property | Type | Required | Description |\n| --- | --- | --- | --- |\n")
		for _, p := range sortedKeys(s.Properties) {
			var desc string
			if v := s.Properties[p].Value; v != nil {
				desc = v.Description
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", code(p), cell(schemaType(s.Properties[p], 0)), yesNo(slices.Contains(s.Required, p)), cell(desc))
		}
		b.WriteString("\n")
	}
}

// OperationMarkdown is one operation as GitBook's OpenAPI block shows it: its title, method and
// path, description, parameters, request body and responses, as on its tag's page. ok is false
// when the document has no such operation (method in any letter case).
func OperationMarkdown(d *Doc, method, opPath string) (string, bool) {
	if d.T.Paths == nil {
		return "", false
	}
	return itemMarkdown(d.T.Paths.Value(opPath), method, opPath)
}

// WebhookMarkdown is one webhook of the document (OpenAPI 3.1's webhooks, by name) as GitBook's
// webhook block shows it: the request the API sends, written as an operation is, its name in
// place of a path. ok is false when the document has no such webhook (method in any letter
// case).
func WebhookMarkdown(d *Doc, method, name string) (string, bool) {
	return itemMarkdown(d.T.Webhooks[name], method, name)
}

// itemMarkdown is the operation of item with method (any letter case), written under path.
func itemMarkdown(item *openapi3.PathItem, method, path string) (string, bool) {
	if item == nil {
		return "", false
	}
	m := strings.ToUpper(method)
	op := item.Operations()[m]
	if op == nil {
		return "", false
	}
	var b strings.Builder
	writeOperation(&b, Operation{Method: m, Path: path, Op: op, Item: item})
	return strings.TrimRight(b.String(), "\n") + "\n", true
}

// SchemasMarkdown is the named schemas of the document's components, as the models page shows
// each. ok is false when it has none of them.
func SchemasMarkdown(d *Doc, names []string) (string, bool) {
	if d.T.Components == nil {
		return "", false
	}
	var b strings.Builder
	for _, name := range names {
		writeSchema(&b, name, d.T.Components.Schemas[name])
	}
	if b.Len() == 0 {
		return "", false
	}
	return strings.TrimRight(b.String(), "\n") + "\n", true
}

// schemaType names a schema briefly: its component's name, or its type ("array of Pet",
// "string (date-time)", "string | null").
func schemaType(ref *openapi3.SchemaRef, depth int) string {
	if ref == nil {
		return "any"
	}
	if ref.Ref != "" {
		name := ref.Ref
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		} else {
			name = path.Base(strings.TrimSuffix(name, "#"))
		}
		return name
	}
	s := ref.Value
	if s == nil || depth > 4 {
		return "any"
	}
	var alts []string
	for _, xs := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		for _, x := range xs {
			alts = append(alts, schemaType(x, depth+1))
		}
	}
	if len(alts) > 0 {
		return strings.Join(alts, " | ")
	}
	if len(s.AllOf) > 0 {
		var parts []string
		for _, x := range s.AllOf {
			parts = append(parts, schemaType(x, depth+1))
		}
		return strings.Join(parts, " & ")
	}
	types := s.Type.Slice()
	if len(types) == 0 {
		return "any"
	}
	out := make([]string, len(types))
	for i, t := range types {
		switch {
		case t == "array":
			out[i] = "array of " + schemaType(s.Items, depth+1)
		case s.Format != "":
			out[i] = t + " (" + s.Format + ")"
		default:
			out[i] = t
		}
	}
	return strings.Join(out, " | ")
}

// responseOrder sorts status codes, "default" last.
func responseOrder(keys []string) []string {
	slices.SortFunc(keys, func(a, b string) int {
		switch {
		case a == "default":
			return 1
		case b == "default":
			return -1
		}
		return strings.Compare(a, b)
	})
	return keys
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// oneLine joins a text's lines.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cell makes text fit a table cell: one line, pipes escaped.
func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", `\|`) }

// code writes text as inline code, with a fence longer than any backtick run inside it.
func code(s string) string {
	s = oneLine(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + strings.ReplaceAll(s, "|", `\|`) + fence
}

// escapeInline escapes the characters that would start markup in a heading's text.
func escapeInline(s string) string {
	var b strings.Builder
	for _, r := range oneLine(s) {
		if strings.ContainsRune("\\`*_[]<>#{}|!~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
