package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Operator actions, run by whoever holds the database (the bindery admin commands), not through
// the API.

// BootstrapInput names the first organization and its admin.
type BootstrapInput struct {
	OrgTitle string
	Email    string
	Name     string
}

// Credentials is a user and a freshly issued API token, shown once.
type Credentials struct {
	OrganizationID string
	UserID         string
	Token          string
}

// Bootstrap creates an organization, its admin user and an API token, all or nothing.
// Errors: Invalid, Conflict (e-mail taken).
func (r *App) Bootstrap(ctx context.Context, in BootstrapInput) (*Credentials, error) {
	if err := lengthOK("org-title", in.OrgTitle, 2, 255); err != nil {
		return nil, err
	}
	if !model.ValidEmail(in.Email) {
		return nil, apperr.Invalidf("email", "%q is not an e-mail address", in.Email)
	}
	now := r.Now()
	org := &storage.Organization{
		Title: in.OrgTitle, Type: string(model.OrganizationTypeBusiness), Plan: string(model.BillingProductSelfHosted),
		MergeRules: `{"type":"none"}`, InviteLinks: true, CreatedAt: now, UpdatedAt: now,
	}
	u, token, err := r.Store.Bootstrap(ctx, org, storage.NewUser{DisplayName: displayName(in.Name, in.Email), Email: in.Email, EmailVerified: true}, now)
	if errors.Is(err, storage.ErrConflict) {
		return nil, apperr.Conflictf("a user with e-mail %s already exists", in.Email)
	}
	if err != nil {
		return nil, err
	}
	return &Credentials{OrganizationID: org.ID, UserID: u.ID, Token: token}, nil
}

// BootstrapIfEmpty bootstraps a database that has no user yet and returns the credentials, or
// nil when the database already has users.
func (r *App) BootstrapIfEmpty(ctx context.Context, in BootstrapInput) (*Credentials, error) {
	n, err := r.Store.CountUsers(ctx)
	if err != nil || n > 0 {
		return nil, err
	}
	return r.Bootstrap(ctx, in)
}

// CreateUserInput describes a user an operator adds, optionally as a member of an organization.
type CreateUserInput struct {
	Email          string
	Name           string
	OrganizationID string
	Role           string // a role, or "guest"
}

// CreateUser adds a verified user with an API token, and a membership when OrganizationID is
// set. Errors: Invalid, NotFound (organization), Conflict (e-mail taken).
func (r *App) CreateUser(ctx context.Context, in CreateUserInput) (*Credentials, error) {
	if !model.ValidEmail(in.Email) {
		return nil, apperr.Invalidf("email", "%q is not an e-mail address", in.Email)
	}
	var role *string
	if in.OrganizationID != "" {
		if in.Role != "guest" {
			if !model.MemberRole(in.Role).IsValid() {
				return nil, apperr.Invalidf("role", "%q is not a role (admin, create, edit, review, comment, read, guest)", in.Role)
			}
			role = &in.Role
		}
		if _, err := r.Store.FindOrganizationByID(ctx, in.OrganizationID); err != nil {
			return nil, notFound(err, "organization")
		}
	}
	now := r.Now()
	u, err := r.Store.CreateUser(ctx, storage.NewUser{DisplayName: displayName(in.Name, in.Email), Email: in.Email, EmailVerified: true}, now)
	if errors.Is(err, storage.ErrConflict) {
		return nil, apperr.Conflictf("a user with e-mail %s already exists", in.Email)
	}
	if err != nil {
		return nil, err
	}
	if in.OrganizationID != "" {
		if _, err := r.Store.AddMember(ctx, in.OrganizationID, u.ID, role, now); err != nil {
			return nil, err
		}
	}
	token, err := r.Store.CreateToken(ctx, u.ID, now, nil)
	if err != nil {
		return nil, err
	}
	return &Credentials{OrganizationID: in.OrganizationID, UserID: u.ID, Token: token}, nil
}

// CreateToken issues another API token for the user with that e-mail; expires 0 means never.
// Errors: Invalid, NotFound.
func (r *App) CreateToken(ctx context.Context, email string, expires time.Duration) (*Credentials, error) {
	if expires < 0 {
		return nil, apperr.Invalidf("expires", "must not be negative")
	}
	return r.issueToken(ctx, email, expires, storage.TokenLimit{})
}

// CreateScopedToken issues an API token for the user with that e-mail that may do only what
// scopes allow (see authz.KnownScopes and docs/permissions.md); expires 0 means never.
// Errors: Invalid, NotFound.
func (r *App) CreateScopedToken(ctx context.Context, email string, expires time.Duration, scopes []string) (*Credentials, error) {
	if expires < 0 {
		return nil, apperr.Invalidf("expires", "must not be negative")
	}
	clean, err := validScopes("scopes", scopes)
	if err != nil {
		return nil, err
	}
	encoded := scopesJSON(clean)
	return r.issueToken(ctx, email, expires, storage.TokenLimit{Scopes: &encoded})
}

// issueToken creates a token, narrowed by limit, for the user with that e-mail. Errors: NotFound.
func (r *App) issueToken(ctx context.Context, email string, expires time.Duration, limit storage.TokenLimit) (*Credentials, error) {
	u, err := r.Store.FindUserByEmail(ctx, email)
	if err != nil {
		return nil, notFound(err, "user "+email)
	}
	now := r.Now()
	var expiresAt *time.Time
	if expires > 0 {
		t := now.Add(expires)
		expiresAt = &t
	}
	token, err := r.Store.CreateLimitedToken(ctx, u.ID, now, expiresAt, limit)
	if err != nil {
		return nil, err
	}
	return &Credentials{UserID: u.ID, Token: token}, nil
}

// validScopes checks scopes against the known ones, dropping repeats. Errors: Invalid.
func validScopes(field string, scopes []string) ([]string, error) {
	if len(scopes) == 0 {
		return nil, apperr.Invalidf(field, "name at least one scope")
	}
	var out []string
	for i, s := range scopes {
		if !slices.Contains(authz.KnownScopes, s) {
			return nil, apperr.Invalidf(fmt.Sprintf("%s[%d]", field, i), "unknown scope %q (known: %s)", s, strings.Join(authz.KnownScopes, ", "))
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, nil
}

func scopesJSON(scopes []string) string {
	b, _ := json.Marshal(scopes)
	return string(b)
}

func displayName(name, email string) string {
	if strings.TrimSpace(name) != "" {
		return strings.TrimSpace(name)
	}
	return email[:strings.IndexByte(email, '@')]
}

func lengthOK(field, s string, min, max int) error {
	if n := len([]rune(s)); n < min || n > max {
		return apperr.Invalidf(field, "must be %d to %d characters", min, max)
	}
	return nil
}
