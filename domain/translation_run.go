package domain

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/translator"
	"github.com/bindery/bindery/storage"
)

// A run translates the source space's current revision into a new revision of the result space.
//
// Every page (title, description and the text runs of its markdown, see document.TextRuns) has a
// key: a hash of that text, the target language, the instructions and the glossary terms that
// occur in it. The translation memory (storage.TranslatedPage) holds one translation per key, so
// a run sends only the pages whose key it does not hold yet: pages whose text changed, pages
// where a changed glossary term occurs, every page after the instructions change. Each answer is
// stored as soon as it arrives, so a run that stops half-way (a restart) and runs again sends
// only the pages still missing. The result follows the source's tree (moves, additions and
// removals included) and keeps its page and file ids, so links between pages still hold.

// ErrNoProvider is the failure of a run when no provider is configured.
const errNoProvider = "no translation provider configured"

// runWorkers bounds the pages a run translates at once (the client bounds requests across runs).
const runWorkers = 4

// ExecuteTranslationRun works one queued run to its end (the translation-run job calls it). A run
// already finished, or whose translation is gone, is left alone. A provider failure fails the
// run (returning the translation to its previous status) and returns nil: retrying is the
// client's job. Only a stopped context or a database error is returned, so that the job is
// tried again later, resuming where it stopped.
func (r *App) ExecuteTranslationRun(ctx context.Context, runID string) error {
	run, err := r.Store.FindTranslationRun(ctx, runID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if run.Status == string(model.TranslationRunCompleted) || run.Status == string(model.TranslationRunFailed) {
		return nil
	}
	t, err := r.Store.FindTranslation(ctx, run.OrganizationID, run.TranslationID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if run.StartedAt == nil {
		now := r.Now()
		run.StartedAt = &now
	}
	run.Status = string(model.TranslationRunRunning)
	if err := r.Store.UpdateTranslationRun(ctx, run, storage.TranslationRunStatus); err != nil {
		return err
	}
	failure, err := r.translate(ctx, t, run)
	if err != nil {
		if ctx.Err() != nil {
			return err // stopped: the job runs again and resumes
		}
		var pe *translator.Error
		var fe *runFailure
		switch {
		case errors.As(err, &pe):
			failure = pe.Msg
		case errors.As(err, &fe):
			failure = fe.msg
		default:
			return err
		}
	}
	now := r.Now()
	run.FinishedAt = &now
	completed := failure == ""
	if completed {
		run.Status, run.Progress = string(model.TranslationRunCompleted), 100
	} else {
		run.Status, run.Failure = string(model.TranslationRunFailed), &failure
		slog.WarnContext(ctx, "translation run failed", "translation", t.ID, "run", run.ID, "reason", failure)
	}
	ctx = r.emit(ctx, &storage.Event{Type: EventTranslationRunFinished, OrganizationID: run.OrganizationID, SpaceID: t.SourceSpaceID, TargetType: "translation", TargetID: t.ID}, map[string]any{"run": run.ID, "status": run.Status})
	return r.Store.FinishTranslationRun(ctx, run, completed, now.Sub(*run.StartedAt).Milliseconds())
}

// runFailure is a reason a run cannot go on that is not the provider's.
type runFailure struct{ msg string }

func (e *runFailure) Error() string { return e.msg }

// sourcePage is one page of the source revision and what a run sends of it.
type sourcePage struct {
	version  *storage.PageVersion
	markdown string
	runs     []document.TextRun
	texts    []string // title, description (when set), then the runs' text
	terms    []translator.Term
	key      string
}

// translate does the run's work; a non-empty failure (or a *translator.Error) fails the run.
func (r *App) translate(ctx context.Context, t *storage.Translation, run *storage.TranslationRun) (failure string, err error) {
	if r.Translator == nil {
		return errNoProvider, nil
	}
	if t.ResultSpaceID == nil {
		return "the result space was deleted", nil
	}
	source, err := r.Store.FindSpaceByID(ctx, t.SourceSpaceID, false)
	if err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return "the source space was deleted", nil
		}
		return "", err
	}
	view := storage.View{SpaceID: source.ID, BaseSeq: source.RevisionSeq}
	versions, err := r.Store.PagesOf(ctx, view)
	if err != nil {
		return "", err
	}
	files, err := r.Store.FilesOf(ctx, view)
	if err != nil {
		return "", err
	}
	includes, err := r.Store.ReusableContentsOf(ctx, view)
	if err != nil {
		return "", err
	}
	bodies, err := markdownByContent(ctx, r.Store, versions, func(v *storage.PageVersion) *string { return v.ContentID })
	if err != nil {
		return "", err
	}
	glossary, err := r.Store.GlossaryIn(ctx, t.OrganizationID)
	if err != nil {
		return "", err
	}
	terms := glossaryTerms(glossary, t.SourceLanguage, t.Language)
	instructions := instructionsText(t.Instructions)

	pages := make([]*sourcePage, len(versions))
	keys := make([]string, len(versions))
	for i, v := range versions {
		p := &sourcePage{version: v}
		if v.ContentID != nil {
			p.markdown = bodies[*v.ContentID]
		}
		p.texts = append(p.texts, v.Title)
		if v.Description != nil && *v.Description != "" {
			p.texts = append(p.texts, *v.Description)
		}
		p.runs = document.TextRuns(p.markdown)
		for _, tr := range p.runs {
			p.texts = append(p.texts, tr.Text)
		}
		p.terms = termsIn(terms, p.texts)
		p.key = pageKey(t, instructions, p)
		pages[i], keys[i] = p, p.key
	}
	units, includeTexts, err := r.reusableSources(ctx, t, instructions, terms, includes)
	if err != nil {
		return "", err
	}
	for _, u := range units {
		keys = append(keys, u.key)
	}
	memory, err := r.Store.TranslatedPages(ctx, t.ID, keys)
	if err != nil {
		return "", err
	}
	// One request per distinct key the memory lacks (identical pages are sent once).
	var todo []*sourcePage
	seen := map[string]bool{}
	for _, p := range append(slices.Clip(pages), units...) {
		if memory[p.key] == nil && !seen[p.key] {
			seen[p.key] = true
			todo = append(todo, p)
		}
	}
	// Pages this run stored before it stopped (a restart) count as sent by it.
	prior := 0
	for _, m := range memory {
		if m.RunID == run.ID {
			prior++
		}
	}
	run.SourceRevisionID = &source.RevisionID
	run.PagesTotal = len(pages) + len(units)
	if err := r.Store.UpdateTranslationRun(ctx, run, storage.TranslationRunSource); err != nil {
		return "", err
	}
	done, err := r.translatePages(ctx, t, run, instructions, todo, prior)
	for _, p := range done {
		memory[p.SourceKey] = p
	}
	if err != nil {
		return "", err
	}
	run.PagesSent, run.PagesReused, run.Words = 0, 0, 0
	counted := map[string]bool{}
	for _, p := range append(slices.Clip(pages), units...) {
		m := memory[p.key]
		switch {
		case m.RunID != run.ID:
			run.PagesReused++
		case !counted[p.key]:
			counted[p.key] = true
			run.PagesSent++
			run.Words += m.Words
		}
	}
	translated, includeContents := translatedIncludes(t.OrganizationID, includes, units, includeTexts, memory)
	rev, issues, err := r.writeResult(ctx, t, pages, files, translated, includeContents, memory)
	if err != nil {
		return "", err
	}
	run.ResultRevisionID = &rev.ID
	b, _ := json.Marshal(issues)
	run.Issues = string(b)
	return "", nil
}

