package domain

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/openapidoc"
)

// OpenAPI blocks in published pages: an operation ({% openapi-operation spec="…" %}, or
// {% openapi src="<url>" %} naming a specification by the URL it is fetched from), a webhook
// ({% openapi-webhook %}) and schemas ({% openapi-schemas %}) of the organization's specifications are shown from the
// specification's last version. The block keeps its data and gains a fragment holding what
// the specification says, as document blocks (openapidoc's markdown, the API-reference pages'
// own). A block whose specification, operation or schemas are not there keeps no fragment, and
// the reader shows its card. All the blocks of a page cost one statement.

// openAPIFragment names the fragment a resolved OpenAPI block gains.
const openAPIFragment = "openapi"

// openAPIRefs are the specifications a document's OpenAPI blocks name.
type openAPIRefs struct {
	slugs, urls, files []string
	seen               map[string]bool
}

func (o *openAPIRefs) add(list *[]string, name string) {
	if name == "" || o.seen[name] {
		return
	}
	o.seen[name] = true
	*list = append(*list, name)
}

// collect walks nodes (and fragments) for OpenAPI blocks.
func (o *openAPIRefs) collect(nodes []document.Node) {
	for _, n := range nodes {
		ref, _ := n.Data["ref"].(map[string]any)
		switch n.Type {
		case "openapi-operation", "openapi-schemas", "openapi-webhook":
			spec, _ := ref["spec"].(string)
			o.add(&o.slugs, "slug:"+spec)
		case "swagger":
			switch kind, _ := ref["kind"].(string); kind {
			case "url":
				u, _ := ref["url"].(string)
				o.add(&o.urls, "url:"+u)
			case "file":
				id, _ := ref["file"].(string)
				o.add(&o.files, "file:"+id)
			}
		}
		o.collect(n.Nodes)
		for _, f := range n.Fragments {
			o.collect(f.Nodes)
		}
	}
}

// withOpenAPI gives the document's OpenAPI blocks what their specifications say: the
// organization's (by slug or URL), or a file of the space's content src.
func (r *App) withOpenAPI(ctx context.Context, src *ContentSource, orgID string, doc document.Document) (document.Document, error) {
	refs := &openAPIRefs{seen: map[string]bool{}}
	refs.collect(doc.Nodes)
	if len(refs.slugs)+len(refs.urls)+len(refs.files) == 0 {
		return doc, nil
	}
	specs := map[string]*openapidoc.Doc{}
	if len(refs.slugs)+len(refs.urls) > 0 {
		versions, err := r.Store.CurrentSpecVersions(ctx, orgID, trimPrefix(refs.slugs, "slug:"), trimPrefix(refs.urls, "url:"))
		if err != nil {
			return doc, err
		}
		for _, v := range versions {
			version := &v.OpenAPISpecVersion
			d := r.specDocs.get("version:"+v.ID, func() (*openapidoc.Doc, error) { return specDoc(ctx, version) })
			if d == nil {
				continue
			}
			specs["slug:"+v.Slug] = d
			if v.URL != nil {
				specs["url:"+*v.URL] = d
			}
		}
	}
	if err := r.fileSpecs(ctx, src, trimPrefix(refs.files, "file:"), specs); err != nil {
		return doc, err
	}
	doc.Nodes = resolveOpenAPI(doc.Nodes, specs)
	return doc, nil
}

// fileSpecs adds to specs the space's files that OpenAPI blocks name and that are OpenAPI
// documents (a file's bytes never change under its blob key, so its parse is kept by it).
func (r *App) fileSpecs(ctx context.Context, src *ContentSource, ids []string, specs map[string]*openapidoc.Doc) error {
	if len(ids) == 0 {
		return nil
	}
	files, err := r.filesOf(ctx, src)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	for _, f := range files {
		if !want[f.FileID] || f.Size > openapidoc.MaxSize {
			continue
		}
		key := f.BlobKey
		d := r.specDocs.get("blob:"+key, func() (*openapidoc.Doc, error) {
			data, err := r.readBlob(ctx, key)
			if err != nil {
				return nil, err
			}
			return openapidoc.Parse(ctx, data)
		})
		if d != nil {
			specs["file:"+f.FileID] = d
		}
	}
	return nil
}

func trimPrefix(names []string, prefix string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n[len(prefix):]
	}
	return out
}

