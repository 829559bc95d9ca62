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
}

// SearchSpaceResult is a space holding pages that match an organization-wide search.
type SearchSpaceResult struct {
	ID    string              `json:"id"`
	Title string              `json:"title"`
	Pages []*SearchPageResult `json:"pages"`
}

// The search connections.
type (
	SearchPageResultConnection  = Connection[*SearchPageResult]
	SearchPageResultEdge        = Edge[*SearchPageResult]
	SearchSpaceResultConnection = Connection[*SearchSpaceResult]
	SearchSpaceResultEdge       = Edge[*SearchSpaceResult]
)
