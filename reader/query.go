package reader

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/bindery/bindery/graph"
)

// The reader's persisted queries: fixed documents, run in process against the graph's schema
// (parsed once, then cached by the executor). Each page view runs one of them, so what a view
// costs is what the graph's batched reads cost for that document: a fixed number of statements.

const refFields = `fragment Ref on PublishedPageRef { id type title emoji icon description path url depth hasChildren noIndex noRobotsIndex }`

const siteFields = `
    id title url indexable visibility customization
    sections { id kind title description icon url depth parent default }
    siteSpaces { id title emoji path section default url revision }`

// pageQuery reads everything one page view shows.
const pageQuery = `query ReaderPage($name: String!, $visitor: SiteVisitorInput, $path: String!) {
  site: publishedSite(name: $name, visitor: $visitor) {` + siteFields + `
    at(path: $path) {
      pagePath
      siteSpace { id revision url customization }
      sidebar { ...Ref }
      page {
        id type title emoji icon description path url noIndex noRobotsIndex updatedAt cover
        layout { width cover title description tableOfContents outline pagination }
        document
        children { ...Ref }
        ancestors { ...Ref }
        previous { ...Ref }
        next { ...Ref }
        links { node target url title description }
        files { id name contentType url width height }
      }
    }
  }
}
` + refFields

// markdownQuery reads a page's markdown (the page's URL with .md).
const markdownQuery = `query ReaderMarkdown($name: String!, $visitor: SiteVisitorInput, $path: String!) {
  site: publishedSite(name: $name, visitor: $visitor) {
    id indexable
    at(path: $path) { siteSpace { revision } page { title description url markdown } }
  }
}`

// indexQuery reads every listed page of every site space the visitor sees: sitemap.xml and
// llms.txt.
const indexQuery = `query ReaderIndex($name: String!, $visitor: SiteVisitorInput) {
  site: publishedSite(name: $name, visitor: $visitor) {
    id title url indexable visibility
    siteSpaces { id title url revision pages { ...Ref } }
  }
}
` + refFields

// searchQuery searches the site, with what the page around the results shows.
const searchQuery = `query ReaderSearch($name: String!, $visitor: SiteVisitorInput, $query: String!) {
  site: publishedSite(name: $name, visitor: $visitor) {` + siteFields + `
    search(query: $query, first: 20) { title url siteSpace ancestors sections { title url snippet } }
  }
}`

// redirectQuery reads where a path that shows nothing is redirected.
const redirectQuery = `query ReaderRedirect($name: String!, $visitor: SiteVisitorInput, $path: String!) {
  site: publishedSite(name: $name, visitor: $visitor) { redirect(path: $path) }
}`

type redirectResult struct {
	Site struct {
		Redirect *string `json:"redirect"`
	} `json:"site"`
}

// pageType is a page's type as the templates compare it: document, group or link (GraphQL's
// enum values, lowercased).
type pageType string

func (t *pageType) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*t = pageType(strings.ToLower(s))
	return nil
}

// queryError is a failed query: the graph's error code (NOT_FOUND, UNAUTHENTICATED, INVALID…).
type queryError struct {
	Code, Message string
}

func (e *queryError) Error() string { return e.Code + ": " + e.Message }

// codeOf returns the graph's error code of err, or "".
func codeOf(err error) string {
	var qe *queryError
	if errors.As(err, &qe) {
		return qe.Code
	}
	return ""
}

// run executes a persisted query and decodes its data into out; it returns the raw data too
// (the ETag hashes it).
func (h *Handler) run(ctx context.Context, query string, vars map[string]any, out any) ([]byte, error) {
	resp := graph.Run(ctx, h.exec, query, vars)
	if len(resp.Errors) > 0 {
		e := resp.Errors[0]
		code := fmt.Sprint(e.Extensions["code"])
		if e.Extensions["code"] == nil {
			code = "INTERNAL"
		}
		return nil, &queryError{Code: code, Message: e.Message}
	}
	if err := json.Unmarshal(resp.Data, out); err != nil {
		return nil, fmt.Errorf("decode %T: %w", out, err)
	}
	return resp.Data, nil
}

// The shapes the queries return.

type siteData struct {
	ID         string         `json:"id"`
	Title      string         `json:"title"`
	URL        string         `json:"url"`
	Indexable  bool           `json:"indexable"`
	Visibility string         `json:"visibility"`
	Sections   []sectionData  `json:"sections"`
	SiteSpaces []siteSpaceRow `json:"siteSpaces"`
	// Customization is the site's (SiteCustomizationSettings; the reader draws it: style.go).
	Customization json.RawMessage `json:"customization"`
}

