package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// contentRoutes are the reads of one kind of content (a space's current content, a change
// request's, or a revision), all under prefix.
func (a *api) contentRoutes(prefix string, source func(*http.Request) (*domain.ContentSource, error)) []Route {
	c := contentReader{api: a, source: source}
	return []Route{
		{"GET", prefix, c.revision},
		{"GET", prefix + "/pages", c.pages},
		{"GET", prefix + "/files", c.files},
		{"GET", prefix + "/files/{fileId}", c.file},
		{"GET", prefix + "/page/{pageId}", c.page},
		{"GET", prefix + "/path/*", c.pageByPath},
		{"GET", prefix + "/reusable-contents/{reusableContentId}", c.reusableContent},
	}
}

// linkRoutes are the link reads of a space's or a change request's content.
func (a *api) linkRoutes(prefix string, source func(*http.Request) (*domain.ContentSource, error)) []Route {
	c := contentReader{api: a, source: source}
	return []Route{
		{"GET", prefix + "/page/{pageId}/links", c.pageLinks},
		{"GET", prefix + "/page/{pageId}/backlinks", c.pageBacklinks},
		{"GET", prefix + "/files/{fileId}/backlinks", c.fileBacklinks},
	}
}

func (a *api) spaceContent(r *http.Request) (*domain.ContentSource, error) {
	return a.res.SpaceContent(r.Context(), chi.URLParam(r, "spaceId"))
}

func (a *api) changeRequestContent(r *http.Request) (*domain.ContentSource, error) {
	return a.res.ChangeRequestContent(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"))
}

func (a *api) revisionContent(r *http.Request) (*domain.ContentSource, error) {
	return a.res.RevisionContent(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "revisionId"))
}

// contentReader answers the reads of one kind of content.
type contentReader struct {
	*api
	source func(*http.Request) (*domain.ContentSource, error)
}

// open checks the query flags every content read accepts, then finds the content.
func (c contentReader) open(r *http.Request) (*domain.ContentSource, error) {
	// metadata and computed only trim work GitBook does; Bindery keeps no mutable git metadata
	// and generates computed pages when they are written, so both values give the same answer.
	// They must still be booleans.
	for _, name := range []string{"metadata", "computed"} {
		if _, err := boolQuery(r, name); err != nil {
			return nil, err
		}
	}
	return c.source(r)
}

func (c contentReader) revision(w http.ResponseWriter, r *http.Request) (int, any, error) {
	src, err := c.open(r)
	if err != nil {
		return 0, nil, err
	}
	return ok(c.res.RevisionOf(r.Context(), src))
}

// pageList is the contract's bare {pages} object: the tree, not paginated.
type pageList struct {
	Pages []*model.RevisionPage `json:"pages"`
}

func (c contentReader) pages(w http.ResponseWriter, r *http.Request) (int, any, error) {
	src, err := c.open(r)
	if err != nil {
		return 0, nil, err
	}
	pages, err := c.res.PageTree(r.Context(), src)
	if err != nil {
		return 0, nil, err
	}
	return ok(pageList{Pages: pages}, c.res.WithMarkdown(r.Context(), pages))
}

func (c contentReader) files(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, c.open, func(src *domain.ContentSource, first *int, after *string) (*model.Connection[*model.RevisionFile], error) {
		return c.res.Files(r.Context(), src, first, after)
	})
}

func (c contentReader) file(w http.ResponseWriter, r *http.Request) (int, any, error) {
	src, err := c.open(r)
	if err != nil {
		return 0, nil, err
	}
	return ok(c.res.File(r.Context(), src, chi.URLParam(r, "fileId")))
}

func (c contentReader) page(w http.ResponseWriter, r *http.Request) (int, any, error) {
	src, err := c.open(r)
	if err != nil {
		return 0, nil, err
	}
	// The graph checks format and evaluated, as it does for GraphQL.
	format, evaluated := model.PageFormat(r.URL.Query().Get("format")), model.Evaluation(r.URL.Query().Get("evaluated"))
	return contractPage(c.res.EvaluatedPage(r.Context(), src, chi.URLParam(r, "pageId"), format, evaluated))
}

