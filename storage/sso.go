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
	_, err := s.db.NewInsert().Model(&UserIdentity{Issuer: issuer, Subject: subject, UserID: userID, CreatedAt: now}).Exec(ctx)
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
		_, err := s.db.NewDelete().Model((*SSORoles)(nil)).Where("organization_id = ?", m.OrganizationID).Exec(ctx)
		return translate(err)
	}
	_, err := s.db.NewInsert().Model(m).On("CONFLICT (organization_id) DO UPDATE").
		Set("claim = EXCLUDED.claim, roles = EXCLUDED.roles, updated_at = EXCLUDED.updated_at").Exec(ctx)
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
