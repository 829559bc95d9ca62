package domain

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Integrations: a catalogue of published definitions, installed on organizations and their
// spaces. Bindery keeps what an integration declares (blocks, scopes, configurations) and gives
// each installation its own scoped API token; it never runs an integration's code
// (docs/integrations.md).

// installationTokenLifetime bounds an installation token: the contract calls them temporary.
const installationTokenLifetime = time.Hour

// integrationDefinition is what Bindery keeps of a published integration.
type integrationDefinition struct {
	Title                 string                    `json:"title"`
	Description           string                    `json:"description"`
	Summary               *string                   `json:"summary,omitempty"`
	Target                string                    `json:"target"`
	Scopes                []string                  `json:"scopes"`
	Categories            []string                  `json:"categories"`
	Blocks                []*model.IntegrationBlock `json:"blocks,omitempty"`
	ContentSources        model.JSON                `json:"contentSources,omitempty"`
	Configurations        model.JSON                `json:"configurations,omitempty"`
	ExternalLinks         []*model.IntegrationLink  `json:"externalLinks"`
	ContentSecurityPolicy model.JSON                `json:"contentSecurityPolicy,omitempty"`
}

// integrationScopes are the scopes an integration may ask for: the contract's, not "read".
func integrationScopes(scopes []string) ([]string, error) {
	if slices.Contains(scopes, authz.ScopeRead) {
		return nil, apperr.Invalidf("scopes", `"read" is a scope of users' tokens; integrations name theirs (space:content:read, …)`)
	}
	if len(scopes) == 0 {
		return []string{}, nil
	}
	return validScopes("scopes", scopes)
}