// translatePages sends pages to the provider, a few at a time, storing each answer as it comes
// and moving the run's progress. It returns what it stored, and the first failure.
func (r *App) translatePages(ctx context.Context, t *storage.Translation, run *storage.TranslationRun, instructions string, todo []*sourcePage, prior int) ([]*storage.TranslatedPage, error) {
	if len(todo) == 0 {
		return nil, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		firstErr error
		done     []*storage.TranslatedPage
		next     int
		wg       sync.WaitGroup
	)
	take := func() *sourcePage {
		mu.Lock()
		defer mu.Unlock()
		if next >= len(todo) || firstErr != nil {
			return nil
		}
		next++
		return todo[next-1]
	}
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
			cancel()
		}
	}
	for range min(runWorkers, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := take(); p != nil; p = take() {
				out, err := r.Translator.Translate(ctx, translator.Request{
					SourceLanguage: t.SourceLanguage, TargetLanguage: t.Language, Instructions: instructions,
					Glossary: p.terms, Texts: p.texts,
				})
				if err != nil {
					fail(err)
					return
				}
				tp := translatedPage(t, run, p, out, r.Now())
				// An answer paid for is kept even as the run stops (a shutdown): the write is short.
				saveCtx, cancelSave := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
				err = r.Store.SaveTranslatedPage(saveCtx, tp)
				cancelSave()
				if err != nil {
					fail(err)
					return
				}
				mu.Lock()
				done = append(done, tp)
				progress := (prior + len(done)) * 99 / (prior + len(todo)) // 100 once the result is written
				sent := prior + len(done)
				mu.Unlock()
				r.saveProgress(ctx, run, progress, sent)
			}
		}()
	}
	wg.Wait()
	return done, firstErr
}

