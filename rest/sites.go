package rest

import (
	"net/http"
	"strconv"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

func (a *api) createSite(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CreateSiteInput
	if err := decodeOptionalBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	s, err := a.res.CreateSite(r.Context(), chi.URLParam(r, "organizationId"), in)
	if err != nil {
		return 0, nil, err
	}
	return created(w, s.URLs.Location, s, nil)
}

func (a *api) listSites(w http.ResponseWriter, r *http.Request) (int, any, error) {
	published, err := boolQuery(r, "published")
	if err != nil {
		return 0, nil, err
	}
	var types []model.SiteType
	for _, t := range r.URL.Query()["type"] {
		types = append(types, model.SiteType(t))
	}
	return nestedList(r, a.organization, func(org *model.Organization, first *int, after *string) (*model.SiteConnection, error) {
		return a.res.Sites(r.Context(), org, domain.SiteListArgs{Title: optionalQuery[string](r, "title"), Space: optionalQuery[string](r, "space"), Published: published, Types: types}, first, after)
	})
}

// boolQuery reads an optional true/false query parameter. Errors: Invalid.
func boolQuery(r *http.Request, name string) (*bool, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return nil, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return nil, apperr.Invalidf(name, "must be true or false")
	}
	return &b, nil
}

func (a *api) site(r *http.Request) (*model.Site, error) {
	org, err := a.organization(r)
	if err != nil {
		return nil, err
	}
	return a.res.SiteByID(r.Context(), org.ID, chi.URLParam(r, "siteId"))
}

func (a *api) getSite(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.site(r))
}

func (a *api) updateSite(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateSiteInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.UpdateSite(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"), in))
}

func (a *api) deleteSite(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.DeleteSite(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId")))
}

func (a *api) listSiteSpaces(w http.ResponseWriter, r *http.Request) (int, any, error) {
	isDefault, err := boolQuery(r, "default")
	if err != nil {
		return 0, nil, err
	}
	return nestedList(r, a.site, func(s *model.Site, first *int, after *string) (*model.SiteSpaceConnection, error) {
		return a.res.SiteSpaces(r.Context(), s, domain.SiteSpaceListArgs{ShareKey: optionalQuery[string](r, "shareKey"), Default: isDefault}, first, after)
	})
}

func (a *api) addSiteSpace(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.AddSiteSpaceInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	orgID, siteID := chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId")
	ss, err := a.res.AddSiteSpace(r.Context(), orgID, siteID, in)
	if err != nil {
		return 0, nil, err
	}
	return created(w, a.res.Settings.PublicURL+"/v1/orgs/"+orgID+"/sites/"+siteID+"/site-spaces/"+ss.ID, ss, nil)
}

func (a *api) updateSiteSpace(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateSiteSpaceInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.UpdateSiteSpace(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"), chi.URLParam(r, "siteSpaceId"), in))
}

func (a *api) deleteSiteSpace(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.DeleteSiteSpace(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"), chi.URLParam(r, "siteSpaceId")))
}

// moveSiteSpace is the deprecated move: {position: {before|after: {type: site-space,
// siteSpace}}}, answered as a sort of the structure.
func (a *api) moveSiteSpace(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var body struct {
		Position *struct {
			Before *struct{ SiteSpace string } `json:"before"`
			After  *struct{ SiteSpace string } `json:"after"`
		} `json:"position"`
	}
	if err := decodeBody(w, r, &body); err != nil {
		return 0, nil, err
	}
	in := model.SortSiteStructureInput{Item: &model.StructurePointer{Type: "site-space", ID: chi.URLParam(r, "siteSpaceId")}, Position: &model.StructurePosition{}}
	if body.Position != nil {
		if b := body.Position.Before; b != nil {
			in.Position.Before = &model.StructurePointer{Type: "site-space", ID: b.SiteSpace}
		}
		if af := body.Position.After; af != nil {
			in.Position.After = &model.StructurePointer{Type: "site-space", ID: af.SiteSpace}
		}
	}
	return ok(a.res.SortSiteStructure(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"), in))
}

func (a *api) getSiteStructure(w http.ResponseWriter, r *http.Request) (int, any, error) {
	s, err := a.site(r)
	if err != nil {
		return 0, nil, err
	}
	return ok(a.res.SiteStructure(r.Context(), s, optionalQuery[string](r, "shareKey")))
}

func (a *api) sortSiteStructure(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.SortSiteStructureInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.SortSiteStructure(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"), in))
}

func (a *api) listShareLinks(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.site, func(s *model.Site, first *int, after *string) (*model.ShareLinkConnection, error) {
		return a.res.ShareLinks(r.Context(), s, first, after)
	})
}

func (a *api) createShareLink(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CreateShareLinkInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	orgID, siteID := chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId")
	l, err := a.res.CreateShareLink(r.Context(), orgID, siteID, in)
	if err != nil {
		return 0, nil, err
	}
	return created(w, a.res.Settings.PublicURL+"/v1/orgs/"+orgID+"/sites/"+siteID+"/share-links/"+l.ID, l, nil)
}

func (a *api) updateShareLink(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateShareLinkInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.UpdateShareLink(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"), chi.URLParam(r, "shareLinkId"), in))
}

func (a *api) deleteShareLink(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.DeleteShareLink(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"), chi.URLParam(r, "shareLinkId")))
}
