package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// OpenAPISpec is an organization's OpenAPI specification, named by its slug.
type OpenAPISpec struct {
	bun.BaseModel `bun:"table:openapi_specs,alias:oas"`

	ID              string `bun:"id,pk"`
	OrganizationID  string
	Slug            string
	SourceURL       *string // set for specs fetched from a URL
	ProcessingState string  // pending, progress, complete
	LastVersionID   *string
	LastProcessedAt *time.Time
	LastErrorCode   *string // FETCH_TIMEOUT, FETCH_ERROR, PARSE_ERROR
	LastErrors      *string // JSON array of {message, location}
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// OpenAPISpecVersion is one immutable content of a specification.
type OpenAPISpecVersion struct {
	bun.BaseModel `bun:"table:openapi_spec_versions,alias:oasv"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SpecID         string
	ContentHash    string
	Content        string `bun:"content"`
	// Files are the other files the document references by relative $ref (JSON object: path
	// relative to the document → the file as fetched); nil for a single-file document.
	Files     *string `bun:"files"`
	SourceURL *string
	CreatedAt time.Time
}

// SpecWrite creates or changes a specification by slug.
type SpecWrite struct {
	OrganizationID, Slug string
	// CreateOnly fails with ErrConflict when the slug is taken.
	CreateOnly bool
	// SourceURL is the URL to fetch (nil for a text source).
	SourceURL *string
	// Content is a validated document to keep as a version unless the latest has the same hash
	// (nil when the content is still to be fetched).
	Content *string
	Hash    string
	// Files are the files Content references (see OpenAPISpecVersion.Files).
	Files *string
	// State is the processing state to record ("complete" for text, "pending" for a fetch).
	State string
	Now   time.Time
	// Fetch, when set, makes the job that fetches the spec's URL, enqueued in the same
	// transaction as the write.
	Fetch func(spec *OpenAPISpec) JobArgs
}

// SaveSpec creates or updates a specification, adding a version when its content changed.
// It reports whether the specification was created. Errors: ErrConflict (CreateOnly, taken).
func (s *Store) SaveSpec(ctx context.Context, w SpecWrite) (*OpenAPISpec, bool, error) {
	var spec *OpenAPISpec
	created := false
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		spec = new(OpenAPISpec)
		err := s.forUpdate(tx.NewSelect().Model(spec).Where("oas.organization_id = ? AND oas.slug = ?", w.OrganizationID, w.Slug)).Scan(ctx)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			created = true
			spec = &OpenAPISpec{ID: NewID(), OrganizationID: w.OrganizationID, Slug: w.Slug, CreatedAt: w.Now}
		case err != nil:
			return err
		case w.CreateOnly:
			return ErrConflict
		}
		spec.SourceURL, spec.ProcessingState, spec.UpdatedAt = w.SourceURL, w.State, w.Now
		if w.Content != nil {
			spec.LastProcessedAt, spec.LastErrorCode, spec.LastErrors = &w.Now, nil, nil
		}
		if created {
			if _, err := tx.NewInsert().Model(spec).Exec(ctx); err != nil {
				return translate(err)
			}
		} else if _, err := tx.NewUpdate().Model(spec).WherePK().Exec(ctx); err != nil {
			return err
		}
		if w.Content != nil {
			if err := addVersion(ctx, tx, spec, *w.Content, w.Files, w.Hash, w.SourceURL, w.Now); err != nil {
				return err
			}
		}
		if w.Fetch != nil {
			_, err := s.insertJobTx(ctx, tx, w.Fetch(spec), &JobOptions{MaxAttempts: 3})
			return err
		}
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("save openapi spec: %w", translate(err))
	}
	return spec, created, nil
}

// addVersion keeps content as the spec's newest version unless the latest has the same hash.
func addVersion(ctx context.Context, tx bun.Tx, spec *OpenAPISpec, content string, files *string, hash string, sourceURL *string, now time.Time) error {
	if spec.LastVersionID != nil {
		latest := new(OpenAPISpecVersion)
		err := tx.NewSelect().Model(latest).Column("content_hash", "created_at").Where("id = ?", *spec.LastVersionID).Scan(ctx)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if latest.ContentHash == hash {
			return nil
		}
		// Versions order by creation time: one made in the same instant as the previous one
		// (a coarse clock) still sorts after it.
		if !now.After(latest.CreatedAt) {
			now = latest.CreatedAt.Add(time.Microsecond)
		}
	}
	v := &OpenAPISpecVersion{ID: NewID(), OrganizationID: spec.OrganizationID, SpecID: spec.ID, ContentHash: hash, Content: content, Files: files, SourceURL: sourceURL, CreatedAt: now}
	if _, err := tx.NewInsert().Model(v).Exec(ctx); err != nil {
		return err
	}
	spec.LastVersionID = &v.ID
	_, err := tx.NewUpdate().Model(spec).Column("last_version_id").WherePK().Exec(ctx)
	return err
}

// SpecFetched records the outcome of fetching a spec's URL: a version when content is given
// (and differs from the latest; files are the files it references), else the error. A spec whose URL changed since the fetch began
// is left alone. Errors: ErrNotFound.
func (s *Store) SpecFetched(ctx context.Context, specID, url string, content, files *string, hash, errCode, errors string, now time.Time) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		spec := new(OpenAPISpec)
		if err := s.forUpdate(tx.NewSelect().Model(spec).Where("oas.id = ?", specID)).Scan(ctx); err != nil {
			return translate(err)
		}
		if spec.SourceURL == nil || *spec.SourceURL != url {
			return nil
		}
		spec.ProcessingState, spec.LastProcessedAt, spec.UpdatedAt = "complete", &now, now
		spec.LastErrorCode, spec.LastErrors = nil, nil
		if content == nil {
			spec.LastErrorCode, spec.LastErrors = &errCode, &errors
		}
		if _, err := tx.NewUpdate().Model(spec).WherePK().Exec(ctx); err != nil {
			return err
		}
		if content != nil {
			return addVersion(ctx, tx, spec, *content, files, hash, spec.SourceURL, now)
		}
		return nil
	})
}

// SetSpecState records a spec's processing state (the fetch job marks its progress).
func (s *Store) SetSpecState(ctx context.Context, specID, state string) error {
	_, err := s.db.NewUpdate().Model((*OpenAPISpec)(nil)).Set("processing_state = ?", state).Where("id = ?", specID).Exec(ctx)
	return err
}

// FindSpec returns an organization's spec by slug. Errors: ErrNotFound.
func (s *Store) FindSpec(ctx context.Context, orgID, slug string) (*OpenAPISpec, error) {
	spec := new(OpenAPISpec)
	if err := s.db.NewSelect().Model(spec).Where("oas.organization_id = ? AND oas.slug = ?", orgID, slug).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return spec, nil
}

// FindSpecByID returns a spec by id. Errors: ErrNotFound.
func (s *Store) FindSpecByID(ctx context.Context, id string) (*OpenAPISpec, error) {
	spec := new(OpenAPISpec)
	if err := s.db.NewSelect().Model(spec).Where("oas.id = ?", id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return spec, nil
}

// SpecPage lists an organization's specs by slug.
func (s *Store) SpecPage(ctx context.Context, orgID string, page Window) (List[*OpenAPISpec], error) {
	key := sortKey{name: "openapiSpecs", column: "oas.slug", idCol: "oas.id"}
	return paginate(ctx, s.db, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("oas.organization_id = ?", orgID)
	}, func(spec *OpenAPISpec) (time.Time, string, string) { return time.Time{}, spec.Slug, spec.ID })
}

// SpecVersionPage lists a spec's versions, newest first, without their content.
func (s *Store) SpecVersionPage(ctx context.Context, specID string, page Window) (List[*OpenAPISpecVersion], error) {
	key := sortKey{name: "openapiSpecVersions", column: "oasv.created_at", idCol: "oasv.id", desc: true, isTime: true}
	return paginate(ctx, s.db, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.ExcludeColumn("content", "files").Where("oasv.spec_id = ?", specID)
	}, func(v *OpenAPISpecVersion) (time.Time, string, string) { return v.CreatedAt, "", v.ID })
}

// FindSpecVersion returns one version of a spec, with its content when withContent.
// Errors: ErrNotFound.
func (s *Store) FindSpecVersion(ctx context.Context, specID, id string, withContent bool) (*OpenAPISpecVersion, error) {
	v := new(OpenAPISpecVersion)
	q := s.db.NewSelect().Model(v).Where("oasv.spec_id = ? AND oasv.id = ?", specID, id)
	if !withContent {
		q = q.ExcludeColumn("content", "files")
	}
	if err := q.Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return v, nil
}

// CurrentSpecVersion is a specification's last version, with what names it: its slug, and the
// URL it is fetched from.
type CurrentSpecVersion struct {
	OpenAPISpecVersion
	Slug string  `bun:"slug"`
	URL  *string `bun:"spec_url"`
}

// CurrentSpecVersions reads, in one statement, the last versions (with content) of an
// organization's specifications named by slug or by the URL they are fetched from; a name
// that matches none is left out.
func (s *Store) CurrentSpecVersions(ctx context.Context, orgID string, slugs, urls []string) ([]*CurrentSpecVersion, error) {
	var out []*CurrentSpecVersion
	if len(slugs) == 0 && len(urls) == 0 {
		return out, nil
	}
	q := s.db.NewSelect().Model(&out).ModelTableExpr("openapi_spec_versions AS oasv").
		ColumnExpr("oasv.*, oas.slug AS slug, oas.source_url AS spec_url").
		Join("JOIN openapi_specs AS oas ON oas.last_version_id = oasv.id").
		Where("oas.organization_id = ?", orgID).
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			if len(slugs) > 0 {
				q = q.WhereOr("oas.slug IN (?)", bun.In(slugs))
			}
			if len(urls) > 0 {
				q = q.WhereOr("oas.source_url IN (?)", bun.In(urls))
			}
			return q
		})
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("current spec versions: %w", translate(err))
	}
	return out, nil
}
