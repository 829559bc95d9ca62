package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// UserIdentity ties an account to an identity provider's subject (the ID token's iss and sub).
type UserIdentity struct {
	bun.BaseModel `bun:"table:user_identities,alias:ui"`

	Issuer    string `bun:"issuer,pk"`
	Subject   string `bun:"subject,pk"`
	UserID    string
	CreatedAt time.Time
}

// FindIdentityUser returns the user an identity provider's subject is tied to. Errors: ErrNotFound.
func (s *Store) FindIdentityUser(ctx context.Context, issuer, subject string) (*User, error) {
	u := new(User)
	err := s.db.NewSelect().Model(u).
		Join("JOIN user_identities AS ui ON ui.user_id = u.id").
		Where("ui.issuer = ? AND ui.subject = ?", issuer, subject).Scan(ctx)
	if err != nil {
		return nil, translate(err)
	}
	return u, nil
}

// IdentitySubject returns the subject userID is tied to at issuer. Errors: ErrNotFound.
func (s *Store) IdentitySubject(ctx context.Context, userID, issuer string) (string, error) {
	var subject string
	err := s.db.NewSelect().Model((*UserIdentity)(nil)).Column("subject").
		Where("user_id = ? AND issuer = ?", userID, issuer).Limit(1).Scan(ctx, &subject)
	return subject, translate(err)
}

// LinkIdentity ties userID to a subject at issuer. Errors: ErrConflict when the subject is
// already tied to an account.
func (s *Store) LinkIdentity(ctx context.Context, issuer, subject, userID string, now time.Time) error {
	_, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewInsert().Model(&UserIdentity{Issuer: issuer, Subject: subject, UserID: userID, CreatedAt: now})
	})
	if err != nil {
		return fmt.Errorf("link identity: %w", translate(err))
	}
	return nil
}

// SSORoles maps an identity provider's claim to an organization's member roles. Roles is JSON:
// a list of {value, role} owned by the domain.
type SSORoles struct {
	bun.BaseModel `bun:"table:organization_sso_roles,alias:sr"`

	OrganizationID string `bun:"organization_id,pk"`
	Claim          string
	Roles          string
	UpdatedAt      time.Time
}

// FindSSORoles returns an organization's claim mapping. Errors: ErrNotFound when it has none.
func (s *Store) FindSSORoles(ctx context.Context, orgID string) (*SSORoles, error) {
	m := new(SSORoles)
	if err := s.db.NewSelect().Model(m).Where("organization_id = ?", orgID).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return m, nil
}

// SetSSORoles stores an organization's claim mapping; an empty claim removes it.
func (s *Store) SetSSORoles(ctx context.Context, m *SSORoles) error {
	if m.Claim == "" {
		_, err := s.write(ctx, func(db bun.IDB) execer {
			return db.NewDelete().Model((*SSORoles)(nil)).Where("organization_id = ?", m.OrganizationID)
		})
		return translate(err)
	}
	_, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewInsert().Model(m).On("CONFLICT (organization_id) DO UPDATE").
			Set("claim = EXCLUDED.claim, roles = EXCLUDED.roles, updated_at = EXCLUDED.updated_at")
	})
	return translate(err)
}

// SSORolesOfMember returns the claim mappings of the organizations userID is a member of, with
// the membership (its Organization unset).
func (s *Store) SSORolesOfMember(ctx context.Context, userID string) ([]*SSORoles, map[string]*Member, error) {
	var maps []*SSORoles
	err := s.db.NewSelect().Model(&maps).
		Join("JOIN organization_members AS m ON m.organization_id = sr.organization_id").
		Where("m.user_id = ?", userID).Order("sr.organization_id").Scan(ctx)
	if err != nil || len(maps) == 0 {
		return nil, nil, translate(err)
	}
	ids := make([]string, len(maps))
	for i, m := range maps {
		ids[i] = m.OrganizationID
	}
	var members []*Member
	if err := s.db.NewSelect().Model(&members).Where("user_id = ? AND organization_id IN (?)", userID, bun.In(ids)).Scan(ctx); err != nil {
		return nil, nil, translate(err)
	}
	byOrg := make(map[string]*Member, len(members))
	for _, m := range members {
		byOrg[m.OrganizationID] = m
	}
	return maps, byOrg, nil
}

// SAMLProvider is an organization's SAML identity provider. Certificate is the provider's
// signing certificate, base64 DER; a provider lacking EntityID, Certificate or SSOURL is pending.
type SAMLProvider struct {
	bun.BaseModel `bun:"table:saml_providers,alias:sp"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	Label          string
	EntityID       string `bun:"entity_id"`
	Certificate    string
	SSOURL         string  `bun:"sso_url"`
	DefaultTeamID  *string `bun:"default_team_id"`
	DefaultRole    *string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// FindSAMLProviders lists an organization's SAML providers, newest first.
func (s *Store) FindSAMLProviders(ctx context.Context, orgID string, page Window) (List[*SAMLProvider], error) {
	key := sortKey{name: "samlProviders", column: "sp.created_at", idCol: "sp.id", desc: true, isTime: true}
	filter := func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("sp.organization_id = ?", orgID) }
	return paginate(ctx, s.rdb, key, page, filter, func(p *SAMLProvider) (time.Time, string, string) {
		return p.CreatedAt, "", p.ID
	})
}

// FindSAMLProvider returns one provider; orgID "" finds it in any organization (the sign-in
// routes, which know only the provider). Errors: ErrNotFound.
func (s *Store) FindSAMLProvider(ctx context.Context, orgID, id string) (*SAMLProvider, error) {
	p := new(SAMLProvider)
	q := s.db.NewSelect().Model(p).Where("sp.id = ?", id)
	if orgID != "" {
		q = q.Where("sp.organization_id = ?", orgID)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return p, nil
}

// SaveSAMLProvider inserts or replaces a provider.
func (s *Store) SaveSAMLProvider(ctx context.Context, p *SAMLProvider) error {
	_, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewInsert().Model(p).On("CONFLICT (id) DO UPDATE").
			Set("label = EXCLUDED.label, entity_id = EXCLUDED.entity_id, certificate = EXCLUDED.certificate, sso_url = EXCLUDED.sso_url").
			Set("default_team_id = EXCLUDED.default_team_id, default_role = EXCLUDED.default_role, updated_at = EXCLUDED.updated_at")
	})
	if err != nil {
		return fmt.Errorf("save SAML provider: %w", translate(err))
	}
	return nil
}

// DeleteSAMLProvider deletes a provider, reporting whether it existed.
func (s *Store) DeleteSAMLProvider(ctx context.Context, orgID, id string) (bool, error) {
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewDelete().Model((*SAMLProvider)(nil)).Where("organization_id = ? AND id = ?", orgID, id)
	})
	if err != nil {
		return false, fmt.Errorf("delete SAML provider: %w", translate(err))
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// HasActiveSAMLProvider reports whether an organization has a provider members can sign in through.
func (s *Store) HasActiveSAMLProvider(ctx context.Context, orgID string) (bool, error) {
	return s.db.NewSelect().Model((*SAMLProvider)(nil)).Where("organization_id = ?", orgID).
		Where("entity_id <> '' AND certificate <> '' AND sso_url <> ''").Exists(ctx)
}
