package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// StorageUpload is a file received through a signed upload URL: what a custom font's face names
// by its key.
type StorageUpload struct {
	bun.BaseModel `bun:"table:storage_uploads,alias:su"`

	StorageKey     string `bun:"storage_key,pk"`
	OrganizationID string
	Kind           string // the contract's StorageUploadKind: customization_font
	Name           string // the file name the client declared
	ContentType    string // detected from the bytes
	Size           int64
	BlobKey        string
	CreatedAt      time.Time
}

// CustomFont is an organization's font family and its faces.
type CustomFont struct {
	bun.BaseModel `bun:"table:custom_fonts,alias:cf"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	FontFamily     string
	Faces          string // JSON: [{"weight", "storageKey", "blobKey", "format", "contentType"}]
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// CreateStorageUpload records a received upload. Errors: ErrConflict (the key was used).
func (s *Store) CreateStorageUpload(ctx context.Context, u *StorageUpload) error {
	if _, err := s.write(ctx, func(db bun.IDB) execer { return db.NewInsert().Model(u) }); err != nil {
		return fmt.Errorf("create storage upload: %w", translate(err))
	}
	return nil
}

// FindStorageUploads reads an organization's uploads by key; keys it does not hold are absent
// from the answer. One statement.
func (s *Store) FindStorageUploads(ctx context.Context, orgID string, keys []string) (map[string]*StorageUpload, error) {
	out := map[string]*StorageUpload{}
	if len(keys) == 0 {
		return out, nil
	}
	var rows []*StorageUpload
	if err := s.rdb.NewSelect().Model(&rows).Where("su.organization_id = ? AND su.storage_key IN (?)", orgID, bun.In(keys)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		out[r.StorageKey] = r
	}
	return out, nil
}

// FindCustomFonts lists an organization's fonts by family. Errors: ErrInvalidCursor.
func (s *Store) FindCustomFonts(ctx context.Context, orgID string, page Window) (List[*CustomFont], error) {
	key := sortKey{name: "customFonts", column: "cf.font_family", idCol: "cf.id"}
	filter := func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("cf.organization_id = ?", orgID) }
	return paginate(ctx, s.rdb, key, page, filter, func(f *CustomFont) (time.Time, string, string) { return time.Time{}, f.FontFamily, f.ID })
}

// FindCustomFont reads one font of an organization. Errors: ErrNotFound.
func (s *Store) FindCustomFont(ctx context.Context, orgID, id string) (*CustomFont, error) {
	out := new(CustomFont)
	if err := s.rdb.NewSelect().Model(out).Where("cf.organization_id = ? AND cf.id = ?", orgID, id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return out, nil
}

// CreateCustomFont stores a font.
func (s *Store) CreateCustomFont(ctx context.Context, f *CustomFont) error {
	if f.ID == "" {
		f.ID = NewID()
	}
	if _, err := s.write(ctx, func(db bun.IDB) execer { return db.NewInsert().Model(f) }); err != nil {
		return fmt.Errorf("create custom font: %w", translate(err))
	}
	return nil
}

// UpdateCustomFont writes a font's family and faces. Errors: ErrNotFound.
func (s *Store) UpdateCustomFont(ctx context.Context, f *CustomFont) error {
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewUpdate().Model(f).Column("font_family", "faces", "updated_at").
			Where("organization_id = ? AND id = ?", f.OrganizationID, f.ID)
	})
	if err != nil {
		return fmt.Errorf("update custom font: %w", translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// DeleteCustomFont removes a font; it reports whether there was one.
func (s *Store) DeleteCustomFont(ctx context.Context, orgID, id string) (bool, error) {
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewDelete().Model((*CustomFont)(nil)).Where("organization_id = ? AND id = ?", orgID, id)
	})
	if err != nil {
		return false, fmt.Errorf("delete custom font: %w", translate(err))
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// CustomFontsByID reads the fonts of an organization among ids; ids it does not hold are absent
// from the answer. One statement.
func (s *Store) CustomFontsByID(ctx context.Context, orgID string, ids []string) (map[string]*CustomFont, error) {
	out := map[string]*CustomFont{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []*CustomFont
	if err := s.rdb.NewSelect().Model(&rows).Where("cf.organization_id = ? AND cf.id IN (?)", orgID, bun.In(ids)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		out[r.ID] = r
	}
	return out, nil
}

// FindCustomFontByID reads a font of any organization. Errors: ErrNotFound.
func (s *Store) FindCustomFontByID(ctx context.Context, id string) (*CustomFont, error) {
	out := new(CustomFont)
	if err := s.rdb.NewSelect().Model(out).Where("cf.id = ?", id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return out, nil
}