// pageByPath is page for the page at a path: the rest of the URL, its slugs joined by / (an
// encoded %2F reads the same).
func (c contentReader) pageByPath(w http.ResponseWriter, r *http.Request) (int, any, error) {
	src, err := c.open(r)
	if err != nil {
		return 0, nil, err
	}
	format, evaluated := model.PageFormat(r.URL.Query().Get("format")), model.Evaluation(r.URL.Query().Get("evaluated"))
	return contractPage(c.res.EvaluatedPageByPath(r.Context(), src, chi.URLParam(r, "*"), format, evaluated))
}

// contractPage answers a page whose document speaks GitBook's schema: Bindery's own nodes in the
// contract's (document.Contract; GraphQL keeps them).
func contractPage(page *model.RevisionPage, err error) (int, any, error) {
	if err == nil && page.Document != nil {
		doc := document.Contract(*page.Document)
		page.Document = &doc
	}
	return ok(page, err)
}

// linkList is the contract's list of link items with their stats.
type linkList struct {
	listEnvelope[*model.LinkItem]
	Stats model.LinkStats `json:"stats"`
}

func (c contentReader) pageLinks(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	src, err := c.source(r)
	if err != nil {
		return 0, nil, err
	}
	list, stats, err := c.res.PageLinks(r.Context(), src, chi.URLParam(r, "pageId"), optionalQuery[model.LinkStatus](r, "status"), first, after)
	if err != nil {
		return 0, nil, err
	}
	return ok(linkList{envelope(list), stats}, nil)
}

func (c contentReader) pageBacklinks(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, c.source, func(src *domain.ContentSource, first *int, after *string) (*model.Connection[*model.ContentLocation], error) {
		return c.res.PageBacklinks(r.Context(), src, chi.URLParam(r, "pageId"), first, after)
	})
}

func (c contentReader) fileBacklinks(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, c.source, func(src *domain.ContentSource, first *int, after *string) (*model.Connection[*model.ContentLocation], error) {
		return c.res.FileBacklinks(r.Context(), src, chi.URLParam(r, "fileId"), first, after)
	})
}

// pageDocument answers a page's content as a bare document.
func (a *api) pageDocument(w http.ResponseWriter, r *http.Request) (int, any, error) {
	src, err := a.revisionContent(r)
	if err != nil {
		return 0, nil, err
	}
	page, err := a.res.Page(r.Context(), src, chi.URLParam(r, "pageId"), domain.FormatDocument)
	if err != nil {
		return 0, nil, err
	}
	if page.Document == nil {
		return 0, nil, apperr.NotFoundf("the page has no document: it is a %s", page.Type)
	}
	// GitBook's schema: Bindery's own nodes in the contract's (GraphQL keeps them).
	return ok(document.Contract(*page.Document), nil)
}

func (a *api) createChangeRequest(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CreateChangeRequestInput
	if err := decodeOptionalBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	cr, err := a.res.CreateChangeRequest(r.Context(), chi.URLParam(r, "spaceId"), in)
	if err != nil {
		return 0, nil, err
	}
	return created(w, cr.URLs.Location, cr, nil)
}

func (a *api) listChangeRequests(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	list, err := a.res.ChangeRequests(r.Context(), chi.URLParam(r, "spaceId"), model.ChangeRequestFilter{
		Status: optionalQuery[model.ChangeRequestStatus](r, "status"), Creator: optionalQuery[string](r, "creator"),
		Contributor: optionalQuery[string](r, "contributor"), RequestedReviewer: optionalQuery[string](r, "requestedReviewer"),
		ConversationsIssuesCluster: optionalQuery[string](r, "conversationsIssuesCluster"),
	}, first, after)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(list), nil)
}

func (a *api) getChangeRequest(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.ChangeRequestByID(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId")))
}

func (a *api) updateChangeRequest(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateChangeRequestInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.UpdateChangeRequest(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"), in))
}

func (a *api) mergeChangeRequest(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.MergeChangeRequest(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId")))
}

func (a *api) updateChangeRequestFromSpace(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.UpdateChangeRequestFromSpace(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId")))
}

func (a *api) applyTemplate(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.ApplyTemplateInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	if _, err := a.res.ApplyTemplate(r.Context(), chi.URLParam(r, "spaceId"), in); err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, nil, nil
}
