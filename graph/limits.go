package graph

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/bindery/bindery/domain/model"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
)

// What one GraphQL document may ask for. A document is checked in two steps, each linear in the
// size of the document whatever it holds, because fragments are expanded once each (memoised),
// never once per spread:
//
//  1. before gqlgen validates it (documentLimits): at most MaxTokens tokens, MaxAliases aliases and
//     MaxFields fields once its fragments are expanded; validation's costs grow with these;
//  2. after validation (queryLimits): at most MaxDepth levels deep and MaxComplexity in price, every
//     field priced from the schema (see fieldCost).
const (
	// MaxTokens is the parser's token limit; the introspection query has about 300.
	MaxTokens = 15_000
	// MaxAliases bounds the aliases written in a document.
	MaxAliases = 500
	// MaxFields bounds the fields of a document with its fragments expanded.
	MaxFields = 10_000
	// MaxDepth bounds how deeply selections nest.
	MaxDepth = 12
	// MaxComplexity bounds the priced cost of an operation: about the number of objects it may
	// produce at most (see fieldCost). The price is a worst case (every page full), so real
	// answers are far smaller; GitHub's own node limit is 500,000 for a model that requires a
	// page size on every connection, where ours prices an absent one at the default page size.
	MaxComplexity = 1_000_000
)

// limitError is a refusal with a code clients can act on.
func limitError(code, format string, args ...any) *gqlerror.Error {
	err := gqlerror.Errorf(format, args...)
	err.Extensions = map[string]any{"code": code}
	return err
}

// documentLimits refuses documents too large to validate cheaply, before gqlgen parses and
// validates them. It parses the document itself (bounded by MaxTokens), counts aliases and the
// fields the operation's fragments expand to.
type documentLimits struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = documentLimits{}

func (documentLimits) ExtensionName() string                   { return "DocumentLimits" }
func (documentLimits) Validate(graphql.ExecutableSchema) error { return nil }

func (documentLimits) MutateOperationParameters(_ context.Context, params *graphql.RawParams) *gqlerror.Error {
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: params.Query}, MaxTokens)
	if err != nil {
		if strings.Contains(err.Error(), "token limit") {
			return limitError("QUERY_TOO_LARGE", "the document has more than %d tokens", MaxTokens)
		}
		return nil // gqlgen reports syntax errors itself
	}
	aliases := 0
	count := fieldCounter{fragments: doc.Fragments, memo: map[string]int{}}
	for _, op := range doc.Operations {
		if n := count.set(op.SelectionSet, 0); n > MaxFields {
			return limitError("QUERY_TOO_LARGE", "the operation selects more than %d fields once its fragments are expanded", MaxFields)
		}
		aliases += countAliases(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		if n := count.set(f.SelectionSet, 0); n > MaxFields {
			return limitError("QUERY_TOO_LARGE", "fragment %s selects more than %d fields once expanded", f.Name, MaxFields)
		}
		aliases += countAliases(f.SelectionSet)
	}
	if aliases > MaxAliases {
		return limitError("QUERY_TOO_LARGE", "the document has %d aliases; the limit is %d", aliases, MaxAliases)
	}
	return nil
}

// countAliases counts the aliases written in set (fragments are counted where defined).
func countAliases(set ast.SelectionSet) int {
	n := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Alias != "" && s.Alias != s.Name {
				n++
			}
			n += countAliases(s.SelectionSet)
		case *ast.InlineFragment:
			n += countAliases(s.SelectionSet)
		}
	}
	return n
}

// fieldCounter counts the fields of a selection set with fragments expanded, each fragment
// counted once and remembered. The count saturates just past MaxFields, so sums cannot overflow.
// Fragment cycles (refused later by validation) count as past the limit.
type fieldCounter struct {
	fragments ast.FragmentDefinitionList
	memo      map[string]int
}

