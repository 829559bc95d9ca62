package domain

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/bindery/bindery/domain/sitestyle"

	"github.com/bindery/bindery/domain/model"
)

// publishedStyle reads a published site's customizations once per view.
func (r *App) publishedStyle(ctx context.Context, ps *PublishedSite) (*customizations, error) {
	ps.styleOnce.Do(func() {
		ps.style, ps.styleErr = r.siteCustomizations(ctx, ps.ID)
		if ps.styleErr != nil {
			return
		}
		docs := []map[string]any{ps.style.site}
		for _, o := range ps.style.overrides {
			docs = append(docs, o)
		}
		ps.styleErr = r.resolveFonts(ctx, ps.orgID, ps.URL, docs...)
	})
	return ps.style, ps.styleErr
}

// PublishedCustomization is a published site's customization (SiteCustomizationSettings).
func (r *App) PublishedCustomization(ctx context.Context, ps *PublishedSite) (model.JSON, error) {
	c, err := r.publishedStyle(ctx, ps)
	if err != nil {
		return nil, err
	}
	return json.Marshal(readerDoc(c, c.site))
}

// readerDoc is a customization as the reader gets it: a site that never set its customization
// leaves the light or dark choice to each visitor's system, so it has no themes.
func readerDoc(c *customizations, doc map[string]any) map[string]any {
	if c.stored {
		return doc
	}
	out := sitestyle.Merge(doc, nil)
	if _, overridden := doc["themes"]; overridden && c.site["themes"] != nil && fmt.Sprint(doc["themes"]) != fmt.Sprint(c.site["themes"]) {
		return out
	}
	delete(out, "themes")
	return out
}

// PublishedSiteSpaceCustomization is the customization a published site space shows: its site's
// with its overrides.
func (r *App) PublishedSiteSpaceCustomization(ctx context.Context, sp *PublishedSiteSpace) (model.JSON, error) {
	c, err := r.publishedStyle(ctx, sp.site)
	if err != nil {
		return nil, err
	}
	return json.Marshal(readerDoc(c, c.of(sp.ID)))
}