type sectionData struct {
	ID          string  `json:"id"`
	Kind        string  `json:"kind"`
	Title       string  `json:"title"`
	Description *string `json:"description"`
	Icon        *string `json:"icon"`
	URL         *string `json:"url"`
	Depth       int     `json:"depth"`
	Parent      *string `json:"parent"`
	Default     bool    `json:"default"`
}

type siteSpaceRow struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Emoji    string    `json:"emoji"`
	Path     string    `json:"path"`
	Section  *string   `json:"section"`
	Default  bool      `json:"default"`
	URL      string    `json:"url"`
	Revision string    `json:"revision"`
	Pages    []pageRef `json:"pages"`
}

type pageRef struct {
	ID          string   `json:"id"`
	Type        pageType `json:"type"`
	Title       string   `json:"title"`
	Emoji       *string  `json:"emoji"`
	Icon        *string  `json:"icon"`
	Description *string  `json:"description"`
	Path        string   `json:"path"`
	URL         string   `json:"url"`
	Depth       int      `json:"depth"`
	HasChildren bool     `json:"hasChildren"`
	NoIndex     bool     `json:"noIndex"`
	NoRobots    bool     `json:"noRobotsIndex"`
}

type pageData struct {
	ID            string          `json:"id"`
	Type          pageType        `json:"type"`
	Title         string          `json:"title"`
	Emoji         *string         `json:"emoji"`
	Icon          *string         `json:"icon"`
	Description   *string         `json:"description"`
	Path          string          `json:"path"`
	URL           string          `json:"url"`
	NoIndex       bool            `json:"noIndex"`
	NoRobotsIndex bool            `json:"noRobotsIndex"`
	UpdatedAt     *string         `json:"updatedAt"`
	Cover         json.RawMessage `json:"cover"`
	Layout        struct {
		Width           string `json:"width"`
		Cover           bool   `json:"cover"`
		Title           bool   `json:"title"`
		Description     bool   `json:"description"`
		TableOfContents bool   `json:"tableOfContents"`
		Outline         bool   `json:"outline"`
		Pagination      bool   `json:"pagination"`
	} `json:"layout"`
	Document  json.RawMessage `json:"document"`
	Markdown  *string         `json:"markdown"`
	Children  []pageRef       `json:"children"`
	Ancestors []pageRef       `json:"ancestors"`
	Previous  *pageRef        `json:"previous"`
	Next      *pageRef        `json:"next"`
	Links     []linkData      `json:"links"`
	Files     []fileData      `json:"files"`
}

type linkData struct {
	Node        string  `json:"node"`
	Target      string  `json:"target"`
	URL         *string `json:"url"`
	Title       *string `json:"title"`
	Description *string `json:"description"`
}

type fileData struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	URL         string `json:"url"`
	Width       *int   `json:"width"`
	Height      *int   `json:"height"`
}

type pageResult struct {
	Site struct {
		siteData
		At *struct {
			PagePath  string `json:"pagePath"`
			SiteSpace struct {
				ID            string          `json:"id"`
				Revision      string          `json:"revision"`
				URL           string          `json:"url"`
				Customization json.RawMessage `json:"customization"`
			} `json:"siteSpace"`
			Sidebar []pageRef `json:"sidebar"`
			Page    *pageData `json:"page"`
		} `json:"at"`
	} `json:"site"`
}

type markdownResult struct {
	Site struct {
		ID        string `json:"id"`
		Indexable bool   `json:"indexable"`
		At        *struct {
			SiteSpace struct {
				Revision string `json:"revision"`
			} `json:"siteSpace"`
			Page *struct {
				Title       string  `json:"title"`
				Description *string `json:"description"`
				URL         string  `json:"url"`
				Markdown    *string `json:"markdown"`
			} `json:"page"`
		} `json:"at"`
	} `json:"site"`
}

type indexResult struct {
	Site siteData `json:"site"`
}

type searchResult struct {
	Site struct {
		siteData
		Search []struct {
			Title     string   `json:"title"`
			URL       string   `json:"url"`
			SiteSpace string   `json:"siteSpace"`
			Ancestors []string `json:"ancestors"`
			Sections  []struct {
				Title   string `json:"title"`
				URL     string `json:"url"`
				Snippet string `json:"snippet"`
			} `json:"sections"`
		} `json:"search"`
	} `json:"site"`
}
