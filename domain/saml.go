package domain

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"strings"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// An organization's SAML identity providers (docs/accounts.md): admins manage them through both
// doors; members sign in through them at the sign-in routes (package signin), which ask
// SAMLSignInProvider for the provider and JoinThroughSAML to join its organization.

// SAMLProviders lists an organization's SAML providers (admins). Errors: Invalid, NotFound, Forbidden.
func (r *App) SAMLProviders(ctx context.Context, orgID string, first *int, after *string) (*model.Connection[*model.SAMLProvider], error) {
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.FindSAMLProviders(ctx, org.ID, page)
	if err != nil {
		return nil, err
	}
	items, err := r.toSAMLProviders(ctx, org.ID, list.Items)
	if err != nil {
		return nil, err
	}
	return model.NewConnection(items, list.Cursors, list.Total, list.HasMore), nil
}

// SAMLProvider returns one of an organization's SAML providers (admins). Errors: NotFound, Forbidden.
func (r *App) SAMLProvider(ctx context.Context, orgID, id string) (*model.SAMLProvider, error) {
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	row, err := r.Store.FindSAMLProvider(ctx, org.ID, id)
	if err != nil {
		return nil, notFound(err, "SAML provider")
	}
	out, err := r.toSAMLProviders(ctx, org.ID, []*storage.SAMLProvider{row})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// CreateSAMLProvider adds a SAML provider (admins): with a label alone it is pending, until the
// identity provider's entity id, certificate and sign-in URL are set. Errors: Invalid, NotFound,
// Forbidden.
func (r *App) CreateSAMLProvider(ctx context.Context, orgID string, in model.SAMLProviderInput) (*model.SAMLProvider, error) {
	now := r.Now()
	return r.saveSAMLProvider(ctx, orgID, &storage.SAMLProvider{ID: storage.NewID(), CreatedAt: now}, in, true)
}

// UpdateSAMLProvider changes a SAML provider (admins). Errors: Invalid, NotFound, Forbidden.
func (r *App) UpdateSAMLProvider(ctx context.Context, orgID, id string, in model.SAMLProviderInput) (*model.SAMLProvider, error) {
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	row, err := r.Store.FindSAMLProvider(ctx, org.ID, id)
	if err != nil {
		return nil, notFound(err, "SAML provider")
	}
	return r.saveSAMLProvider(ctx, orgID, row, in, false)
}

func (r *App) saveSAMLProvider(ctx context.Context, orgID string, row *storage.SAMLProvider, in model.SAMLProviderInput, create bool) (*model.SAMLProvider, error) {
	if err := in.Validate(create); err != nil {
		return nil, err
	}
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	row.OrganizationID = org.ID
	if v, ok := in.Label.ValueOK(); ok {
		row.Label = strings.TrimSpace(*v)
	}
	if v, ok := in.EntityID.ValueOK(); ok {
		row.EntityID = strings.TrimSpace(model.Deref(v))
	}
	if v, ok := in.Certificate.ValueOK(); ok {
		if row.Certificate, err = normalizeCertificate(model.Deref(v)); err != nil {
			return nil, err
		}
	}
	if v, ok := in.SSOURL.ValueOK(); ok {
		row.SSOURL = model.Deref(v)
	}
	if v, ok := in.DefaultTeam.ValueOK(); ok {
		if v != nil && *v != "" {
			if _, err := r.Store.FindTeam(ctx, org.ID, *v); err != nil {
				if errors.Is(err, storage.ErrNotFound) {
					return nil, apperr.Invalidf("defaultTeam", "team %q not found in this organization", *v)
				}
				return nil, err
			}
		} else {
			v = nil
		}
		row.DefaultTeamID = v
	}
	if v, ok := in.DefaultRole.ValueOK(); ok {
		row.DefaultRole = roleString(v)
	}
	row.UpdatedAt = r.Now()
	typ := EventSAMLProviderUpdated
	if create {
		typ = EventSAMLProviderCreated
	}
	if err := r.Store.SaveSAMLProvider(r.emit(ctx, orgObjectEvent(typ, org.ID, "saml-provider", row.ID, row.Label), nil), row); err != nil {
		return nil, err
	}
	out, err := r.toSAMLProviders(ctx, org.ID, []*storage.SAMLProvider{row})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// DeleteSAMLProvider removes a SAML provider (admins), reporting whether it existed. Errors:
// NotFound (the organization), Forbidden.
func (r *App) DeleteSAMLProvider(ctx context.Context, orgID, id string) (bool, error) {
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return false, err
	}
	return r.Store.DeleteSAMLProvider(r.emit(ctx, orgObjectEvent(EventSAMLProviderDeleted, org.ID, "saml-provider", id, ""), nil), org.ID, id)
}

// normalizeCertificate accepts a PEM certificate or its base64 DER body, and keeps the base64 DER
// of a certificate that parses ("" clears it). Errors: Invalid.
func normalizeCertificate(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	der, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
	if block, _ := pem.Decode([]byte(s)); block != nil {
		der, err = block.Bytes, nil
	}
	if err == nil {
		_, err = x509.ParseCertificate(der)
	}
	if err != nil {
		return "", apperr.Invalidf("certificate", "must be the identity provider's X.509 signing certificate, in PEM or base64")
	}
	return base64.StdEncoding.EncodeToString(der), nil
}

func (r *App) toSAMLProviders(ctx context.Context, orgID string, rows []*storage.SAMLProvider) ([]*model.SAMLProvider, error) {
	var teamIDs []string
	for _, p := range rows {
		if p.DefaultTeamID != nil {
			teamIDs = append(teamIDs, *p.DefaultTeamID)
		}
	}
	var teams map[string]*model.Team
	if len(teamIDs) > 0 {
		rowsByID, err := r.Store.TeamsByIDs(ctx, orgID, teamIDs)
		if err != nil {
			return nil, err
		}
		acc, err := r.viewerAccess(ctx, orgID)
		if err != nil {
			return nil, err
		}
		spaces, err := r.teamSpaces(ctx, orgID)
		if err != nil {
			return nil, err
		}
		teams = map[string]*model.Team{}
		for id, t := range rowsByID {
			teams[id] = r.toTeam(t, acc, spaces)
		}
	}
	out := make([]*model.SAMLProvider, len(rows))
	for i, p := range rows {
		base := strings.TrimRight(r.Settings.PublicURL, "/") + "/auth/saml/" + p.ID
		m := &model.SAMLProvider{Object: "saml-provider", ID: p.ID, Label: p.Label, SSOURL: p.SSOURL, EntityID: p.EntityID,
			Certificate: p.Certificate, DefaultRole: (*model.MemberRole)(p.DefaultRole), CreatedAt: p.CreatedAt,
			Status: model.SAMLProviderStatusPending, OrganizationID: p.OrganizationID,
			Service: model.SAMLService{AcsURL: base + "/acs", StartURL: base + "/start", EntityID: base + "/metadata"},
			URLs:    model.LocationURLs{Location: r.apiURL("/orgs/%s/saml/%s", p.OrganizationID, p.ID)}}
		if samlActive(p) {
			m.Status = model.SAMLProviderStatusActive
		}
		if m.SSOURL == "" {
			m.SSOURL = noSignInURL
		}
		if p.DefaultTeamID != nil {
			m.DefaultTeam = teams[*p.DefaultTeamID]
		}
		out[i] = m
	}
	return out, nil
}

// noSignInURL is a pending provider's ssoURL until the identity provider's is set: the contract
// requires a URI there.
const noSignInURL = "about:blank"

func samlActive(p *storage.SAMLProvider) bool {
	return p.EntityID != "" && p.Certificate != "" && p.SSOURL != ""
}

// SAMLSignInProvider returns an active provider for the sign-in routes: holding its id is enough
// to start a sign-in, as a sign-in page is public. Errors: NotFound (unknown or pending).
func (r *App) SAMLSignInProvider(ctx context.Context, id string) (*account.SAMLProvider, error) {
	p, err := r.Store.FindSAMLProvider(ctx, "", id)
	if err != nil || !samlActive(p) {
		return nil, apperr.NotFoundf("this single sign-on link is not valid: ask an administrator")
	}
	org, err := r.Store.FindOrganizationByID(ctx, p.OrganizationID)
	if err != nil {
		return nil, notFound(err, "organization")
	}
	return &account.SAMLProvider{ID: p.ID, OrganizationID: p.OrganizationID, OrganizationTitle: org.Title, Label: p.Label,
		EntityID: p.EntityID, Certificate: p.Certificate, SSOURL: p.SSOURL}, nil
}

// JoinThroughSAML makes the context's actor, just signed in through a provider, a member of its
// organization: an SSO member with the provider's default role and team. An existing member
// keeps their role. Errors: NotFound.
func (r *App) JoinThroughSAML(ctx context.Context, providerID string) error {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return err
	}
	p, err := r.Store.FindSAMLProvider(ctx, "", providerID)
	if err != nil {
		return notFound(err, "SAML provider")
	}
	added, err := r.Store.AddMember(ctx, p.OrganizationID, actor.UserID, p.DefaultRole, r.Now())
	if err != nil || !added {
		return err
	}
	if err := r.Store.SetMemberSSO(ctx, p.OrganizationID, actor.UserID); err != nil {
		return err
	}
	if p.DefaultTeamID != nil {
		return r.Store.UpdateTeamMembers(ctx, p.OrganizationID, *p.DefaultTeamID, storage.TeamUpdate{Add: []string{actor.UserID}}, r.Now())
	}
	return nil
}
