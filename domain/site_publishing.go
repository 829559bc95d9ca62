package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/expr"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/sitestyle"
	"github.com/bindery/bindery/storage"
	"github.com/golang-jwt/jwt/v5"
)

// Publishing a site, and what it publishes (docs/sites.md): a site with site spaces is published
// until its managers unpublish it; the reader then answers it as absent, and publishing it again
// brings it back as it was.

// PublishSite publishes a site. Errors: Invalid (a site without site spaces has nothing to
// publish), NotFound, Forbidden.
func (r *App) PublishSite(ctx context.Context, orgID, siteID string) (*model.Site, error) {
	return r.setSitePublished(ctx, orgID, siteID, true)
}

// UnpublishSite unpublishes a site: its structure stays, the reader answers it as absent.
// Errors: NotFound, Forbidden.
func (r *App) UnpublishSite(ctx context.Context, orgID, siteID string) (*model.Site, error) {
	return r.setSitePublished(ctx, orgID, siteID, false)
}

func (r *App) setSitePublished(ctx context.Context, orgID, siteID string, published bool) (*model.Site, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	if published && site.SiteSpaces == 0 {
		return nil, apperr.Invalidf("siteId", "the site publishes no space yet: add one before publishing it")
	}
	if site.Unpublished == published { // a change of state, not a repeat, is an event
		typ := EventSiteUnpublished
		if published {
			typ = EventSitePublished
		}
		ctx = r.emit(ctx, siteObjectEvent(typ, site, "site", site.ID, site.Title), nil)
	}
	if err := r.Store.SetSiteUnpublished(ctx, orgID, site.ID, !published, r.Now()); err != nil {
		return nil, notFound(err, "site")
	}
	return r.SiteByID(ctx, orgID, site.ID)
}

