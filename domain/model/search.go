package model

// SearchPageResult is a page matching a search: where it is (path, ancestors top-level first),
// and its sections that match, each with a snippet of its text.
type SearchPageResult struct {
	ID        string                 `json:"id"`
	Title     string                 `json:"title"`
	Path      string                 `json:"path"`
	Ancestors []*SearchAncestor      `json:"ancestors"`
	Sections  []*SearchSectionResult `json:"sections"`
	URLs      AppURLs                `json:"urls"`
	// TitleHighlights are the title's words that match (GraphQL only: the REST contract has none).
	TitleHighlights []*TextRange `json:"-"`
}

// SearchAncestor is a page above a search result in its space's page tree.
type SearchAncestor struct {
	Title string `json:"title"`
}

// SearchSectionResult is a part of a matching page under one heading (or the page's opening
// text), with a snippet of its text around the first match.
type SearchSectionResult struct {
	ID    string  `json:"id"`
	Title string  `json:"title"`
	Path  string  `json:"path"`
	Body  string  `json:"body"`
	URLs  AppURLs `json:"urls"`
	// TitleHighlights and BodyHighlights are the words of the title and of the snippet that
	// match (GraphQL only: the REST contract has none).
	TitleHighlights []*TextRange `json:"-"`
	BodyHighlights  []*TextRange `json:"-"`
}

// TextRange is a part of a text in UTF-16 code units, as JavaScript counts string positions.
type TextRange struct {
	Start  int `json:"start"`
	Length int `json:"length"`
}

// SearchInput is a search: a query in web-search syntax and a page of results.
type SearchInput struct {
	Query string
	First *int
	After *string
}

// SearchSpaceResult is a space holding pages that match an organization-wide search.
type SearchSpaceResult struct {
	ID    string              `json:"id"`
	Title string              `json:"title"`
	Pages []*SearchPageResult `json:"pages"`
}

// SearchPageResultConnection is a page of a space search. TotalCount is exact up to 1,000
// matches; beyond, it is 1,001 and TotalCountIsExact is false.
type SearchPageResultConnection struct {
	Connection[*SearchPageResult]
	TotalCountIsExact bool `json:"-"`
}

// SearchSpaceResultConnection is a page of an organization search (spaces with their best
// pages); TotalCountIsExact is false when so many pages matched that only the best candidates
// were ranked, so some spaces may be missing.
type SearchSpaceResultConnection struct {
	Connection[*SearchSpaceResult]
	TotalCountIsExact bool `json:"-"`
}

// The search connections' edges.
type (
	SearchPageResultEdge  = Edge[*SearchPageResult]
	SearchSpaceResultEdge = Edge[*SearchSpaceResult]
)
