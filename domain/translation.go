package domain

import (
	"context"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Translations (docs/translations.md). Who may do what:
//   - reading a translation follows its spaces: the caller must be able to read the source space
//     and the result space (while it exists); others get NotFound, as for the spaces;
//   - members with the create role manage translations (create, update, delete, run).
//   - any member reads the glossary; members with the create role change it.

func (r *App) toTranslation(t *storage.Translation, canEdit bool) *model.Translation {
	out := &model.Translation{
		Object: "translation", ID: t.ID, Status: model.TranslationStatus(t.Status),
		Source:       model.TranslationSource{Space: t.SourceSpaceID, Language: model.Language(t.SourceLanguage)},
		Language:     model.Language(t.Language),
		Instructions: model.Document(t.Instructions),
		CreatedAt:    t.CreatedAt, UpdatedAt: t.UpdatedAt,
		Stats: model.TranslationStats{
			Runs: int(t.Runs), TotalWords: int(t.TotalWords), TotalPages: int(t.TotalPages), TotalDuration: int(t.TotalDuration),
			LatestRunDuration: int(t.LatestRunDuration), LatestPages: int(t.LatestPages), LatestWords: int(t.LatestWords),
		},
		Permissions:    model.TranslationPermissions{View: true, Edit: canEdit},
		URLs:           model.LocationURLs{Location: r.apiURL("/orgs/%s/translations/%s", t.OrganizationID, t.ID)},
		OrganizationID: t.OrganizationID,
	}
	if t.ResultSpaceID != nil && t.ResultRevisionID != nil {
		out.Result = &model.TranslationResult{Space: *t.ResultSpaceID, Revision: *t.ResultRevisionID}
	}
	return out
}

// translationReader decides, for one caller and organization, which translations they see.
type translationReader struct {
	acc    *orgAccess
	spaces map[string]*storage.Space // live spaces of the organization
}

func (r *App) translationReader(ctx context.Context, orgID string) (*translationReader, error) {
	if _, err := r.OrganizationByID(ctx, orgID); err != nil {
		return nil, err
	}
	acc, err := r.viewerAccess(ctx, orgID)
	if err != nil {
		return nil, err
	}
	all, err := r.orgSpaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	tr := &translationReader{acc: acc, spaces: map[string]*storage.Space{}}
	for _, s := range all {
		tr.spaces[s.ID] = s
	}
	return tr, nil
}

// canReadSpace reports whether the caller reads a live space of the organization.
func (tr *translationReader) canReadSpace(id string) bool {
	s, ok := tr.spaces[id]
	return ok && canRead(tr.acc.SpaceRole(spaceNode(s)))
}

// sees reports whether the caller may read a translation: its source space, and its result
// space while that exists.
func (tr *translationReader) sees(t *storage.Translation) bool {
	if !tr.canReadSpace(t.SourceSpaceID) {
		return false
	}
	if t.ResultSpaceID != nil {
		if _, live := tr.spaces[*t.ResultSpaceID]; live && !tr.canReadSpace(*t.ResultSpaceID) {
			return false
		}
	}
	return true
}

func (tr *translationReader) canManage() bool {
	return authz.AtLeast(tr.acc.OrganizationRole(), model.MemberRoleCreate)
}

func (tr *translationReader) requireManage() error {
	if !tr.canManage() {
		return apperr.Forbiddenf("you need the create role in this organization to manage translations")
	}
	return nil
}

// visibleTranslation loads a translation the caller sees. Errors: Unauthenticated, NotFound.
func (r *App) visibleTranslation(ctx context.Context, orgID, id string) (*storage.Translation, *translationReader, error) {
	tr, err := r.translationReader(ctx, orgID)
	if err != nil {
		return nil, nil, err
	}
	t, err := r.Store.FindTranslation(ctx, orgID, id)
	if err != nil {
		return nil, nil, notFound(err, "translation")
	}
	if !tr.sees(t) {
		return nil, nil, apperr.NotFoundf("translation not found")
	}
	return t, tr, nil
}

// Translations lists the organization's translations the caller sees, oldest first, each with
// its run history read in the same statement for all. Errors: Invalid, NotFound.
func (r *App) Translations(ctx context.Context, orgID string, first *int, after *string) (*model.TranslationConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	tr, err := r.translationReader(ctx, orgID)
	if err != nil {
		return nil, err
	}
	all, err := r.Store.TranslationsIn(ctx, orgID)
	if err != nil {
		return nil, err
	}
	var visible []*storage.Translation
	for _, t := range all {
		if tr.sees(t) {
			visible = append(visible, t)
		}
	}
	list, err := storage.PageInMemory("translations", visible, func(t *storage.Translation) (time.Time, string) { return t.CreatedAt, t.ID }, false, page)
	if err != nil {
		return nil, err
	}
	conn := connectionOf(list, func(t *storage.Translation) *model.Translation { return r.toTranslation(t, tr.canManage()) })
	return conn, r.prefetchRuns(ctx, conn.Nodes...)
}

// prefetchRuns reads the runs of translations in one statement, for Translation.runs.
func (r *App) prefetchRuns(ctx context.Context, ts ...*model.Translation) error {
	if len(ts) == 0 {
		return nil
	}
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	runs, err := r.Store.TranslationRunsOf(ctx, ids)
	if err != nil {
		return err
	}
	for _, t := range ts {
		t.PrefetchedRuns = []*model.TranslationRun{}
		for _, run := range runs[t.ID] {
			t.PrefetchedRuns = append(t.PrefetchedRuns, toTranslationRun(run))
		}
	}
	return nil
}

// FindTranslation returns a translation the caller sees. Errors: NotFound.
func (r *App) FindTranslation(ctx context.Context, orgID, id string) (*model.Translation, error) {
	t, tr, err := r.visibleTranslation(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	return r.toTranslation(t, tr.canManage()), nil
}

// TranslationRuns pages through a translation's runs, newest first. Errors: Invalid.
func (r *App) TranslationRuns(ctx context.Context, t *model.Translation, first *int, after *string) (*model.TranslationRunConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	if t.PrefetchedRuns == nil {
		if err := r.prefetchRuns(ctx, t); err != nil {
			return nil, err
		}
	}
	list, err := storage.PageInMemory("translationRuns", t.PrefetchedRuns, func(run *model.TranslationRun) (time.Time, string) { return run.CreatedAt, run.ID }, true, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, func(run *model.TranslationRun) *model.TranslationRun { return run }), nil
}

func toTranslationRun(run *storage.TranslationRun) *model.TranslationRun {
	out := &model.TranslationRun{
		ID: run.ID, Status: model.TranslationRunStatus(run.Status), Progress: run.Progress,
		PagesTotal: run.PagesTotal, PagesSent: run.PagesSent, PagesReused: run.PagesReused, Words: int(run.Words),
		Failure: run.Failure, SourceRevision: run.SourceRevisionID, ResultRevision: run.ResultRevisionID,
		CreatedAt: run.CreatedAt, StartedAt: run.StartedAt, FinishedAt: run.FinishedAt,
		Issues: []*model.TranslationIssue{},
	}
	_ = json.Unmarshal([]byte(run.Issues), &out.Issues)
	return out
}

// CreateTranslation creates a translation of a space the caller reads into a new result space
// (in the target language, at the organization's root, the caller its admin), pending until
// its first run. Errors: Invalid, NotFound, Forbidden.
func (r *App) CreateTranslation(ctx context.Context, orgID string, in model.CreateTranslationInput) (*model.Translation, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	acc, err := r.creatorAccess(ctx, orgID, nil)
	if err != nil {
		return nil, err
	}
	tr, err := r.translationReader(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if !tr.canReadSpace(in.Source.Space) {
		return nil, apperr.Invalidf("source.space", "space %q not found", in.Source.Space)
	}
	source := tr.spaces[in.Source.Space]
	instructions := model.EmptyDocument()
	if in.Instructions != nil {
		instructions = *in.Instructions
	}
	now := r.Now()
	inherit := string(model.DefaultLevelInherit)
	lang := string(in.Language)
	result := &storage.Space{
		OrganizationID: orgID, Title: resultTitle(source.Title, lang), Emoji: source.Emoji, EditMode: "live",
		DefaultLevel: &inherit, MergeRules: `{"type":"inherit"}`, Language: &lang, CreatedAt: now, UpdatedAt: now,
	}
	actor, _ := authz.RequireActor(ctx)
	t := &storage.Translation{
		OrganizationID: orgID, SourceSpaceID: source.ID, SourceLanguage: string(in.Source.Language), Language: lang,
		Instructions: string(instructions), Status: string(model.TranslationStatusPending),
		CreatedBy: &actor.UserID, CreatedAt: now, UpdatedAt: now,
	}
	t.ID = storage.NewID()
	ctx = r.emit(ctx, translationEvent(EventTranslationCreated, t), map[string]any{"language": lang})
	if err := r.Store.CreateTranslation(ctx, t, result, creatorGrant(acc)); err != nil {
		return nil, err
	}
	return r.toTranslation(t, true), nil
}

// resultTitle names a result space after its source and language, within the 50 characters a
// space title may have.
func resultTitle(source, lang string) string {
	suffix := " (" + lang + ")"
	for utf8.RuneCountInString(source)+len(suffix) > 50 {
		_, size := utf8.DecodeLastRuneInString(source)
		source = source[:len(source)-size]
	}
	return strings.TrimSpace(source) + suffix
}

// UpdateTranslation replaces a translation's instructions; the next run re-translates every
// page with them. Errors: Invalid, NotFound, Forbidden.
func (r *App) UpdateTranslation(ctx context.Context, orgID, id string, in model.UpdateTranslationInput) (*model.Translation, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	t, tr, err := r.visibleTranslation(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	if err := tr.requireManage(); err != nil {
		return nil, err
	}
	t.Instructions, t.UpdatedAt = string(in.Instructions), r.Now()
	if err := r.Store.UpdateTranslationInstructions(r.emit(ctx, translationEvent(EventTranslationUpdated, t), nil), t); err != nil {
		return nil, notFound(err, "translation")
	}
	return r.toTranslation(t, true), nil
}

// DeleteTranslation deletes a translation, its runs and its memory; the result space stays. A
// translation that is missing or unseen reports false. Errors: Forbidden.
func (r *App) DeleteTranslation(ctx context.Context, orgID, id string) (bool, error) {
	t, tr, err := r.visibleTranslation(ctx, orgID, id)
	if apperr.KindOf(err) == apperr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := tr.requireManage(); err != nil {
		return false, err
	}
	ctx = r.emit(ctx, &storage.Event{Type: EventTranslationDeleted, OrganizationID: orgID, TargetType: "translation", TargetID: t.ID}, nil)
	return r.Store.DeleteTranslation(ctx, orgID, t.ID)
}

// RunTranslation queues a run of a translation: the translation goes to running at once, and a
// durable job does the work (ExecuteTranslationRun). Errors: NotFound, Forbidden.
func (r *App) RunTranslation(ctx context.Context, orgID, id string) (*model.TranslationRun, error) {
	t, tr, err := r.visibleTranslation(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	if err := tr.requireManage(); err != nil {
		return nil, err
	}
	actor, _ := authz.RequireActor(ctx)
	run := &storage.TranslationRun{
		OrganizationID: orgID, TranslationID: t.ID, Status: string(model.TranslationRunQueued),
		CreatedBy: &actor.UserID, CreatedAt: r.Now(),
	}
	ctx = r.emit(ctx, &storage.Event{Type: EventTranslationRunStarted, OrganizationID: orgID, SpaceID: t.SourceSpaceID, TargetType: "translation", TargetID: t.ID}, nil)
	if err := r.Store.StartTranslationRun(ctx, run, newTranslationRunJob); err != nil {
		return nil, notFound(err, "translation")
	}
	return toTranslationRun(run), nil
}

// glossaryReader checks that the caller is a member of the organization. Errors: NotFound.
func (r *App) glossaryReader(ctx context.Context, orgID string) (*model.Organization, error) {
	return r.OrganizationByID(ctx, orgID)
}

func (r *App) toGlossaryEntry(e *storage.GlossaryEntry) *model.GlossaryEntry {
	out := &model.GlossaryEntry{
		Object: "glossary-entry", ID: e.ID, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt,
		URLs:         model.LocationURLs{Location: r.apiURL("/orgs/%s/translations-glossary/%s", e.OrganizationID, e.ID)},
		Translations: model.GlossaryTranslations{},
	}
	_ = json.Unmarshal([]byte(e.Translations), &out.Translations)
	return out
}

// GlossaryEntries lists the organization's glossary, oldest first (members). Errors: Invalid,
// NotFound.
func (r *App) GlossaryEntries(ctx context.Context, orgID string, first *int, after *string) (*model.GlossaryEntryConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	if _, err := r.glossaryReader(ctx, orgID); err != nil {
		return nil, err
	}
	all, err := r.Store.GlossaryIn(ctx, orgID)
	if err != nil {
		return nil, err
	}
	list, err := storage.PageInMemory("glossary", all, func(e *storage.GlossaryEntry) (time.Time, string) { return e.CreatedAt, e.ID }, false, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, r.toGlossaryEntry), nil
}

// FindGlossaryEntry returns one glossary entry (members). Errors: NotFound.
func (r *App) FindGlossaryEntry(ctx context.Context, orgID, id string) (*model.GlossaryEntry, error) {
	if _, err := r.glossaryReader(ctx, orgID); err != nil {
		return nil, err
	}
	e, err := r.Store.FindGlossaryEntry(ctx, orgID, id)
	if err != nil {
		return nil, notFound(err, "glossary entry")
	}
	return r.toGlossaryEntry(e), nil
}

// UpdateGlossary applies a batch of insert, update and delete operations, all or nothing
// (members with the create role). The next run of each translation re-translates only the
// pages where a changed term occurs. It reports true once applied. Errors: Invalid (an unknown id too), NotFound, Forbidden.
func (r *App) UpdateGlossary(ctx context.Context, orgID string, in model.UpdateGlossaryInput) (bool, error) {
	if err := in.Validate(); err != nil {
		return false, err
	}
	org, err := r.glossaryReader(ctx, orgID)
	if err != nil {
		return false, err
	}
	if !org.Permissions.CreateContent {
		return false, apperr.Forbiddenf("you need the create role in this organization to change the glossary")
	}
	now := r.Now()
	var change storage.GlossaryChange
	for _, op := range in.Operations {
		terms, _ := json.Marshal(op.Translations)
		switch op.Type {
		case model.GlossaryInsert:
			// Entries list oldest first: a batch's inserts keep their order a microsecond apart.
			at := now.Add(time.Duration(len(change.Insert)) * time.Microsecond)
			change.Insert = append(change.Insert, &storage.GlossaryEntry{Translations: string(terms), CreatedAt: at, UpdatedAt: at})
		case model.GlossaryUpdate:
			change.Update = append(change.Update, &storage.GlossaryEntry{ID: *op.ID, Translations: string(terms), UpdatedAt: now})
		case model.GlossaryDelete:
			change.Delete = append(change.Delete, *op.ID)
		}
	}
	ctx = r.emit(ctx, orgObjectEvent(EventGlossaryUpdated, orgID, "organization", orgID, ""),
		map[string]any{"inserted": len(change.Insert), "updated": len(change.Update), "deleted": len(change.Delete)})
	if err := r.Store.ApplyGlossary(ctx, orgID, change); err != nil {
		if apperr.KindOf(err) == apperr.NotFound {
			return false, apperr.Invalidf("operations", "%s", strings.TrimSuffix(err.Error(), ": "+storage.ErrNotFound.Error())+" not found")
		}
		return false, err
	}
	return true, nil
}
