package domain

import (
	"context"
	"encoding/json"
	"regexp"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Limits of a site's variables.
const (
	maxSiteVariables     = 100
	maxSiteVariableBytes = 16 << 10
)

var variableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

func toReaderSettings(s *storage.SiteReaderSettings) *model.SiteReaderSettings {
	return &model.SiteReaderSettings{SigningKey: s.SigningKey, UnsignedClaims: s.UnsignedClaims, Variables: jsonOf(s.Variables), Insights: !s.InsightsOff}
}

// siteReaderSettings reads a site's reader settings (site managers: the key is a secret).
// Errors: NotFound, Forbidden.
func (r *App) SiteReaderSettings(ctx context.Context, site *model.Site) (*model.SiteReaderSettings, error) {
	if _, err := r.siteEditor(ctx, site.OrganizationID); err != nil {
		return nil, err
	}
	s, err := loader.For(ctx, r.Store).SiteReaderSettings.Find(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	return toReaderSettings(s), nil
}

// ChangeSiteReaderSettings changes a site's reader settings: a new signing key, whether unsigned
// claims count, its variables. Errors: Invalid, NotFound, Forbidden.
func (r *App) ChangeSiteReaderSettings(ctx context.Context, orgID, siteID string, in model.UpdateSiteReaderSettingsInput) (*model.SiteReaderSettings, error) {
	vars, setVars := in.Variables.ValueOK()
	var text *string
	if setVars && vars != nil && !vars.IsNull() {
		s, err := validSiteVariables(vars)
		if err != nil {
			return nil, err
		}
		text = &s
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	s, err := r.Store.SiteReaderSettingsOf(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	s.OrganizationID, s.UpdatedAt = site.OrganizationID, r.Now()
	if in.RotateSigningKey != nil && *in.RotateSigningKey {
		key := newSigningKey()
		s.SigningKey = &key
	}
	if in.UnsignedClaims != nil {
		s.UnsignedClaims = *in.UnsignedClaims
	}
	if setVars {
		s.Variables = text
	}
	if in.Insights != nil {
		s.InsightsOff = !*in.Insights
	}
	if err := r.Store.SaveSiteReaderSettings(r.emit(ctx, visitorAuthEvent(s), map[string]any{"readerSettings": true}), s); err != nil {
		return nil, err
	}
	return toReaderSettings(s), nil
}

// validSiteVariables checks variables: an object of at most maxSiteVariables names to strings,
// numbers or booleans. Errors: Invalid.
func validSiteVariables(raw model.JSON) (string, error) {
	if len(raw) > maxSiteVariableBytes {
		return "", apperr.Invalidf("variables", "must be at most %d bytes", maxSiteVariableBytes)
	}
	var vars map[string]any
	if err := json.Unmarshal(raw, &vars); err != nil {
		return "", apperr.Invalidf("variables", "must be a JSON object")
	}
	if len(vars) > maxSiteVariables {
		return "", apperr.Invalidf("variables", "at most %d variables", maxSiteVariables)
	}
	for k, v := range vars {
		if !variableName.MatchString(k) {
			return "", apperr.Invalidf("variables", "%q: names are letters, digits and _, not starting with a digit", k)
		}
		switch v.(type) {
		case string, float64, bool:
		default:
			return "", apperr.Invalidf("variables", "%q: values are strings, numbers or booleans", k)
		}
	}
	b, err := json.Marshal(vars)
	return string(b), err
}