// saveProgress records a run's progress and the pages it sent so far; a failed write is not the
// run's failure (the next page writes it again).
func (r *App) saveProgress(ctx context.Context, run *storage.TranslationRun, progress, sent int) {
	// Written even as the run stops: the page it counts is stored already.
	if err := r.Store.SaveTranslationProgress(context.WithoutCancel(ctx), run.ID, progress, sent); err != nil {
		slog.WarnContext(ctx, "save translation progress", "run", run.ID, "err", err)
	}
}

// translatedPage builds a page's memory entry from the provider's texts: the markdown with the
// runs replaced where that keeps the document's shape, and the page's issues.
func translatedPage(t *storage.Translation, run *storage.TranslationRun, p *sourcePage, out []string, now time.Time) *storage.TranslatedPage {
	i := 0
	title := keepIfEmpty(out[i], p.version.Title)
	i++
	var description *string
	if p.version.Description != nil && *p.version.Description != "" {
		d := keepIfEmpty(out[i], *p.version.Description)
		description = &d
		i++
	}
	texts := out[i:]
	markdown, kept := replaceKeepingShape(p.markdown, p.runs, texts)
	var issues []*model.TranslationIssue
	if kept > 0 {
		issues = append(issues, &model.TranslationIssue{Page: p.version.PageID, Kind: "structure",
			Message: fmt.Sprintf("%d piece(s) of text kept as in the source: their translation would have changed the page's structure", kept)})
	}
	if missing := missingTerms(p.terms, append([]string{title, deref(description)}, texts...)); len(missing) > 0 {
		issues = append(issues, &model.TranslationIssue{Page: p.version.PageID, Kind: "glossary",
			Message: "the translation misses glossary terms: " + strings.Join(missing, ", "), Terms: missing})
	}
	b, _ := json.Marshal(issues)
	if issues == nil {
		b = []byte("[]")
	}
	return &storage.TranslatedPage{
		TranslationID: t.ID, SourceKey: p.key, OrganizationID: t.OrganizationID, RunID: run.ID,
		Title: title, Description: description, Markdown: markdown, Words: int64(countWords(p.texts)),
		Issues: string(b), CreatedAt: now,
	}
}

func keepIfEmpty(s, fallback string) string {
	if s = strings.TrimSpace(strings.Join(strings.Fields(s), " ")); s == "" {
		return fallback
	}
	return s
}

// maxShapeRepairs bounds the runs a page's repair tries one by one.
const maxShapeRepairs = 300