func (c fieldCounter) set(set ast.SelectionSet, depth int) int {
	if depth > 256 {
		return MaxFields + 1
	}
	n := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			n += 1 + c.set(s.SelectionSet, depth+1)
		case *ast.InlineFragment:
			n += c.set(s.SelectionSet, depth+1)
		case *ast.FragmentSpread:
			n += c.fragment(s.Name, depth)
		}
		if n > MaxFields {
			return MaxFields + 1
		}
	}
	return n
}

func (c fieldCounter) fragment(name string, depth int) int {
	if n, ok := c.memo[name]; ok {
		return n
	}
	f := c.fragments.ForName(name)
	if f == nil {
		return 0
	}
	c.memo[name] = MaxFields + 1 // a cycle meets this while the fragment is being counted
	n := c.set(f.SelectionSet, depth+1)
	c.memo[name] = n
	return n
}

// queryLimits refuses validated operations nested deeper than maxDepth or priced above
// MaxComplexity, computing both with each fragment evaluated once.
type queryLimits struct {
	maxDepth int
	schema   *ast.Schema
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = queryLimits{}

func (queryLimits) ExtensionName() string                   { return "QueryLimits" }
func (queryLimits) Validate(graphql.ExecutableSchema) error { return nil }

func (q queryLimits) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	w := &walker{schema: q.schema, vars: oc.Variables, depth: map[*ast.FragmentDefinition]int{}, cost: map[*ast.FragmentDefinition]int{}}
	if depth := w.depthOf(oc.Operation.SelectionSet); depth > q.maxDepth {
		return limitError("DEPTH_LIMIT_EXCEEDED", "query is nested %d levels deep; the limit is %d", depth, q.maxDepth)
	}
	cost := w.costOf(oc.Operation.SelectionSet)
	if cost > MaxComplexity {
		return limitError("COMPLEXITY_LIMIT_EXCEEDED", "operation has complexity %d, which exceeds the limit of %d", cost, MaxComplexity)
	}
	// Recorded where gqlgen's own complexity extension puts it, for extension.GetComplexityStats
	// (the metrics' complexity histogram).
	oc.Stats.SetExtension("ComplexityLimit", &extension.ComplexityStats{Complexity: cost, ComplexityLimit: MaxComplexity})
	return nil
}

// walker computes an operation's depth and price, remembering each fragment's.
type walker struct {
	schema *ast.Schema
	vars   map[string]any
	depth  map[*ast.FragmentDefinition]int
	cost   map[*ast.FragmentDefinition]int
}

func (w *walker) depthOf(set ast.SelectionSet) int {
	deepest := 0
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if strings.HasPrefix(s.Name, "__") {
				continue // introspection has its own fixed shape
			}
			d = 1 + w.depthOf(s.SelectionSet)
		case *ast.InlineFragment:
			d = w.depthOf(s.SelectionSet)
		case *ast.FragmentSpread:
			if s.Definition == nil {
				continue
			}
			var ok bool
			if d, ok = w.depth[s.Definition]; !ok {
				w.depth[s.Definition] = 0 // cycles are refused by validation
				d = w.depthOf(s.Definition.SelectionSet)
				w.depth[s.Definition] = d
			}
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// costCap keeps sums and products far from overflowing; anything above it is refused anyway.
const costCap = 1 << 40

func addCost(a, b int) int { return min(a+b, costCap) }

func mulCost(a, b int) int {
	if a != 0 && b > costCap/a {
		return costCap
	}
	return min(a*b, costCap)
}

func (w *walker) costOf(set ast.SelectionSet) int {
	total := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Definition == nil || s.ObjectDefinition == nil {
				continue
			}
			if t := w.schema.Types[s.Definition.Type.Name()]; t != nil && t.Name == "__Schema" {
				continue // introspection: fixed and cheap
			}
			child := w.costOf(s.SelectionSet)
			total = addCost(total, fieldCost(s.ObjectDefinition, s.Definition, s.ArgumentMap(w.vars), len(s.SelectionSet) > 0, child))
		case *ast.InlineFragment:
			total = addCost(total, w.costOf(s.SelectionSet))
		case *ast.FragmentSpread:
			if s.Definition == nil {
				continue
			}
			c, ok := w.cost[s.Definition]
			if !ok {
				w.cost[s.Definition] = 0
				c = w.costOf(s.Definition.SelectionSet)
				w.cost[s.Definition] = c
			}
			total = addCost(total, c)
		}
	}
	return total
}