// PublishIntegration publishes an integration owned by in.Organization, whose admins may
// publish it again (its version goes up). The script, icon and secrets are not kept. Errors:
// Invalid, NotFound (owner), Forbidden, Conflict (another organization owns the name).
func (r *App) PublishIntegration(ctx context.Context, name string, in model.PublishIntegrationInput) (*model.Integration, error) {
	if err := model.ValidateIntegrationName(name); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	scopes, err := integrationScopes(in.Scopes)
	if err != nil {
		return nil, err
	}
	org, err := r.OrganizationByID(ctx, in.Organization)
	if err != nil {
		return nil, apperr.NotFoundf("owner organization not found")
	}
	if err := authz.CanAdminister(org); err != nil {
		return nil, err
	}
	def := integrationDefinition{Title: in.Title, Description: in.Description, Summary: in.Summary, Target: "all",
		Scopes: scopes, Categories: in.Categories, Blocks: in.Blocks, ContentSources: in.ContentSources,
		Configurations: in.Configurations, ExternalLinks: in.ExternalLinks, ContentSecurityPolicy: in.ContentSecurityPolicy}
	if in.Target != nil {
		def.Target = *in.Target
	}
	if def.Categories == nil {
		def.Categories = []string{}
	}
	if def.ExternalLinks == nil {
		def.ExternalLinks = []*model.IntegrationLink{}
	}
	b, err := json.Marshal(def)
	if err != nil {
		return nil, err
	}
	visibility := "private"
	if in.Visibility != nil {
		visibility = *in.Visibility
	}
	now := r.Now()
	ctx = r.emit(ctx, integrationEvent(EventIntegrationPublished, org.ID, name), map[string]any{"visibility": visibility})
	row, err := r.Store.PublishIntegration(ctx, &storage.Integration{Name: name, OrganizationID: org.ID, Visibility: visibility, Definition: string(b), CreatedAt: now, UpdatedAt: now})
	if errors.Is(err, storage.ErrConflict) {
		return nil, apperr.Conflictf("the integration name %q belongs to another organization", name)
	}
	if err != nil {
		return nil, err
	}
	row.Owner, err = r.Store.FindOrganizationByID(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	return r.toIntegration(row, org)
}

// toIntegration shows an integration; viewerOrg (may be nil) is the caller's organization the
// question is asked in: its admins administer the integrations it owns.
func (r *App) toIntegration(row *storage.Integration, viewerOrg *model.Organization) (*model.Integration, error) {
	var def integrationDefinition
	if err := json.Unmarshal([]byte(row.Definition), &def); err != nil {
		return nil, err
	}
	base := r.apiURL("/integrations/%s", row.Name)
	out := &model.Integration{
		Object: "integration", Name: row.Name, Version: row.Version, Title: def.Title, Description: def.Description,
		Summary: def.Summary, PreviewImages: []string{}, Target: def.Target, Visibility: row.Visibility,
		Scopes: def.Scopes, Categories: def.Categories, Blocks: def.Blocks, ContentSources: def.ContentSources,
		Configurations: def.Configurations, ExternalLinks: def.ExternalLinks, ContentSecurityPolicy: def.ContentSecurityPolicy,
		URLs:        model.IntegrationURLs{Location: base, App: r.Settings.AppURL + "/integrations/" + row.Name, Assets: base + "/assets", PublicEndpoint: base},
		Permissions: model.IntegrationPermissions{Admin: viewerOrg != nil && viewerOrg.ID == row.OrganizationID && viewerOrg.Permissions.Admin},
	}
	if row.Owner != nil {
		out.Owner = r.toOrganization(row.Owner, nil)
	}
	return out, nil
}

// visibleTo reports whether an organization may see and install an integration: public and
// unlisted ones are everyone's, private ones their owner's.
func visibleTo(row *storage.Integration, orgID string) bool {
	return row.Visibility != "private" || row.OrganizationID == orgID
}

// InstallIntegration installs an integration on an organization whose admin the caller is
// (installing it again returns the installation it has). Errors: Invalid, NotFound, Forbidden.
func (r *App) InstallIntegration(ctx context.Context, name string, in model.OrganizationTarget) (*model.IntegrationInstallation, error) {
	if err := model.ValidateIntegrationName(name); err != nil {
		return nil, err
	}
	org, err := r.OrganizationByID(ctx, in.Organization)
	if err != nil {
		return nil, err
	}
	row, err := r.Store.FindIntegration(ctx, name)
	if err != nil || !visibleTo(row, org.ID) {
		return nil, notFound(orNotFound(err), "integration")
	}
	if !org.Permissions.InstallIntegration {
		return nil, apperr.Forbiddenf("only an admin of this organization can install integrations")
	}
	inst, _, err := r.Store.Install(r.emit(ctx, integrationEvent(EventInstallationSetup, org.ID, name), nil), name, org.ID, org.Viewer.ID, r.Now())
	if err != nil {
		return nil, err
	}
	return r.toInstallation(inst), nil
}

// integrationEvent is an event about an integration (or one of its installations) in an
// organization.
func integrationEvent(typ, orgID, name string) *storage.Event {
	return orgObjectEvent(typ, orgID, "integration", name, name)
}

func orNotFound(err error) error {
	if err == nil {
		return storage.ErrNotFound
	}
	return err
}

func (r *App) toInstallation(in *storage.Installation) *model.IntegrationInstallation {
	loc := r.apiURL("/integrations/%s/installations/%s", in.IntegrationName, in.ID)
	return &model.IntegrationInstallation{
		ID: in.ID, Status: "active", SpaceSelection: "selected", SiteSelection: "selected", Spaces: in.Spaces,
		Configuration: model.JSON("{}"), CreatedAt: in.CreatedAt, UpdatedAt: in.UpdatedAt,
		URLs:        model.IntegrationInstallationURLs{Location: loc, App: r.Settings.AppURL + "/o/" + in.OrganizationID + "/integrations/" + in.IntegrationName, PublicEndpoint: loc},
		ExternalIDs: []string{}, Target: model.OrganizationTarget{Organization: in.OrganizationID}, Integration: in.IntegrationName,
	}
}

// installation returns an installation in an organization the caller belongs to, with that
// organization. Errors: NotFound.
func (r *App) installation(ctx context.Context, name, id string) (*storage.Installation, *model.Organization, error) {
	if err := model.ValidateIntegrationName(name); err != nil {
		return nil, nil, err
	}
	inst, err := r.Store.FindInstallation(ctx, name, id, "")
	if err != nil {
		return nil, nil, notFound(err, "installation")
	}
	org, err := r.OrganizationByID(ctx, inst.OrganizationID)
	if err != nil {
		return nil, nil, apperr.NotFoundf("installation not found")
	}
	return inst, org, nil
}

// InstallIntegrationOnSpace adds an installation to a space of its organization: admins of the
// space may (the space's installIntegration permission). Its token then reaches that space.
// Errors: Invalid, NotFound, Forbidden.
func (r *App) InstallIntegrationOnSpace(ctx context.Context, name, installationID string, in model.InstallOnSpaceInput) (*model.IntegrationSpaceInstallation, error) {
	inst, _, err := r.installation(ctx, name, installationID)
	if err != nil {
		return nil, err
	}
	if in.Space == "" {
		return nil, apperr.Invalidf("space", "is required")
	}
	sp, row, err := r.readableSpace(ctx, in.Space, false)
	if err != nil || row.OrganizationID != inst.OrganizationID {
		return nil, apperr.NotFoundf("space not found")
	}
	if !sp.Permissions.InstallIntegration {
		return nil, apperr.Forbiddenf("only an admin of this space can install integrations on it")
	}
	ev := integrationEvent(EventSpaceInstallationSetup, inst.OrganizationID, name)
	ev.SpaceID = row.ID
	if _, err := r.Store.InstallOnSpace(r.emit(ctx, ev, map[string]any{"installationId": inst.ID}), inst, row.ID, r.Now()); err != nil {
		return nil, err
	}
	loc := r.apiURL("/integrations/%s/installations/%s/spaces/%s", name, inst.ID, row.ID)
	return &model.IntegrationSpaceInstallation{Integration: name, Installation: inst.ID, Status: "active", Configuration: model.JSON("{}"),
		ExternalIDs: []string{}, URLs: model.IntegrationSpaceInstallationURLs{Location: loc, PublicEndpoint: loc}, Space: row.ID}, nil
}

// CreateInstallationToken issues an API token for an installation, for the organization's
// admins to hand to the integration's own service: it carries the integration's scopes, reaches
// only the spaces the installation is on, acts as the admin who created it (never more than
// their roles) and expires after an hour. Errors: NotFound, Forbidden.
func (r *App) CreateInstallationToken(ctx context.Context, name, installationID string) (*model.APITemporaryToken, error) {
	inst, org, err := r.installation(ctx, name, installationID)
	if err != nil {
		return nil, err
	}
	if !org.Permissions.InstallIntegration {
		return nil, apperr.Forbiddenf("only an admin of this organization can create an installation's token")
	}
	row, err := r.Store.FindIntegration(ctx, name)
	if err != nil {
		return nil, err
	}
	var def integrationDefinition
	if err := json.Unmarshal([]byte(row.Definition), &def); err != nil {
		return nil, err
	}
	scopes := scopesJSON(def.Scopes)
	now := r.Now()
	expires := now.Add(installationTokenLifetime)
	ctx = r.emit(ctx, integrationEvent(EventInstallationTokenCreated, org.ID, name), map[string]any{"installationId": inst.ID, "expiresAt": expires})
	token, err := r.Store.CreateLimitedToken(ctx, org.Viewer.ID, now, &expires, storage.TokenLimit{Scopes: &scopes, InstallationID: &inst.ID})
	if err != nil {
		return nil, err
	}
	return &model.APITemporaryToken{Token: token, ExpiresAt: expires}, nil
}

// SpaceIntegrations lists the integrations installed on a space the caller can read, by name,
// only those whose name contains search when given. Errors: NotFound.
func (r *App) SpaceIntegrations(ctx context.Context, spaceID string, search *string) ([]*model.Integration, error) {
	_, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	rows, err := r.Store.SpaceIntegrations(ctx, row.ID, deref(search))
	if err != nil {
		return nil, err
	}
	var viewerOrg *model.Organization
	if o, err := r.OrganizationByID(ctx, row.OrganizationID); err == nil {
		viewerOrg = o
	}
	out := make([]*model.Integration, 0, len(rows))
	for _, ig := range rows {
		m, err := r.toIntegration(ig, viewerOrg)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// SpaceIntegrationBlocks lists, per integration installed on a space, the blocks it provides.
// Errors: NotFound.
func (r *App) SpaceIntegrationBlocks(ctx context.Context, spaceID string) ([]*model.SpaceIntegrationBlocks, error) {
	list, err := r.SpaceIntegrations(ctx, spaceID, nil)
	if err != nil {
		return nil, err
	}
	out := make([]*model.SpaceIntegrationBlocks, len(list))
	for i, ig := range list {
		blocks := ig.Blocks
		if blocks == nil {
			blocks = []*model.IntegrationBlock{}
		}
		out[i] = &model.SpaceIntegrationBlocks{Name: ig.Name, Blocks: blocks}
	}
	return out, nil
}