// replaceKeepingShape replaces the runs with their translations. When the result's document
// would not have the source's shape (a translation that reads as markdown syntax the escaping did
// not foresee), runs are replaced one at a time and those that change the shape are kept as in
// the source. It returns the markdown and the number of runs kept.
func replaceKeepingShape(markdown string, runs []document.TextRun, texts []string) (string, int) {
	out := document.ReplaceTextRuns(markdown, runs, texts)
	if document.SameShape(markdown, out) {
		return out, 0
	}
	if len(runs) > maxShapeRepairs {
		return markdown, len(runs)
	}
	accepted := make([]string, len(runs))
	kept := 0
	for i := range runs {
		accepted[i] = texts[i]
		if !document.SameShape(markdown, document.ReplaceTextRuns(markdown, runs, accepted)) {
			accepted[i] = "" // an empty text keeps the run as it was
			kept++
		}
	}
	return document.ReplaceTextRuns(markdown, runs, accepted), kept
}

// writeResult writes the result space's new revision: the source's tree with each page's
// translation, the source's files, and its reusable contents translated (includeContents are
// their files). It returns the revision and the issues of its pages.
func (r *App) writeResult(ctx context.Context, t *storage.Translation, pages []*sourcePage, files []*storage.FileVersion, includes []*storage.ReusableContentVersion, includeContents []*storage.PageContent, memory map[string]*storage.TranslatedPage) (*storage.Revision, []*model.TranslationIssue, error) {
	issues := []*model.TranslationIssue{}
	want := make([]*storage.PageVersion, len(pages))
	contents := includeContents
	for i, p := range pages {
		m := memory[p.key]
		v := &storage.PageVersion{}
		*v = *p.version
		v.Span = storage.Span{}
		v.Title, v.Description = m.Title, m.Description
		if p.version.ContentID != nil {
			contents = append(contents, setMarkdown(v, t.OrganizationID, m.Markdown)...)
		}
		want[i] = v
		var pageIssues []*model.TranslationIssue
		_ = json.Unmarshal([]byte(m.Issues), &pageIssues)
		for _, is := range pageIssues {
			is.Page = p.version.PageID
			issues = append(issues, is)
		}
	}
	rev, err := r.Store.ReplaceContent(ctx, *t.ResultSpaceID, "update", r.Now, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		current, err := c.Pages(ctx)
		if err != nil {
			return nil, err
		}
		currentFiles, err := c.Files(ctx)
		if err != nil {
			return nil, err
		}
		edit := resultEdit(current, want, contents, currentFiles, files)
		currentIncludes, err := c.ReusableContents(ctx)
		if err != nil {
			return nil, err
		}
		resultIncludes(edit, currentIncludes, includes)
		return edit, nil
	})
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil, &runFailure{"the result space was deleted"}
	}
	return rev, issues, err
}

// resultEdit is what turns the result's current content into want: changed and new pages and
// files, and those the source no longer has.
func resultEdit(current, want []*storage.PageVersion, contents []*storage.PageContent, currentFiles, files []*storage.FileVersion) *storage.Edit {
	edit := &storage.Edit{}
	have := map[string]*storage.PageVersion{}
	for _, v := range current {
		have[v.PageID] = v
	}
	keep := map[string]bool{}
	for _, v := range want {
		keep[v.PageID] = true
		if old := have[v.PageID]; old == nil || !samePage(old, v) {
			edit.Pages = append(edit.Pages, v)
		}
	}
	for _, v := range current {
		if !keep[v.PageID] {
			edit.RemovedPages = append(edit.RemovedPages, v.PageID)
		}
	}
	if len(edit.Pages) > 0 {
		edit.Contents = contents
	}
	haveFiles := map[string]*storage.FileVersion{}
	for _, f := range currentFiles {
		haveFiles[f.FileID] = f
	}
	keepFiles := map[string]bool{}
	for _, f := range files {
		keepFiles[f.FileID] = true
		old := haveFiles[f.FileID]
		if old == nil || old.BlobKey != f.BlobKey || old.Name != f.Name || old.ContentType != f.ContentType {
			c := *f
			c.Span = storage.Span{}
			edit.Files = append(edit.Files, &c)
		}
	}
	for _, f := range currentFiles {
		if !keepFiles[f.FileID] {
			edit.RemovedFiles = append(edit.RemovedFiles, f.FileID)
		}
	}
	sort.Strings(edit.RemovedPages)
	return edit
}