// Pricing counts objects, as GitHub's node limit does. A field that returns an object costs 1 plus
// its children's cost; a field that returns many objects costs 1 plus its children's cost times how
// many it may return; a field that returns a scalar costs nothing (the document limits bound how
// many there can be), except the expensive ones below. How many a field may return:
//
//   - a field with a page-size argument (first, limit, last) returns at most that many, or
//     model.DefaultPageSize when it is absent or 0;
//   - the lists inside a connection (edges, nodes) were counted by the field returning the
//     connection, so they multiply by 1;
//   - any other list of objects must be listed in unpagedLists with the most it may return (a test
//     walks the schema and fails on one that is not, so a new list cannot be added unpriced);
//     until it is, it is priced as unpagedDefault;
//
// and fields that read a lot whatever they select cost extra (expensiveFields, and every field
// named search…).
var unpagedLists = map[string]int{
	"Query.organizationsForEmailDomain": 20,
	"Organization.auditEventActions":    100, // the event types (domain.EventTypes)
	"Query.apiTokens":                   20,  // a user holds a handful of tokens
	"Query.sessions":                    50,  // a person signs in from a few browsers
	"Query.passkeys":                    20,  // at most 20 per person (domain/account)
	"SiteStructure.structure":           100,
	"SiteStructure.sections":            20,
	"SiteSection.siteSpaces":            10,
	"SiteSectionGroup.children":         20,
	"SiteSectionGroup.sections":         20,
	"Revision.pages":                    200,
	"CustomFont.fontFaces":              20,  // domain.maxFontFaces
	"CustomFontFace.sources":            1,   // one file per weight
	"SiteRedirectBulkResults.results":   500, // domain.maxBulkRedirects
	"ChangeRequest.contributors":        50,  // the people who edited or commented on one change request
	"RevisionSemanticChanges.changes":   100, // at most the limit, 100 (domain/semantic_changes.go)
	"SemanticChange.attributes":         8,   // the attributes the contract compares
	"Revision.reusableContents":         50,  // a space reuses a few blocks, not hundreds
	"RevisionPage.pages":                20,
	"RevisionPage.links":                100,
	"RevisionPage.backlinks":            100,
	"Revision.fileBacklinks":            100,
	"Organization.templates":            100,
	"MergeRules.rules":                  20,
	"SSORoleMapping.roles":              50, // at most maxSSORoleRules (domain/sso.go)
	"SSOProviderLogins.items":           5,  // the server's identity providers
	"RequestReviewersResult.users":      100,
	"SearchPageResult.ancestors":        10,
	"SearchPageResult.sections":         20,
	"SearchSpaceResult.pages":           20,
	"Answer.sources":                    8,  // one per passage at most (domain/answer)
	"SiteMcpServer.headers":             20, // at most maxMcpServerHeaders (domain/site_mcp_server.go)
	// A space's installed integrations and their blocks: an organization installs few.
	"Space.integrations":              100,
	"Space.integrationBlocks":         100,
	"SpaceIntegrationBlocks.blocks":   20,
	"Integration.blocks":              20,
	"Integration.externalLinks":       20,
	"OpenAPISpec.lastProcessedErrors": 20,
	// The API-reference pages of one specification (at most maxReferencePages; a few dozen tags
	// in practice).
	"OpenAPIPagesEdit.pages": 50,
	// Highlights are computed in memory from a title or a 240-character snippet.
	"SearchPageResult.titleHighlights":    20,
	"SearchSectionResult.titleHighlights": 20,
	"TranslationRun.issues":               100, // problems noted in one run, one per page at most
	"SearchSectionResult.bodyHighlights":  60,
	"EmojiReaction.users":                 100,
	"Comment.reactions":                   20,
	"Comment.repliers":                    20,
	"CommentReply.reactions":              20,
	// The reader's published sites (domain/published.go): a space's listed pages can be many.
	"PublishedSite.sections":         50,
	"PublishedSite.siteSpaces":       20,
	"PublishedSiteSpace.pages":       10000,
	"PublishedLocation.sidebar":      300,
	"PublishedPage.ancestors":        20,
	"PublishedPage.children":         100,
	"PublishedPage.files":            200,
	"PublishedPage.links":            200,
	"PublishedSearchResult.sections": 20,
	// Suggestions from a site's adaptive schema: a few per declared claim.
	"Site.adaptiveTemplateConditions": 100,
	"PublishedContentSite.scripts":    20,
}

