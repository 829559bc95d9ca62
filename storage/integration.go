package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Integration is a published integration: its name is global, its definition (title, scopes,
// blocks, configurations…) is JSON owned by the API layer.
type Integration struct {
	bun.BaseModel `bun:"table:integrations,alias:ig"`

	Name           string `bun:"name,pk"`
	OrganizationID string // the owner
	Version        int
	Visibility     string
	Definition     string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	// Owner is loaded by the reads.
	Owner *Organization `bun:"rel:belongs-to,join:organization_id=id"`
}

// Installation is an integration installed on an organization.
type Installation struct {
	bun.BaseModel `bun:"table:integration_installations,alias:ii"`

	ID              string `bun:"id,pk"`
	IntegrationName string
	OrganizationID  string
	InstalledBy     string
	CreatedAt       time.Time
	UpdatedAt       time.Time
	// Spaces counts the spaces it is installed on (read, never written).
	Spaces int `bun:"spaces,scanonly"`
}

// SpaceInstallation is an installation's presence on one space.
type SpaceInstallation struct {
	bun.BaseModel `bun:"table:integration_space_installations,alias:isi"`

	InstallationID string `bun:"installation_id,pk"`
	SpaceID        string `bun:"space_id,pk"`
	OrganizationID string
	CreatedAt      time.Time
}

// PublishIntegration creates an integration or, when its owner publishes it again, replaces
// its definition and raises its version. Errors: ErrConflict (another organization owns the name).
func (s *Store) PublishIntegration(ctx context.Context, in *Integration) (*Integration, error) {
	var out *Integration
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		cur := new(Integration)
		switch err := s.forUpdate(tx.NewSelect().Model(cur).Where("ig.name = ?", in.Name)).Scan(ctx); {
		case errors.Is(err, sql.ErrNoRows):
			in.Version = 1
			_, err := tx.NewInsert().Model(in).Exec(ctx)
			out = in
			return translate(err)
		case err != nil:
			return err
		case cur.OrganizationID != in.OrganizationID:
			return ErrConflict
		}
		cur.Version++
		cur.Visibility, cur.Definition, cur.UpdatedAt = in.Visibility, in.Definition, in.UpdatedAt
		_, err := tx.NewUpdate().Model(cur).WherePK().Exec(ctx)
		out = cur
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("publish integration: %w", err)
	}
	return out, nil
}

// FindIntegration returns an integration by name. Errors: ErrNotFound.
func (s *Store) FindIntegration(ctx context.Context, name string) (*Integration, error) {
	ig := new(Integration)
	if err := s.db.NewSelect().Model(ig).Relation("Owner").Where("ig.name = ?", name).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return ig, nil
}

// Install installs an integration on an organization, or returns the installation it already
// has there (created false).
func (s *Store) Install(ctx context.Context, name, orgID, userID string, now time.Time) (*Installation, bool, error) {
	in := &Installation{ID: NewID(), IntegrationName: name, OrganizationID: orgID, InstalledBy: userID, CreatedAt: now, UpdatedAt: now}
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return insertNew(db.NewInsert().Model(in), "integration_name, organization_id")
	})
	if err != nil {
		return nil, false, fmt.Errorf("install integration: %w", translate(err))
	}
	n, _ := res.RowsAffected()
	got, err := s.FindInstallation(ctx, name, "", orgID)
	return got, n == 1, err
}

// FindInstallation returns an integration's installation by id, or (id "") its installation on
// orgID, with its space count. Errors: ErrNotFound.
func (s *Store) FindInstallation(ctx context.Context, name, id, orgID string) (*Installation, error) {
	in := new(Installation)
	q := s.db.NewSelect().Model(in).ColumnExpr("ii.*").
		ColumnExpr("(SELECT COUNT(*) FROM integration_space_installations AS c WHERE c.installation_id = ii.id) AS spaces").
		Where("ii.integration_name = ?", name)
	if id != "" {
		q = q.Where("ii.id = ?", id)
	}
	if orgID != "" {
		q = q.Where("ii.organization_id = ?", orgID)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return in, nil
}

// InstallOnSpace adds an installation to a space (again: nothing changes).
func (s *Store) InstallOnSpace(ctx context.Context, in *Installation, spaceID string, now time.Time) (*SpaceInstallation, error) {
	si := &SpaceInstallation{InstallationID: in.ID, SpaceID: spaceID, OrganizationID: in.OrganizationID, CreatedAt: now}
	if _, err := s.write(ctx, func(db bun.IDB) execer { return insertNew(db.NewInsert().Model(si), "installation_id, space_id") }); err != nil {
		return nil, fmt.Errorf("install on space: %w", translate(err))
	}
	return si, nil
}

// SpaceIntegrations lists the integrations installed on a space, by name, optionally only
// those whose name contains search (case-insensitive): one statement.
func (s *Store) SpaceIntegrations(ctx context.Context, spaceID, search string) ([]*Integration, error) {
	var out []*Integration
	q := s.db.NewSelect().Model(&out).Relation("Owner").
		Join("JOIN integration_installations AS ii ON ii.integration_name = ig.name").
		Join("JOIN integration_space_installations AS isi ON isi.installation_id = ii.id").
		Where("isi.space_id = ?", spaceID).OrderExpr("ig.name")
	if search != "" {
		q = q.Where("LOWER(ig.name) LIKE ? ESCAPE '\\'", containsPattern(search))
	}
	if err := q.Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return out, nil
}

// InstallationSpaces lists the spaces an installation is on, and its organization, for the
// permission engine. Errors: ErrNotFound (the installation is gone).
func (s *Store) InstallationSpaces(ctx context.Context, installationID string) (orgID string, spaces []string, err error) {
	in := new(Installation)
	if err := s.db.NewSelect().Model(in).Column("organization_id").Where("ii.id = ?", installationID).Scan(ctx); err != nil {
		return "", nil, translate(err)
	}
	err = s.db.NewSelect().Model((*SpaceInstallation)(nil)).Column("space_id").Where("installation_id = ?", installationID).Scan(ctx, &spaces)
	return in.OrganizationID, spaces, translate(err)
}