// resultIncludes adds to edit what turns the result's reusable contents into the source's.
func resultIncludes(edit *storage.Edit, current, source []*storage.ReusableContentVersion) {
	have := map[string]*storage.ReusableContentVersion{}
	for _, v := range current {
		have[v.ReusableContentID] = v
	}
	keep := map[string]bool{}
	for _, v := range source {
		keep[v.ReusableContentID] = true
		old := have[v.ReusableContentID]
		if old == nil || old.Title != v.Title || deref(old.ContentID) != deref(v.ContentID) || deref(old.Git) != deref(v.Git) {
			c := *v
			c.Span = storage.Span{}
			edit.ReusableContents = append(edit.ReusableContents, &c)
		}
	}
	for _, v := range current {
		if !keep[v.ReusableContentID] {
			edit.RemovedReusableContents = append(edit.RemovedReusableContents, v.ReusableContentID)
		}
	}
}

// glossaryTerms are the entries that have a term in both languages.
func glossaryTerms(entries []*storage.GlossaryEntry, from, to string) []translator.Term {
	var out []translator.Term
	for _, e := range entries {
		var m map[string]string
		if json.Unmarshal([]byte(e.Translations), &m) != nil {
			continue
		}
		if m[from] != "" && m[to] != "" {
			out = append(out, translator.Term{Source: m[from], Target: m[to]})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Source != out[j].Source {
			return out[i].Source < out[j].Source
		}
		return out[i].Target < out[j].Target
	})
	return out
}

// termsIn are the terms whose source occurs in the texts (case-insensitively).
func termsIn(terms []translator.Term, texts []string) []translator.Term {
	if len(terms) == 0 {
		return nil
	}
	all := strings.ToLower(strings.Join(texts, "\n"))
	var out []translator.Term
	for _, t := range terms {
		if strings.Contains(all, strings.ToLower(t.Source)) {
			out = append(out, t)
		}
	}
	return out
}

// missingTerms are the target terms a translation does not hold (case-insensitively).
func missingTerms(terms []translator.Term, texts []string) []string {
	all := strings.ToLower(strings.Join(texts, "\n"))
	var out []string
	for _, t := range terms {
		if !strings.Contains(all, strings.ToLower(t.Target)) {
			out = append(out, t.Target)
		}
	}
	return out
}

// pageKey is the translation memory's key of a page: what its translation depends on.
func pageKey(t *storage.Translation, instructions string, p *sourcePage) string {
	h := sha256.New()
	write := func(s string) {
		fmt.Fprintf(h, "%d:%s", len(s), s)
	}
	write(t.SourceLanguage)
	write(t.Language)
	write(instructions)
	for _, term := range p.terms {
		write(term.Source)
		write(term.Target)
	}
	write("|")
	if p.version.Description != nil {
		write("d")
	}
	write(p.version.Title)
	write(deref(p.version.Description))
	write(p.markdown)
	return hex.EncodeToString(h.Sum(nil))
}

// instructionsText is the plain text of an instructions document, a paragraph per block.
func instructionsText(doc string) string {
	var v any
	if json.Unmarshal([]byte(doc), &v) != nil {
		return ""
	}
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if x["object"] == "leaf" {
				if s, ok := x["text"].(string); ok {
					b.WriteString(s)
				}
				return
			}
			for _, k := range []string{"nodes", "leaves"} {
				if c, ok := x[k]; ok {
					walk(c)
				}
			}
			if x["object"] == "block" {
				b.WriteString("\n")
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
	return strings.TrimSpace(b.String())
}

func countWords(texts []string) int {
	n := 0
	for _, t := range texts {
		n += len(strings.Fields(t))
	}
	return n
}