// PublishedContentSite is what a published site shows: the site, its structure (published URLs
// through the share link with shareKey, when given), and its customizations. Errors: NotFound
// (also a site that is not published), Forbidden.
func (r *App) PublishedContentSite(ctx context.Context, orgID, siteID string, shareKey *string) (*model.PublishedContentSite, error) {
	site, err := r.SiteByID(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return r.PublishedContentOf(ctx, site, shareKey)
}

// PublishedContentOf is what a site already read publishes (see PublishedContentSite): sites
// listed together read their structures and customizations in one batch each.
// Errors: NotFound (a site that is not published), Forbidden.
func (r *App) PublishedContentOf(ctx context.Context, site *model.Site, shareKey *string) (*model.PublishedContentSite, error) {
	if _, err := r.siteReader(ctx, site.OrganizationID); err != nil {
		return nil, err
	}
	if !site.Published {
		return nil, apperr.NotFoundf("site not published")
	}
	structure, err := r.SiteStructure(ctx, site, shareKey)
	if err != nil {
		return nil, err
	}
	c, err := r.siteCustomizations(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	out := &model.PublishedContentSite{Object: "published-content-site", Site: site, Structure: structure,
		Customizations: model.PublishedCustomizations{SiteSpaces: map[string]model.JSON{}}, Scripts: []*model.SiteIntegrationScript{}}
	if out.Customizations.Site, err = json.Marshal(c.site); err != nil {
		return nil, err
	}
	for _, ss := range siteSpacesOf(structure) {
		if out.Customizations.SiteSpaces[ss.ID], err = json.Marshal(c.of(ss.ID)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// siteSpacesOf lists the site spaces of a structure, in order.
func siteSpacesOf(s *model.SiteStructure) []*model.SiteSpace {
	out := append([]*model.SiteSpace{}, s.Structure...)
	var walk func(items []model.SiteSectionItem)
	walk = func(items []model.SiteSectionItem) {
		for _, it := range items {
			switch it := it.(type) {
			case *model.SiteSection:
				out = append(out, it.SiteSpaces...)
			case *model.SiteSectionGroup:
				walk(it.Children)
			}
		}
	}
	walk(s.Sections)
	return out
}

// previewTokenLife is how long a preview link's visitor token holds.
const previewTokenLife = time.Hour

// SitePublishingPreview is the URL that previews a site space (the default one when siteSpaceID
// is nil) as a visitor with claims would see it: claims are carried by a visitor token signed
// with the site's key, valid for an hour. Errors: Invalid (an unknown site space, claims that are
// not an object, claims on a site without a signing key), NotFound, Forbidden.
func (r *App) SitePublishingPreview(ctx context.Context, orgID, siteID string, siteSpaceID *string, claimsJSON model.JSON) (*model.SitePublishingPreview, error) {
	var claims map[string]any
	if !claimsJSON.IsNull() {
		if err := json.Unmarshal(claimsJSON, &claims); err != nil || claims == nil {
			return nil, apperr.Invalidf("claims", "must be an object of claims")
		}
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return r.previewOf(ctx, r.toSite(site), siteSpaceID, claims)
}

// PublishingPreviewOf is SitePublishingPreview for a site already read: sites listed together
// read their structures and keys in one batch each. Errors: as SitePublishingPreview.
func (r *App) PublishingPreviewOf(ctx context.Context, site *model.Site, siteSpaceID *string, claimsJSON model.JSON) (*model.SitePublishingPreview, error) {
	var claims map[string]any
	if !claimsJSON.IsNull() {
		if err := json.Unmarshal(claimsJSON, &claims); err != nil || claims == nil {
			return nil, apperr.Invalidf("claims", "must be an object of claims")
		}
	}
	if _, err := r.siteEditor(ctx, site.OrganizationID); err != nil {
		return nil, err
	}
	return r.previewOf(ctx, site, siteSpaceID, claims)
}

func (r *App) previewOf(ctx context.Context, site *model.Site, siteSpaceID *string, claims map[string]any) (*model.SitePublishingPreview, error) {
	structure, err := r.SiteStructure(ctx, site, nil)
	if err != nil {
		return nil, err
	}
	var target *model.SiteSpace
	for _, ss := range siteSpacesOf(structure) {
		if (siteSpaceID == nil && ss.Default && ss.Section == nil) || (siteSpaceID != nil && ss.ID == *siteSpaceID) {
			target = ss
			break
		}
	}
	if target == nil && siteSpaceID == nil {
		target = defaultOfDefaultSection(structure)
	}
	if target == nil {
		return nil, apperr.Invalidf("siteSpace", "no such site space on this site")
	}
	u := r.publicSiteURL(site)
	if target.URLs.Published != nil {
		u = *target.URLs.Published
	}
	if len(claims) == 0 {
		return &model.SitePublishingPreview{URL: u}, nil
	}
	settings, err := loader.For(ctx, r.Store).SiteReaderSettings.Find(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	if settings.SigningKey == nil {
		return nil, apperr.Invalidf("claims", "the site has no visitor signing key: generate one to preview with claims")
	}
	now := r.Now()
	mc := jwt.MapClaims{"exp": now.Add(previewTokenLife).Unix(), "iat": now.Unix()}
	for k, v := range claims {
		if k != "exp" && k != "iat" && k != "nbf" {
			mc[k] = v
		}
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, mc).SignedString([]byte(*settings.SigningKey))
	if err != nil {
		return nil, fmt.Errorf("sign preview token: %w", err)
	}
	return &model.SitePublishingPreview{URL: u + "?jwt_token=" + url.QueryEscape(token)}, nil
}

// defaultOfDefaultSection is the default site space of a site's default section.
func defaultOfDefaultSection(s *model.SiteStructure) *model.SiteSpace {
	for _, sec := range sectionsOfItems(s.Sections) {
		if sec.Default {
			for _, ss := range sec.SiteSpaces {
				if ss.Default {
					return ss
				}
			}
		}
	}
	return nil
}

func sectionsOfItems(items []model.SiteSectionItem) []*model.SiteSection {
	var out []*model.SiteSection
	for _, it := range items {
		switch it := it.(type) {
		case *model.SiteSection:
			out = append(out, it)
		case *model.SiteSectionGroup:
			out = append(out, sectionsOfItems(it.Children)...)
		}
	}
	return out
}

// SearchSite searches the spaces a site publishes that the caller can read, grouped by space
// like an organization search, within the scope: the default site space of each section (and
// the current one), the given site spaces, or all. Errors: Invalid, NotFound, Forbidden.
func (r *App) SearchSite(ctx context.Context, orgID, siteID string, in model.SiteSearchInput) (*model.SearchSpaceResultConnection, error) {
	scope, err := siteSearchScope(in)
	if err != nil {
		return nil, err
	}
	site, err := r.SiteByID(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	structure, err := r.SiteStructure(ctx, site, nil)
	if err != nil {
		return nil, err
	}
	all := siteSpacesOf(structure)
	byID := map[string]*model.SiteSpace{}
	for _, ss := range all {
		byID[ss.ID] = ss
	}
	var chosen []*model.SiteSpace
	switch scope.Mode {
	case "all":
		chosen = all
	case "specific":
		for i, id := range scope.SiteSpaceIds {
			ss, ok := byID[id]
			if !ok {
				return nil, apperr.Invalidf(fmt.Sprintf("scope.siteSpaceIds[%d]", i), "no site space %q on this site", id)
			}
			chosen = append(chosen, ss)
		}
	default:
		if scope.CurrentSiteSpace != nil {
			ss, ok := byID[*scope.CurrentSiteSpace]
			if !ok {
				return nil, apperr.Invalidf("scope.currentSiteSpace", "no site space %q on this site", *scope.CurrentSiteSpace)
			}
			chosen = append(chosen, ss)
		}
		for _, ss := range all {
			if ss.Default {
				chosen = append(chosen, ss)
			}
		}
	}
	spaces := make([]*storage.Space, 0, len(chosen))
	seen := map[string]bool{}
	for _, ss := range chosen {
		if !seen[ss.Space.ID] {
			seen[ss.Space.ID] = true
			spaces = append(spaces, &storage.Space{ID: ss.Space.ID, Title: ss.Space.Title})
		}
	}
	return r.searchInSpaces(ctx, orgID, spaces, model.SearchInput{Query: in.Query, First: in.First, After: in.After})
}

// siteSearchScope reads a site search's scope from the contract's body: scope, or the
// deprecated mode (specific with siteSpaceIds, current with siteSpaceId, all); none is default.
// Errors: Invalid.
func siteSearchScope(in model.SiteSearchInput) (model.SiteSearchScope, error) {
	if in.Scope != nil {
		s := *in.Scope
		switch s.Mode {
		case "default", "all":
		case "specific":
			if len(s.SiteSpaceIds) == 0 {
				return s, apperr.Invalidf("scope.siteSpaceIds", "name at least one site space")
			}
		default:
			return s, apperr.Invalidf("scope.mode", "must be default, specific or all")
		}
		return s, nil
	}
	switch mode := deref(in.Mode); {
	case len(in.SiteSpaceIds) > 0 && (mode == "" || mode == "specific"):
		return model.SiteSearchScope{Mode: "specific", SiteSpaceIds: in.SiteSpaceIds}, nil
	case mode == "current" && in.SiteSpaceID != nil:
		return model.SiteSearchScope{Mode: "default", CurrentSiteSpace: in.SiteSpaceID}, nil
	case mode == "all":
		return model.SiteSearchScope{Mode: "all"}, nil
	case mode == "":
		return model.SiteSearchScope{Mode: "default"}, nil
	default:
		return model.SiteSearchScope{}, apperr.Invalidf("mode", "must be specific (with siteSpaceIds), current (with siteSpaceId) or all")
	}
}

// SiteAdaptiveSchema reads the JSON schema of a site's visitor claims. Errors: NotFound (also
// when the site has none), Forbidden.
func (r *App) SiteAdaptiveSchema(ctx context.Context, orgID, siteID string) (*model.SiteAdaptiveSchema, error) {
	site, err := r.SiteByID(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	row, err := r.Store.FindSiteAdaptiveSchema(ctx, site.ID)
	if err != nil {
		return nil, notFound(err, "adaptive schema")
	}
	return &model.SiteAdaptiveSchema{Object: "site-adaptive-schema", JSONSchema: model.JSON(row.JSONSchema), UpdatedAt: row.UpdatedAt}, nil
}

// UpdateSiteAdaptiveSchema sets the JSON schema of a site's visitor claims: the contract's
// SiteAdaptiveJSONSchema. The conditions already on the site must read only claims it declares.
// Errors: Invalid, NotFound, Forbidden.
func (r *App) UpdateSiteAdaptiveSchema(ctx context.Context, orgID, siteID string, jsonSchema model.JSON) (*model.SiteAdaptiveSchema, error) {
	if jsonSchema.IsNull() {
		return nil, apperr.Invalidf("jsonSchema", "is required")
	}
	doc, err := sitestyle.Validate(sitestyle.AdaptiveSchema, jsonSchema)
	if err != nil {
		return nil, styleInvalid("jsonSchema", err)
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	declared := declaredClaims(doc)
	if err := r.siteConditionsDeclared(ctx, site.ID, declared); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	row := &storage.SiteAdaptiveSchema{SiteID: site.ID, OrganizationID: site.OrganizationID, JSONSchema: string(raw), UpdatedAt: r.Now()}
	ctx = r.emit(ctx, siteObjectEvent(EventSiteAdaptiveSchemaUpdated, site, "site", site.ID, site.Title), nil)
	if err := r.Store.SaveSiteAdaptiveSchema(ctx, row); err != nil {
		return nil, err
	}
	return &model.SiteAdaptiveSchema{Object: "site-adaptive-schema", JSONSchema: raw, UpdatedAt: row.UpdatedAt}, nil
}

// styleInvalid is a sitestyle refusal as an Invalid error naming the field under prefix.
func styleInvalid(prefix string, err error) error {
	var ie *sitestyle.InvalidError
	if !errors.As(err, &ie) {
		return err
	}
	field := prefix
	if ie.Field != "" {
		field = strings.TrimPrefix(prefix+"."+ie.Field, ".")
	}
	return apperr.Invalidf(field, "%s", ie.Msg)
}

// claimSchema is one claim an adaptive schema declares: its dotted path under visitor.claims and
// its JSON schema.
type claimSchema struct {
	path   string
	schema map[string]any
}

// declaredClaims lists the claims an adaptive schema declares, by path: the signed ones at the
// top, the unsigned ones under unsigned.
func declaredClaims(doc map[string]any) map[string]claimSchema {
	out := map[string]claimSchema{}
	props, _ := doc["properties"].(map[string]any)
	for name, p := range props {
		s, _ := p.(map[string]any)
		if name == "unsigned" {
			out["unsigned"] = claimSchema{"unsigned", s}
			inner, _ := s["properties"].(map[string]any)
			for k, v := range inner {
				vs, _ := v.(map[string]any)
				out["unsigned."+k] = claimSchema{"unsigned." + k, vs}
			}
			continue
		}
		out[name] = claimSchema{name, s}
	}
	return out
}

// siteConditionsDeclared checks that every condition of a site's site spaces and sections reads
// only declared claims. Errors: Invalid.
func (r *App) siteConditionsDeclared(ctx context.Context, siteID string, declared map[string]claimSchema) error {
	rows, err := r.Store.SiteSpacesOf(ctx, siteID)
	if err != nil {
		return err
	}
	outline, err := r.Store.SiteOutlineOf(ctx, siteID)
	if err != nil {
		return err
	}
	var conds []*string
	for _, ss := range rows {
		conds = append(conds, ss.Condition)
	}
	for _, sec := range outline.Sections {
		conds = append(conds, sec.Condition)
	}
	for _, c := range conds {
		if c == nil {
			continue
		}
		if err := conditionDeclared("jsonSchema", *c, declared); err != nil {
			return err
		}
	}
	return nil
}

// conditionDeclared checks that a condition reads only declared claims. Errors: Invalid naming
// field.
func conditionDeclared(field, condition string, declared map[string]claimSchema) error {
	read, err := expr.ClaimsRead(condition)
	if err != nil {
		return apperr.Invalidf(field, "%s", err.Error())
	}
	for _, claim := range read {
		if _, ok := declared[claim]; !ok {
			return apperr.Invalidf(field, "condition %q reads visitor.claims.%s, which the site's adaptive schema does not declare", condition, claim)
		}
	}
	return nil
}

// checkConditionAgainstSchema checks a condition about to be set on a site against the site's
// adaptive schema, when it has one. Errors: Invalid naming field.
func (r *App) checkConditionAgainstSchema(ctx context.Context, siteID, field, condition string) error {
	row, err := r.Store.FindSiteAdaptiveSchema(ctx, siteID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(row.JSONSchema), &doc); err != nil {
		return fmt.Errorf("read adaptive schema of site %s: %w", siteID, err)
	}
	return conditionDeclared(field, condition, declaredClaims(doc))
}

// SiteAdaptiveSchemaIfSet is the adaptive schema of a site already read, or nil when it has
// none: sites listed together read theirs in one batch. Errors: Forbidden.
func (r *App) SiteAdaptiveSchemaIfSet(ctx context.Context, site *model.Site) (*model.SiteAdaptiveSchema, error) {
	if _, err := r.siteReader(ctx, site.OrganizationID); err != nil {
		return nil, err
	}
	row, ok, err := loader.For(ctx, r.Store).SiteAdaptiveSchemas.Load(ctx, site.ID)
	if err != nil || !ok {
		return nil, err
	}
	return &model.SiteAdaptiveSchema{Object: "site-adaptive-schema", JSONSchema: model.JSON(row.JSONSchema), UpdatedAt: row.UpdatedAt}, nil
}

// SiteAdaptiveTemplateConditions suggests conditions from a site's adaptive schema (see
// AdaptiveTemplateConditionsOf). Errors: NotFound, Forbidden.
func (r *App) SiteAdaptiveTemplateConditions(ctx context.Context, orgID, siteID string) ([]*model.SiteAdaptiveTemplateCondition, error) {
	site, err := r.SiteByID(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return r.AdaptiveTemplateConditionsOf(ctx, site)
}

// AdaptiveTemplateConditionsOf suggests conditions from the adaptive schema of a site already
// read: for each declared claim, one per value of an enumerated string, one for a boolean, a
// comparison for a number or a string. A site without a schema gets none. Errors: Forbidden.
func (r *App) AdaptiveTemplateConditionsOf(ctx context.Context, site *model.Site) ([]*model.SiteAdaptiveTemplateCondition, error) {
	s, err := r.SiteAdaptiveSchemaIfSet(ctx, site)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return []*model.SiteAdaptiveTemplateCondition{}, nil
	}
	var doc map[string]any
	if err := json.Unmarshal(s.JSONSchema, &doc); err != nil {
		return nil, err
	}
	declared := declaredClaims(doc)
	paths := make([]string, 0, len(declared))
	for p := range declared {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	out := []*model.SiteAdaptiveTemplateCondition{}
	add := func(desc, cond string) {
		out = append(out, &model.SiteAdaptiveTemplateCondition{Description: desc, Condition: cond})
	}
	for _, p := range paths {
		c := declared[p]
		ref := "visitor.claims." + p
		label := p
		if d, _ := c.schema["description"].(string); d != "" {
			label = d
		}
		switch c.schema["type"] {
		case "boolean":
			add(label+" is true", ref+" == true")
		case "number":
			add(label+" is more than 0", ref+" > 0")
		case "string":
			if enum, ok := c.schema["enum"].([]any); ok && len(enum) > 0 {
				for _, v := range enum {
					b, _ := json.Marshal(v)
					add(fmt.Sprintf("%s is %v", label, v), ref+" == "+string(b))
				}
			} else {
				add(label+" is set", ref+" != nil && "+ref+" != \"\"")
			}
		case "array":
			items, _ := c.schema["items"].(map[string]any)
			if enum, ok := items["enum"].([]any); ok && len(enum) > 0 {
				for _, v := range enum {
					b, _ := json.Marshal(v)
					add(fmt.Sprintf("%s includes %v", label, v), string(b)+" in "+ref)
				}
			} else {
				add(label+" is not empty", "len("+ref+" ?? []) > 0")
			}
		}
	}
	return out, nil
}