// unpagedDefault prices a list of objects that unpagedLists does not know.
const unpagedDefault = 1000

// expensiveFields cost this much on top of the rule above: they read or build a lot whatever the
// query selects under them (a page's whole document, its markdown rendering).
var expensiveFields = map[string]int{
	"RevisionPage.document": 100,
	"RevisionPage.markdown": 100,
	// A reusable content's document or markdown is a page's, read the same way.
	"ReusableContent.document": 100,
	"ReusableContent.markdown": 100,
	// A model call each (docs/ask.md): at most four in one operation, aliases included.
	"Organization.ask":                  askCost,
	"Site.ask":                          askCost,
	"PublishedSite.ask":                 askCost,
	"Organization.recommendedQuestions": askCost,
	"Site.recommendedQuestions":         askCost,
}

// askCost is the price of a field that asks the AI provider.
const askCost = 250_000

// searchCost is the extra cost of every field named search…: a full-text query.
const searchCost = 10_000

// pageArguments are the argument names that bound how many items a field returns.
var pageArguments = []string{"first", "limit", "last"}

// fieldCost prices one field of parent (see the rules above).
func fieldCost(parent *ast.Definition, def *ast.FieldDefinition, args map[string]any, composite bool, child int) int {
	cost := expensiveFields[parent.Name+"."+def.Name]
	if composite {
		cost++
	}
	if strings.HasPrefix(def.Name, "search") {
		cost += searchCost
	}
	return addCost(cost, mulCost(multiplier(parent, def, args), child))
}

// multiplier is how many objects the field may return (1 for a single object).
func multiplier(parent *ast.Definition, def *ast.FieldDefinition, args map[string]any) int {
	for _, name := range pageArguments {
		if def.Arguments.ForName(name) == nil {
			continue
		}
		if n, ok := toInt(args[name]); ok && n > 0 {
			return min(n, model.MaxPageSize) // larger pages are refused when the field runs
		}
		return model.DefaultPageSize
	}
	if strings.HasSuffix(parent.Name, "Connection") || strings.HasSuffix(parent.Name, "Edge") {
		return 1
	}
	if isConnection(def.Type) {
		return unpagedDefault // a connection without a page size: a test refuses it
	}
	if def.Type.Elem == nil {
		return 1
	}
	if n, ok := unpagedLists[parent.Name+"."+def.Name]; ok {
		return n
	}
	return unpagedDefault
}

func isConnection(t *ast.Type) bool { return strings.HasSuffix(t.Name(), "Connection") }

func toInt(v any) (int, bool) {
	switch v := v.(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	case float64:
		return int(v), true
	case interface{ Int64() (int64, error) }: // json.Number
		n, err := v.Int64()
		return int(n), err == nil
	}
	return 0, false
}
