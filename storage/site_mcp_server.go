package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// SiteMcpServer is an external MCP server a site's Ask may call. Its headers are sealed by the
// caller; only their names are stored in clear.
type SiteMcpServer struct {
	bun.BaseModel `bun:"table:site_mcp_servers,alias:smc"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SiteID         string
	Name           string
	URL            string `bun:"url"`
	HeaderNames    string // JSON array of the header names, sorted
	HeadersSealed  string // the sealed JSON object of names to values; "" when there are none
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// FindSiteMcpServers lists a site's MCP servers by name. Errors: ErrInvalidCursor.
func (s *Store) FindSiteMcpServers(ctx context.Context, orgID, siteID string, page Window) (List[*SiteMcpServer], error) {
	key := sortKey{name: "siteMcpServers", column: "smc.name", idCol: "smc.id"}
	filter := func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("smc.organization_id = ? AND smc.site_id = ?", orgID, siteID)
	}
	return paginate(ctx, s.rdb, key, page, filter, func(r *SiteMcpServer) (time.Time, string, string) { return time.Time{}, r.Name, r.ID })
}

// FindSiteMcpServer reads one MCP server of a site. Errors: ErrNotFound.
func (s *Store) FindSiteMcpServer(ctx context.Context, orgID, siteID, id string) (*SiteMcpServer, error) {
	out := new(SiteMcpServer)
	if err := s.rdb.NewSelect().Model(out).
		Where("smc.organization_id = ? AND smc.site_id = ? AND smc.id = ?", orgID, siteID, id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return out, nil
}

// CreateSiteMcpServer stores an MCP server, with the events of ctx.
func (s *Store) CreateSiteMcpServer(ctx context.Context, m *SiteMcpServer) error {
	if m.ID == "" {
		m.ID = NewID()
	}
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(m).Exec(ctx); err != nil {
			return fmt.Errorf("create site mcp server: %w", translate(err))
		}
		return nil
	})
}

// UpdateSiteMcpServer writes an MCP server's name, URL and headers, with the events of ctx.
// Errors: ErrNotFound.
func (s *Store) UpdateSiteMcpServer(ctx context.Context, m *SiteMcpServer) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model(m).Column("name", "url", "header_names", "headers_sealed", "updated_at").
			Where("organization_id = ? AND site_id = ? AND id = ?", m.OrganizationID, m.SiteID, m.ID).Exec(ctx)
		if err != nil {
			return fmt.Errorf("update site mcp server: %w", translate(err))
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// DeleteSiteMcpServer removes an MCP server, with the events of ctx (none when there was no such
// server); it reports whether there was one.
func (s *Store) DeleteSiteMcpServer(ctx context.Context, orgID, siteID, id string) (bool, error) {
	removed := false
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewDelete().Model((*SiteMcpServer)(nil)).
			Where("organization_id = ? AND site_id = ? AND id = ?", orgID, siteID, id).Exec(ctx)
		if err != nil {
			return fmt.Errorf("delete site mcp server: %w", translate(err))
		}
		if n, _ := res.RowsAffected(); n > 0 {
			removed = true
		} else {
			noEvent(ctx) // nothing was there: no event
		}
		return nil
	})
	return removed, err
}
