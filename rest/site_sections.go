package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// siteParams are the organization and site ids of a site route.
func siteParams(r *http.Request) (orgID, siteID string) {
	return chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId")
}

// siteAPIURL is the API URL of something under a site: suffix starts with "/".
func (a *api) siteAPIURL(r *http.Request, suffix string) string {
	orgID, siteID := siteParams(r)
	return a.res.Settings.PublicURL + "/v1/orgs/" + orgID + "/sites/" + siteID + suffix
}

func (a *api) listSiteSections(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.site, func(s *model.Site, first *int, after *string) (*model.SiteSectionConnection, error) {
		return a.res.SiteSections(r.Context(), s, first, after, optionalQuery[string](r, "shareKey"))
	})
}

func (a *api) addSiteSection(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CreateSiteSectionInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	orgID, siteID := siteParams(r)
	sec, err := a.res.CreateSiteSection(r.Context(), orgID, siteID, in)
	if err != nil {
		return 0, nil, err
	}
	return created(w, a.siteAPIURL(r, "/sections/"+sec.ID), sec, nil)
}

func (a *api) updateSiteSection(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateSiteSectionInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	orgID, siteID := siteParams(r)
	return ok(a.res.UpdateSiteSection(r.Context(), orgID, siteID, chi.URLParam(r, "siteSectionId"), in))
}

func (a *api) deleteSiteSection(w http.ResponseWriter, r *http.Request) (int, any, error) {
	orgID, siteID := siteParams(r)
	return noContent(a.res.DeleteSiteSection(r.Context(), orgID, siteID, chi.URLParam(r, "siteSectionId")))
}

// movePointer is a deprecated move's anchor: {type, siteSection} for sections, {type, id} for
// groups.
type movePointer struct {
	Type        string `json:"type"`
	ID          string `json:"id"`
	SiteSection string `json:"siteSection"`
}

func (p *movePointer) pointer() *model.StructurePointer {
	if p == nil {
		return nil
	}
	id := p.ID
	if id == "" {
		id = p.SiteSection
	}
	return &model.StructurePointer{Type: p.Type, ID: id}
}

// moveOutlineItem answers the deprecated moves of sections and groups as a sort of the structure.
func (a *api) moveOutlineItem(w http.ResponseWriter, r *http.Request, item *model.StructurePointer) (int, any, error) {
	var body struct {
		Position *struct {
			Before *movePointer `json:"before"`
			After  *movePointer `json:"after"`
		} `json:"position"`
	}
	if err := decodeBody(w, r, &body); err != nil {
		return 0, nil, err
	}
	in := model.SortSiteStructureInput{Item: item, Position: &model.StructurePosition{}}
	if body.Position != nil {
		in.Position.Before, in.Position.After = body.Position.Before.pointer(), body.Position.After.pointer()
	}
	orgID, siteID := siteParams(r)
	return ok(a.res.SortSiteStructure(r.Context(), orgID, siteID, in))
}

func (a *api) moveSiteSection(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return a.moveOutlineItem(w, r, &model.StructurePointer{Type: "site-section", ID: chi.URLParam(r, "siteSectionId")})
}

func (a *api) moveSiteSectionGroup(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return a.moveOutlineItem(w, r, &model.StructurePointer{Type: "site-section-group", ID: chi.URLParam(r, "siteSectionGroupId")})
}

func (a *api) listSiteSectionGroups(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.site, func(s *model.Site, first *int, after *string) (*model.SiteSectionGroupConnection, error) {
		return a.res.SiteSectionGroups(r.Context(), s, first, after)
	})
}

func (a *api) addSiteSectionGroup(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CreateSiteSectionGroupInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	orgID, siteID := siteParams(r)
	g, err := a.res.CreateSiteSectionGroup(r.Context(), orgID, siteID, in)
	if err != nil {
		return 0, nil, err
	}
	return created(w, a.siteAPIURL(r, "/section-groups/"+g.ID), g, nil)
}

func (a *api) updateSiteSectionGroup(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateSiteSectionGroupInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	orgID, siteID := siteParams(r)
	return ok(a.res.UpdateSiteSectionGroup(r.Context(), orgID, siteID, chi.URLParam(r, "siteSectionGroupId"), in))
}

func (a *api) deleteSiteSectionGroup(w http.ResponseWriter, r *http.Request) (int, any, error) {
	orgID, siteID := siteParams(r)
	return noContent(a.res.DeleteSiteSectionGroup(r.Context(), orgID, siteID, chi.URLParam(r, "siteSectionGroupId")))
}

// addSectionToGroup answers the group; Location is the group-section relationship, which DELETE
// removes.
func (a *api) addSectionToGroup(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.AddSectionToGroupInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	orgID, siteID := siteParams(r)
	groupID := chi.URLParam(r, "siteSectionGroupId")
	g, err := a.res.AddSectionToGroup(r.Context(), orgID, siteID, groupID, in)
	if err != nil {
		return 0, nil, err
	}
	return created(w, a.siteAPIURL(r, "/section-groups/"+groupID+"/sections/"+in.SectionID), g, nil)
}

func (a *api) removeSectionFromGroup(w http.ResponseWriter, r *http.Request) (int, any, error) {
	orgID, siteID := siteParams(r)
	return noContent(a.res.RemoveSectionFromGroup(r.Context(), orgID, siteID, chi.URLParam(r, "siteSectionGroupId"), chi.URLParam(r, "siteSectionId")))
}
