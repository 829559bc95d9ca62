package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// TranslationRunField is a field of a TranslationRun that UpdateTranslationRun writes.
type TranslationRunField uint32

// The translation run fields. TranslationRunStatus is the status with when the run started;
// TranslationRunSource is the source revision with the number of pages it holds.
const (
	TranslationRunStatus TranslationRunField = 1 << iota
	TranslationRunSource
)

var translationRunColumns = map[TranslationRunField][]string{
	TranslationRunStatus: {"status", "started_at"}, TranslationRunSource: {"source_revision_id", "pages_total"},
}

// Translation keeps a result space in step with a source space, in another language. Stats are
// counters the runs add to; durations are in milliseconds.
type Translation struct {
	bun.BaseModel `bun:"table:translations,alias:tr"`

	ID                string `bun:"id,pk"`
	OrganizationID    string
	SourceSpaceID     string
	SourceLanguage    string
	Language          string
	Instructions      string // JSON document
	ResultSpaceID     *string
	ResultRevisionID  *string
	Status            string // pending, running, completed
	Runs              int64
	TotalWords        int64
	TotalPages        int64
	TotalDuration     int64
	LatestRunDuration int64
	LatestPages       int64
	LatestWords       int64
	CreatedBy         *string
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// TranslationRun is one run of a translation: queued, running, completed or failed. A failed run
// puts the translation back to PreviousStatus. Issues is a JSON array the API layer owns.
type TranslationRun struct {
	bun.BaseModel `bun:"table:translation_runs,alias:trr"`

	ID               string `bun:"id,pk"`
	OrganizationID   string
	TranslationID    string
	Status           string
	PreviousStatus   string
	Progress         int
	PagesTotal       int
	PagesSent        int
	PagesReused      int
	Words            int64
	Failure          *string
	Issues           string
	SourceRevisionID *string
	ResultRevisionID *string
	CreatedBy        *string
	CreatedAt        time.Time
	StartedAt        *time.Time `bun:",nullzero"`
	FinishedAt       *time.Time `bun:",nullzero"`
}

// TranslatedPage is the translation memory: a page's translated text, keyed by a hash of what
// was sent for it. Rows are written as the provider answers, so a resumed run skips them.
type TranslatedPage struct {
	bun.BaseModel `bun:"table:translation_pages,alias:trp"`

	TranslationID  string `bun:"translation_id,pk"`
	SourceKey      string `bun:"source_key,pk"`
	OrganizationID string
	RunID          string
	Title          string
	Description    *string
	Markdown       string
	Words          int64
	Issues         string // JSON array, owned by the API layer
	CreatedAt      time.Time
}

// GlossaryEntry is one term of an organization's glossary: its translations by language code
// (a JSON object).
type GlossaryEntry struct {
	bun.BaseModel `bun:"table:glossary_entries,alias:ge"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	Translations   string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// CreateTranslation creates a translation and its result space (with the space's first revision
// and, when adminID is set, an admin grant for the creator) in one transaction.
func (s *Store) CreateTranslation(ctx context.Context, t *Translation, result *Space, adminID string) error {
	if result.ID == "" {
		result.ID = NewID()
	}
	result.RevisionID, result.RevisionSeq = NewID(), 1
	if t.ID == "" {
		t.ID = NewID()
	}
	t.ResultSpaceID, t.ResultRevisionID = &result.ID, &result.RevisionID
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(result).Exec(ctx); err != nil {
			return fmt.Errorf("create result space: %w", translate(err))
		}
		rev := &Revision{ID: result.RevisionID, OrganizationID: result.OrganizationID, SpaceID: result.ID, Line: result.ID, Seq: 1, Type: "edits", Parents: "[]", CreatedAt: result.CreatedAt}
		if _, err := tx.NewInsert().Model(rev).Exec(ctx); err != nil {
			return fmt.Errorf("create result space's first revision: %w", translate(err))
		}
		if err := refreshOpen(ctx, tx, nil, []string{result.ID}); err != nil {
			return err
		}
		if err := grantAdmin(ctx, tx, result.OrganizationID, TargetSpace, result.ID, adminID, result.CreatedAt); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(t).Exec(ctx); err != nil {
			return fmt.Errorf("create translation: %w", translate(err))
		}
		return nil
	})
}

// TranslationsIn returns every translation of an organization, oldest first: lists filter them
// by what the caller may read and page in memory. One statement.
func (s *Store) TranslationsIn(ctx context.Context, orgID string) ([]*Translation, error) {
	var rows []*Translation
	err := s.rdb.NewSelect().Model(&rows).Where("tr.organization_id = ?", orgID).OrderExpr("tr.created_at, tr.id").Scan(ctx)
	return rows, translate(err)
}

// FindTranslation returns a translation of an organization. Errors: ErrNotFound.
func (s *Store) FindTranslation(ctx context.Context, orgID, id string) (*Translation, error) {
	t := new(Translation)
	if err := s.rdb.NewSelect().Model(t).Where("tr.organization_id = ? AND tr.id = ?", orgID, id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return t, nil
}

// UpdateTranslationInstructions replaces a translation's instructions. Errors: ErrNotFound.
func (s *Store) UpdateTranslationInstructions(ctx context.Context, t *Translation) error {
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewUpdate().Model(t).Column("instructions", "updated_at").
			Where("organization_id = ? AND id = ?", t.OrganizationID, t.ID)
	})
	if err != nil {
		return translate(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// DeleteTranslation removes a translation with its runs and memory; the result space stays.
// It reports whether there was one.
func (s *Store) DeleteTranslation(ctx context.Context, orgID, id string) (bool, error) {
	return s.execChanged(ctx, func(ctx context.Context, db bun.IDB) (bool, error) {
		res, err := db.NewDelete().Model((*Translation)(nil)).Where("organization_id = ? AND id = ?", orgID, id).Exec(ctx)
		if err != nil {
			return false, translate(err)
		}
		n, _ := res.RowsAffected()
		return n > 0, nil
	})
}

// StartTranslationRun records a queued run, moves the translation to running and queues job
// (made from the run's id) in one transaction, so the run exists exactly when its job does. When
// a run of the translation is queued or under way already, run becomes that one and nothing is
// written. Errors: ErrNotFound.
func (s *Store) StartTranslationRun(ctx context.Context, run *TranslationRun, job func(runID string) JobArgs) error {
	if run.Issues == "" {
		run.Issues = "[]"
	}
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		t := new(Translation)
		if err := tx.NewSelect().Model(t).Where("tr.organization_id = ? AND tr.id = ?", run.OrganizationID, run.TranslationID).Scan(ctx); err != nil {
			return translate(err)
		}
		run.PreviousStatus = t.Status
		var last TranslationRun
		err := tx.NewSelect().Model(&last).Where("trr.translation_id = ? AND trr.status IN ('queued', 'running')", t.ID).
			OrderExpr("trr.created_at DESC, trr.id DESC").Limit(1).Scan(ctx)
		if err == nil {
			*run = last // a run queued or under way is the one asked for: runs never overlap
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return translate(err)
		}
		run.ID = NewID()
		if _, err := tx.NewInsert().Model(run).Exec(ctx); err != nil {
			return fmt.Errorf("insert translation run: %w", translate(err))
		}
		if _, err := tx.NewUpdate().Model((*Translation)(nil)).Set("status = 'running', updated_at = ?", run.CreatedAt).
			Where("id = ?", t.ID).Exec(ctx); err != nil {
			return translate(err)
		}
		_, err = s.insertJobTx(ctx, tx, job(run.ID), nil)
		return err
	})
}

// FindTranslationRun returns a run by id (job workers know only the id). Errors: ErrNotFound.
func (s *Store) FindTranslationRun(ctx context.Context, id string) (*TranslationRun, error) {
	r := new(TranslationRun)
	if err := s.rdb.NewSelect().Model(r).Where("trr.id = ?", id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return r, nil
}

// TranslationRunsOf returns the runs of translations, newest first, by translation id.
func (s *Store) TranslationRunsOf(ctx context.Context, translationIDs []string) (map[string][]*TranslationRun, error) {
	out := map[string][]*TranslationRun{}
	if len(translationIDs) == 0 {
		return out, nil
	}
	var rows []*TranslationRun
	if err := s.rdb.NewSelect().Model(&rows).Where("trr.translation_id IN (?)", bun.In(translationIDs)).
		OrderExpr("trr.created_at DESC, trr.id DESC").Scan(ctx); err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		out[r.TranslationID] = append(out[r.TranslationID], r)
	}
	return out, nil
}

// UpdateTranslationRun writes the fields set of a run.
func (s *Store) UpdateTranslationRun(ctx context.Context, r *TranslationRun, set TranslationRunField) error {
	_, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewUpdate().Model(r).Column(columnsOf(set, translationRunColumns)...).WherePK()
	})
	return translate(err)
}

// SaveTranslationProgress records a run's progress and the pages it sent so far. Writes from
// concurrent workers may arrive out of order: the counters only grow.
func (s *Store) SaveTranslationProgress(ctx context.Context, runID string, progress, sent int) error {
	_, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewUpdate().Model((*TranslationRun)(nil)).Set("progress = ?, pages_sent = ?", progress, sent).
			Where("id = ? AND pages_sent < ?", runID, sent)
	})
	return translate(err)
}

// TranslatedPages returns the memory entries of a translation for the given keys, by key.
func (s *Store) TranslatedPages(ctx context.Context, translationID string, keys []string) (map[string]*TranslatedPage, error) {
	out := map[string]*TranslatedPage{}
	for start := 0; start < len(keys); start += 500 {
		chunk := keys[start:min(start+500, len(keys))]
		var rows []*TranslatedPage
		if err := s.rdb.NewSelect().Model(&rows).Where("trp.translation_id = ? AND trp.source_key IN (?)", translationID, bun.In(chunk)).Scan(ctx); err != nil {
			return nil, translate(err)
		}
		for _, r := range rows {
			out[r.SourceKey] = r
		}
	}
	return out, nil
}

// CountTranslatedPages is the number of pages a translation's memory holds.
func (s *Store) CountTranslatedPages(ctx context.Context, translationID string) (int, error) {
	n, err := s.db.NewSelect().Model((*TranslatedPage)(nil)).Where("translation_id = ?", translationID).Count(ctx)
	return int(n), translate(err)
}

// SaveTranslatedPage stores one page's translation as soon as it arrives; a key already stored
// (a resumed run racing an earlier attempt) keeps its first row.
func (s *Store) SaveTranslatedPage(ctx context.Context, p *TranslatedPage) error {
	_, err := s.write(ctx, func(db bun.IDB) execer { return insertNew(db.NewInsert().Model(p), "translation_id, source_key") })
	return translate(err)
}

// FinishTranslationRun ends a run. completed: the run's counters go into the translation's
// stats, its result revision becomes the translation's, and its status "completed". Otherwise
// the translation returns to the run's previous status. One transaction.
func (s *Store) FinishTranslationRun(ctx context.Context, r *TranslationRun, completed bool, durationMS int64) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewUpdate().Model(r).Column("status", "progress", "pages_total", "pages_sent", "pages_reused", "words", "failure", "issues", "source_revision_id", "result_revision_id", "started_at", "finished_at").
			WherePK().Exec(ctx); err != nil {
			return translate(err)
		}
		q := tx.NewUpdate().Model((*Translation)(nil)).Where("id = ?", r.TranslationID).Set("updated_at = ?", *r.FinishedAt)
		if completed {
			q = q.Set("status = 'completed'").Set("result_revision_id = ?", r.ResultRevisionID).
				Set("runs = runs + 1").Set("total_words = total_words + ?", r.Words).Set("total_pages = total_pages + ?", r.PagesSent).
				Set("total_duration = total_duration + ?", durationMS).Set("latest_run_duration = ?", durationMS).
				Set("latest_pages = ?", r.PagesSent).Set("latest_words = ?", r.Words)
		} else {
			q = q.Set("status = ?", r.PreviousStatus)
		}
		_, err := q.Exec(ctx)
		return translate(err)
	})
}

// GlossaryIn returns every glossary entry of an organization, oldest first. One statement.
func (s *Store) GlossaryIn(ctx context.Context, orgID string) ([]*GlossaryEntry, error) {
	var rows []*GlossaryEntry
	err := s.rdb.NewSelect().Model(&rows).Where("ge.organization_id = ?", orgID).OrderExpr("ge.created_at, ge.id").Scan(ctx)
	return rows, translate(err)
}

// FindGlossaryEntry returns one entry of an organization's glossary. Errors: ErrNotFound.
func (s *Store) FindGlossaryEntry(ctx context.Context, orgID, id string) (*GlossaryEntry, error) {
	e := new(GlossaryEntry)
	if err := s.rdb.NewSelect().Model(e).Where("ge.organization_id = ? AND ge.id = ?", orgID, id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return e, nil
}

// GlossaryChange is one batch of glossary writes, applied together.
type GlossaryChange struct {
	Insert []*GlossaryEntry
	Update []*GlossaryEntry // id, translations and updated_at
	Delete []string
}

// ApplyGlossary applies a batch of glossary writes in one transaction. Updates and deletes of
// ids the organization does not have fail the whole batch. Errors: ErrNotFound.
func (s *Store) ApplyGlossary(ctx context.Context, orgID string, c GlossaryChange) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		for _, e := range c.Insert {
			e.ID, e.OrganizationID = NewID(), orgID
		}
		if len(c.Insert) > 0 {
			if _, err := tx.NewInsert().Model(&c.Insert).Exec(ctx); err != nil {
				return fmt.Errorf("insert glossary entries: %w", translate(err))
			}
		}
		for _, e := range c.Update {
			res, err := tx.NewUpdate().Model(e).Column("translations", "updated_at").
				Where("organization_id = ? AND id = ?", orgID, e.ID).Exec(ctx)
			if err != nil {
				return translate(err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return fmt.Errorf("glossary entry %s: %w", e.ID, ErrNotFound)
			}
		}
		for _, id := range c.Delete {
			res, err := tx.NewDelete().Model((*GlossaryEntry)(nil)).Where("organization_id = ? AND id = ?", orgID, id).Exec(ctx)
			if err != nil {
				return translate(err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return fmt.Errorf("glossary entry %s: %w", id, ErrNotFound)
			}
		}
		return nil
	})
}

// ReplaceContent writes a whole new state of a space's own line as one revision of type typ,
// made by fn from the line's current content (only what changed is written), in one transaction
// holding the space's lock. An empty edit writes nothing and returns the current revision.
func (s *Store) ReplaceContent(ctx context.Context, spaceID, typ string, clock func() time.Time, fn func(ctx context.Context, c *ContentTx) (*Edit, error)) (*Revision, error) {
	var rev *Revision
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		space, err := s.lockSpace(ctx, tx, spaceID)
		if err != nil {
			return err
		}
		line := newLineState(space)
		now := clock()
		edit, err := fn(ctx, &ContentTx{tx: tx, View: line.view, OrganizationID: space.OrganizationID, Now: now})
		if err != nil {
			return err
		}
		if edit.Empty() {
			rev, err = findRevision(ctx, tx, line.revisionID)
			return err
		}
		rev, err = s.commitEdit(ctx, tx, line, edit, &Revision{Type: typ}, now)
		return err
	})
	return rev, err
}