// resolveOpenAPI returns nodes with each OpenAPI block whose specification is in specs holding
// its fragment. Nodes are copied where they change, never modified in place.
func resolveOpenAPI(nodes []document.Node, specs map[string]*openapidoc.Doc) []document.Node {
	out := make([]document.Node, len(nodes))
	for i, n := range nodes {
		if md, ok := openAPIMarkdown(n, specs); ok {
			body := document.FromMarkdown(md, nil)
			n.Fragments = append(append([]document.Fragment{}, n.Fragments...), document.Fragment{
				Key: n.Key + ".openapi", Fragment: openAPIFragment, Nodes: rekey(body.Nodes, n.Key+"."),
			})
		}
		if n.Nodes != nil {
			n.Nodes = resolveOpenAPI(n.Nodes, specs)
		}
		if n.Fragments != nil {
			fragments := make([]document.Fragment, len(n.Fragments))
			for j, f := range n.Fragments {
				f.Nodes = resolveOpenAPI(f.Nodes, specs)
				fragments[j] = f
			}
			n.Fragments = fragments
		}
		out[i] = n
	}
	return out
}

// openAPIMarkdown is what the specification says for an OpenAPI block; ok is false for any
// other node, and for a block that does not resolve.
func openAPIMarkdown(n document.Node, specs map[string]*openapidoc.Doc) (string, bool) {
	ref, _ := n.Data["ref"].(map[string]any)
	method, _ := n.Data["method"].(string)
	path, _ := n.Data["path"].(string)
	switch n.Type {
	case "openapi-operation":
		spec, _ := ref["spec"].(string)
		if d := specs["slug:"+spec]; d != nil {
			return openapidoc.OperationMarkdown(d, method, path)
		}
	case "swagger":
		u, _ := ref["url"].(string)
		id, _ := ref["file"].(string)
		switch kind, _ := ref["kind"].(string); {
		case kind == "url" && specs["url:"+u] != nil:
			return openapidoc.OperationMarkdown(specs["url:"+u], method, path)
		case kind == "file" && specs["file:"+id] != nil:
			return openapidoc.OperationMarkdown(specs["file:"+id], method, path)
		}
	case "openapi-webhook":
		spec, _ := ref["spec"].(string)
		name, _ := n.Data["name"].(string)
		if d := specs["slug:"+spec]; d != nil {
			return openapidoc.WebhookMarkdown(d, method, name)
		}
	case "openapi-schemas":
		spec, _ := ref["spec"].(string)
		d := specs["slug:"+spec]
		names, _ := n.Data["schemas"].([]any)
		var list []string
		for _, s := range names {
			if name, ok := s.(string); ok {
				list = append(list, name)
			}
		}
		if d != nil {
			return openapidoc.SchemasMarkdown(d, list)
		}
	}
	return "", false
}

// rekey prefixes the keys of a generated tree, so that they stay unique in the page's document.
func rekey(nodes []document.Node, prefix string) []document.Node {
	for i := range nodes {
		if nodes[i].Key != "" {
			nodes[i].Key = prefix + nodes[i].Key
		}
		rekey(nodes[i].Nodes, prefix)
		for j := range nodes[i].Fragments {
			nodes[i].Fragments[j].Key = prefix + nodes[i].Fragments[j].Key
			rekey(nodes[i].Fragments[j].Nodes, prefix)
		}
	}
	return nodes
}

// specDocCache keeps the parsed documents of recently shown specifications, by what never
// changes under its key (a specification's version, a file's blob): parsing one costs far more
// than showing it. The zero value is ready to use.
type specDocCache struct {
	mu   sync.Mutex
	docs map[string]*openapidoc.Doc // nil: it does not parse
}

// maxCachedSpecs bounds the documents kept; past it the cache starts again.
const maxCachedSpecs = 32

// get returns the document parsed under key, parsing it on first use; nil when it does not
// parse.
func (c *specDocCache) get(key string, parse func() (*openapidoc.Doc, error)) *openapidoc.Doc {
	c.mu.Lock()
	d, ok := c.docs[key]
	c.mu.Unlock()
	if ok {
		return d
	}
	d, err := parse()
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil // this request's end, not the document's fault: not remembered
	}
	if err != nil {
		slog.Debug("an OpenAPI block's document does not parse", "key", key, "err", err)
		d = nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.docs == nil || len(c.docs) >= maxCachedSpecs {
		c.docs = map[string]*openapidoc.Doc{}
	}
	c.docs[key] = d
	return d
}
