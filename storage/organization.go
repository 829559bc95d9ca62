package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// Organization is a tenant: every other row that belongs to one carries its id.
type Organization struct {
	bun.BaseModel `bun:"table:organizations,alias:o"`

	ID                 string `bun:"id,pk"`
	Title              string
	Type               string
	UseCase            *string
	CommunityType      *string
	Hostname           *string
	EmailDomains       []string `bun:"email_domains,type:text"`
	DefaultRole        *string
	DefaultContentSite *string
	LogoURL            *string
	SSO                bool `bun:"sso"`
	AI                 bool `bun:"ai"`
	InviteLinks        bool
	Plan               string
	MergeRules         string // JSON, owned by the API layer
	CreatedAt          time.Time
	UpdatedAt          time.Time
}

// AgentInstructions are an organization's instructions for AI agents, a rich-text document kept
// as JSON.
type AgentInstructions struct {
	bun.BaseModel `bun:"table:organization_agent_instructions,alias:ai"`

	OrganizationID string `bun:"organization_id,pk"`
	Instructions   string // JSON document
	UpdatedBy      string
	UpdatedAt      time.Time
}

// OrganizationField is a field of an Organization that UpdateOrganization writes.
type OrganizationField uint32

// The organization fields.
const (
	OrganizationTitle OrganizationField = 1 << iota
	OrganizationEmailDomains
	OrganizationHostname
	OrganizationDefaultRole
	OrganizationDefaultContent
	OrganizationLogo
	OrganizationSSO
	OrganizationAI
	OrganizationInviteLinks
	OrganizationMergeRules
)

var organizationColumns = map[OrganizationField][]string{
	OrganizationTitle: {"title"}, OrganizationEmailDomains: {"email_domains"}, OrganizationHostname: {"hostname"},
	OrganizationDefaultRole: {"default_role"}, OrganizationDefaultContent: {"default_content_site"},
	OrganizationLogo: {"logo_url"}, OrganizationSSO: {"sso"}, OrganizationAI: {"ai"},
	OrganizationInviteLinks: {"invite_links"}, OrganizationMergeRules: {"merge_rules"},
}

// ErrLastAdmin refuses a change that would leave an organization without an admin.
var ErrLastAdmin = errors.New("an organization must keep at least one admin")

// CreateOrganization inserts an organization with ownerID as its first admin, in one transaction.
func (s *Store) CreateOrganization(ctx context.Context, org *Organization, ownerID string) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		return createOrganization(ctx, tx, org, ownerID)
	})
}

func createOrganization(ctx context.Context, db bun.IDB, org *Organization, ownerID string) error {
	if org.ID == "" {
		org.ID = NewID()
	}
	if org.EmailDomains == nil {
		org.EmailDomains = []string{}
	}
	if _, err := db.NewInsert().Model(org).Exec(ctx); err != nil {
		return fmt.Errorf("create organization: %w", translate(err))
	}
	admin := "admin"
	m := &Member{OrganizationID: org.ID, UserID: ownerID, Role: &admin, JoinedAt: org.CreatedAt}
	if _, err := db.NewInsert().Model(m).Exec(ctx); err != nil {
		return fmt.Errorf("add organization owner: %w", translate(err))
	}
	return nil
}

// Bootstrap creates a user, an organization they administer and an API token for them, all or
// nothing. It returns the token in clear.
func (s *Store) Bootstrap(ctx context.Context, org *Organization, user NewUser, now time.Time) (*User, string, error) {
	var (
		u     *User
		token string
	)
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		u = newUser(user, now)
		if _, err := tx.NewInsert().Model(u).Exec(ctx); err != nil {
			return fmt.Errorf("create user: %w", translate(err))
		}
		if err := createOrganization(ctx, tx, org, u.ID); err != nil {
			return err
		}
		token = TokenPrefix + randomString(40)
		t := &APIToken{ID: NewID(), UserID: u.ID, TokenHash: hashToken(token), CreatedAt: now}
		if _, err := tx.NewInsert().Model(t).Exec(ctx); err != nil {
			return fmt.Errorf("create token: %w", translate(err))
		}
		return nil
	})
	return u, token, err
}

// FindOrganizationByID returns an organization whoever asks. Only for flows that decide
// visibility themselves (joining by domain or invite); everything else goes through
// FindMembership. Errors: ErrNotFound.
func (s *Store) FindOrganizationByID(ctx context.Context, id string) (*Organization, error) {
	org := new(Organization)
	if err := s.rdb.NewSelect().Model(org).Where("o.id = ?", id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return org, nil
}

// FindOrganizationsByEmailDomain returns the organizations that allow sign-ups from domain.
func (s *Store) FindOrganizationsByEmailDomain(ctx context.Context, domain string) ([]*Organization, error) {
	var orgs []*Organization
	// email_domains is a JSON array of validated domains ([a-z0-9.-]), so an exact quoted match
	// needs no escaping.
	err := s.rdb.NewSelect().Model(&orgs).
		Where("o.email_domains LIKE ?", `%"`+strings.ToLower(domain)+`"%`).
		OrderExpr("o.created_at ASC, o.id ASC").
		Scan(ctx)
	return orgs, translate(err)
}

// UpdateOrganization writes the fields set of org, and its update time. Errors: ErrNotFound,
// ErrConflict (hostname taken).
func (s *Store) UpdateOrganization(ctx context.Context, org *Organization, set OrganizationField) error {
	return s.exec(ctx, func(ctx context.Context, db bun.IDB) error {
		if set == 0 {
			return nil
		}
		res, err := db.NewUpdate().Model(org).Column(append(columnsOf(set, organizationColumns), "updated_at")...).WherePK().Exec(ctx)
		if err != nil {
			return fmt.Errorf("update organization %s: %w", org.ID, translate(err))
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}
