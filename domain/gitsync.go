package domain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/gitsync"
	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// GitSyncConfig is how the server syncs with Git.
type GitSyncConfig struct {
	// AllowLocal lets repository URLs be file:// or on loopback, private and link-local
	// addresses (--git-allow-local).
	AllowLocal bool
	// SecretKey encrypts the credentials a repository URL carries while its job waits
	// (--secret-key). Without it, URLs with credentials are refused.
	SecretKey string
	// Limits bound each job (zero fields: gitsync.DefaultLimits).
	Limits gitsync.Limits
	// JobTimeout bounds one job's run (default 10 minutes).
	JobTimeout time.Duration
}

func (c GitSyncConfig) limits() gitsync.Limits {
	l, d := c.Limits, gitsync.DefaultLimits
	if l.RepoBytes == 0 {
		l.RepoBytes = d.RepoBytes
	}
	if l.Files == 0 {
		l.Files = d.Files
	}
	if l.FileBytes == 0 {
		l.FileBytes = d.FileBytes
	}
	return l
}

func (c GitSyncConfig) timeout() time.Duration {
	if c.JobTimeout > 0 {
		return c.JobTimeout
	}
	return 10 * time.Minute
}

// gitSyncArgs is the durable job running one git_sync_jobs row; the row holds the request.
type gitSyncArgs struct {
	JobID string `json:"jobId"`
}

func (gitSyncArgs) Kind() string { return "git_sync" }

func init() {
	addJobKinds(func(r *App, reg *jobs.Registry) {
		// The job enforces its own limit (GitSyncConfig.JobTimeout) and records it; River's is a
		// backstop.
		jobs.Add(reg, r.workGitSync, jobs.Timeout(r.GitSync.timeout()+time.Minute),
			jobs.GiveUp(func(ctx context.Context, job *jobs.Job[gitSyncArgs], cause error) {
				// The last attempt ended in the server's own error: the job must not stay running.
				slog.ErrorContext(ctx, "git sync job abandoned", "job", job.Args.JobID, "attempts", job.Attempt, "err", cause)
				if err := r.finishGit(ctx, &storage.GitSyncJob{ID: job.Args.JobID}, storage.GitJobFailed, "the job stopped on an internal error; run it again", nil); err != nil && !errors.Is(err, storage.ErrNotFound) {
					slog.ErrorContext(ctx, "git sync job: recording the failure", "job", job.Args.JobID, "err", err)
				}
			}))
	})
}

// gitSyncSetup is what the space row keeps of its sync (spaces.git_sync): no credentials.
type gitSyncSetup struct {
	URL              string                 `json:"url"`
	Ref              string                 `json:"ref"`
	ProjectDirectory string                 `json:"projectDirectory,omitempty"`
	Provider         *model.GitSyncProvider `json:"provider,omitempty"`
	ProviderURL      string                 `json:"providerUrl,omitempty"`
	Commit           string                 `json:"commit,omitempty"`
	Redirects        map[string]string      `json:"redirects,omitempty"`
	// Root is the folder .gitbook.yaml names as the root ("" for the project directory) and
	// Config that file as read: export writes the content under the root and the file back.
	Root   string `json:"root,omitempty"`
	Config string `json:"config,omitempty"`
	// AppliedAt is the timestamp of the last operation applied: older ones are skipped.
	AppliedAt *time.Time `json:"appliedAt,omitempty"`
	UpdatedAt time.Time  `json:"updatedAt"`
}

func readSetup(raw *string) *gitSyncSetup {
	if raw == nil {
		return nil
	}
	var s gitSyncSetup
	if json.Unmarshal([]byte(*raw), &s) != nil {
		return nil
	}
	return &s
}

// gitSyncState is the contract's view of a set-up.
func gitSyncState(raw *string) *model.GitSyncState {
	s := readSetup(raw)
	if s == nil {
		return nil
	}
	out := &model.GitSyncState{URL: &s.URL, UpdatedAt: &s.UpdatedAt, Ref: &s.Ref, InstallationProvider: s.Provider}
	if s.ProviderURL != "" {
		out.URL = &s.ProviderURL
	}
	if name := repoName(s.URL); name != "" {
		out.RepoName = &name
	}
	if s.ProjectDirectory != "" {
		out.ProjectDirectory = &s.ProjectDirectory
	}
	if s.Commit != "" {
		out.Commit = &s.Commit
	}
	return out
}

// repoName is "owner/name" of a repository URL.
func repoName(raw string) string {
	p := raw
	if u, err := url.Parse(raw); err == nil && u.Scheme != "" {
		p = u.Path
	} else if _, after, ok := strings.Cut(raw, ":"); ok {
		p = after
	}
	parts := strings.Split(strings.Trim(strings.TrimSuffix(p, ".git"), "/"), "/")
	if len(parts) >= 2 {
		return parts[len(parts)-2] + "/" + parts[len(parts)-1]
	}
	return parts[len(parts)-1]
}

// ImportGitRepository queues an import of a repository into the space: 204 at once, the job
// runs in the background. Errors: Invalid (naming the field), NotFound, Forbidden.
func (r *App) ImportGitRepository(ctx context.Context, spaceID string, in model.ImportGitRepositoryInput) (*model.GitSyncJob, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	req := model.GitSyncRequest{Ref: in.Ref, RepoTreeURL: deref(in.RepoTreeURL), RepoCommitURL: deref(in.RepoCommitURL),
		Timestamp: in.Timestamp, Force: in.Force != nil && *in.Force, Standalone: in.Standalone != nil && *in.Standalone, GitInfo: in.GitInfo}
	return r.queueGitSync(ctx, spaceID, model.GitSyncImport, in.URL, deref(in.RepoProjectDirectory), req)
}

// ExportToGitRepository queues an export of the space's current content to a repository.
// Errors: Invalid (naming the field), NotFound, Forbidden.
func (r *App) ExportToGitRepository(ctx context.Context, spaceID string, in model.ExportToGitRepositoryInput) (*model.GitSyncJob, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	req := model.GitSyncRequest{Ref: in.Ref, CommitMessage: in.CommitMessage, RepoTreeURL: deref(in.RepoTreeURL), RepoCommitURL: deref(in.RepoCommitURL),
		Timestamp: in.Timestamp, Force: in.Force != nil && *in.Force, GitInfo: in.GitInfo}
	return r.queueGitSync(ctx, spaceID, model.GitSyncExport, in.URL, deref(in.RepoProjectDirectory), req)
}

// gitSyncSpace is a live space the caller may trigger Git Sync on. Errors: NotFound, Forbidden.
func (r *App) gitSyncSpace(ctx context.Context, spaceID string) (*model.Space, *storage.Space, error) {
	sp, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, nil, err
	}
	if !sp.Permissions.TriggerGitSync {
		return nil, nil, apperr.Forbiddenf("you need the %s role on this space to trigger Git Sync", model.MemberRoleEdit)
	}
	return sp, row, nil
}

func (r *App) queueGitSync(ctx context.Context, spaceID string, op model.GitSyncOperation, rawURL, dir string, req model.GitSyncRequest) (*model.GitSyncJob, error) {
	remote, err := gitsync.ParseRemote(rawURL)
	if err != nil {
		return nil, apperr.Invalidf("url", "%s", err.Error())
	}
	if dir != "" {
		clean, ok := gitsync.CleanPath(strings.Trim(dir, "/"))
		if !ok {
			return nil, apperr.Invalidf("repoProjectDirectory", "must be a directory inside the repository")
		}
		dir = clean
	}
	_, row, err := r.gitSyncSpace(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	if err := gitsync.CheckReachable(ctx, remote, r.GitSync.AllowLocal); err != nil {
		return nil, apperr.Invalidf("url", "%s", err.Error())
	}
	job := &storage.GitSyncJob{ID: storage.NewID(), OrganizationID: row.OrganizationID, SpaceID: row.ID, Operation: string(op)}
	if remote.HasCredentials() {
		sealer := gitsync.NewSealer(r.GitSync.SecretKey)
		if sealer == nil {
			return nil, apperr.Invalidf("url", "this server does not keep credentials: its operator must set a secret key (--secret-key or BINDERY_SECRET_KEY) to sync with a URL that carries them")
		}
		creds, _ := json.Marshal([2]string{remote.Username, remote.Password})
		sealed := sealer.Seal(string(creds))
		job.Credentials = &sealed
	}
	req.URL, req.RepoProjectDirectory = remote.URL, dir
	raw, _ := json.Marshal(req)
	job.Request = string(raw)
	now := r.Now()
	job.CreatedAt, job.OrderedAt = now, now
	if req.Timestamp != nil {
		job.OrderedAt = req.Timestamp.UTC()
	}
	if actor, err := authz.RequireActor(ctx); err == nil {
		job.CreatedBy = &actor.UserID
	}
	ctx = r.emit(ctx, gitSyncEvent(EventSpaceGitSyncStarted, job), map[string]any{"operation": job.Operation})
	if err := r.Store.QueueGitSyncJob(ctx, job, gitSyncArgs{JobID: job.ID}); err != nil {
		return nil, notFound(err, "space")
	}
	return toGitSyncJob(job), nil
}

func toGitSyncJob(j *storage.GitSyncJob) *model.GitSyncJob {
	var req model.GitSyncRequest
	_ = json.Unmarshal([]byte(j.Request), &req) // written by queueGitSync
	out := &model.GitSyncJob{
		ID: j.ID, Operation: model.GitSyncOperation(j.Operation), State: model.GitSyncJobState(j.State), Error: j.Error,
		URL: req.URL, Ref: req.Ref, Timestamp: j.OrderedAt, Force: req.Force, Standalone: req.Standalone,
		RevisionID: j.RevisionID, Commit: j.CommitOID, CreatedAt: j.CreatedAt, StartedAt: j.StartedAt, FinishedAt: j.FinishedAt,
	}
	if req.CommitMessage != "" {
		out.CommitMessage = &req.CommitMessage
	}
	return out
}

// SpaceGitInfo is the space's sync set-up and its last job. Errors: NotFound (also for a space
// that never synced), Unauthenticated.
func (r *App) SpaceGitInfo(ctx context.Context, spaceID string) (*model.GitSyncState, error) {
	_, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	last, err := r.Store.LastGitSyncJob(ctx, row.ID)
	if errors.Is(err, storage.ErrNotFound) && row.GitSync == nil {
		return nil, apperr.NotFoundf("no Git Sync is set up on this space")
	}
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	state := gitSyncState(row.GitSync)
	if state == nil {
		// Queued but never applied: what was asked for.
		j := toGitSyncJob(last)
		state = &model.GitSyncState{URL: &j.URL, Ref: &j.Ref, UpdatedAt: &last.CreatedAt}
		if name := repoName(j.URL); name != "" {
			state.RepoName = &name
		}
	}
	if last != nil {
		state.LastJob = toGitSyncJob(last)
	}
	return state, nil
}

// GitSyncJobs lists a space's imports and exports, newest first. Errors: Invalid (paging).
func (r *App) GitSyncJobs(ctx context.Context, space *model.Space, first *int, after *string) (*model.GitSyncJobConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.GitSyncJobs(ctx, space.ID, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, toGitSyncJob), nil
}

// DeleteLegacyGitInstallation removes the space's legacy (GitHub-legacy) Git Sync installation.
// Bindery never creates one (its syncs are the new kind), so there is never anything to remove:
// removed is false once the caller is allowed. Errors: NotFound, Forbidden.
func (r *App) DeleteLegacyGitInstallation(ctx context.Context, spaceID string) (removed bool, err error) {
	if _, _, err := r.gitSyncSpace(ctx, spaceID); err != nil {
		return false, err
	}
	return false, nil
}

// workGitSync runs one import or export. Its outcome is recorded on the job row (failures
// included), so River retries only what never reached the row: an interrupted run.
func (r *App) workGitSync(ctx context.Context, job *jobs.Job[gitSyncArgs]) error {
	row, space, ended, err := r.Store.ClaimGitSyncJob(ctx, job.Args.JobID, r.Now())
	switch {
	case errors.Is(err, storage.ErrBusy):
		return jobs.Retry(time.Second) // another job of the space runs or waits first
	case errors.Is(err, storage.ErrNotFound) && row != nil && row.ID != "":
		return r.finishGit(ctx, row, storage.GitJobFailed, "the space was deleted", nil)
	case errors.Is(err, storage.ErrNotFound):
		return nil // the job's space (and row) are gone
	case err != nil:
		return err
	case ended:
		return nil
	}
	var req model.GitSyncRequest
	if err := json.Unmarshal([]byte(row.Request), &req); err != nil {
		return r.finishGit(ctx, row, storage.GitJobFailed, "the stored request is damaged", nil)
	}
	setup := readSetup(space.GitSync)
	if setup != nil && setup.AppliedAt != nil && row.OrderedAt.Before(*setup.AppliedAt) {
		msg := fmt.Sprintf("skipped: an operation with a newer timestamp (%s) was already applied", setup.AppliedAt.Format(time.RFC3339Nano))
		return r.finishGit(ctx, row, storage.GitJobSkipped, msg, nil)
	}
	remote, err := gitsync.ParseRemote(req.URL)
	if err != nil {
		return r.finishGit(ctx, row, storage.GitJobFailed, err.Error(), nil)
	}
	if row.Credentials != nil {
		sealer := gitsync.NewSealer(r.GitSync.SecretKey)
		if sealer == nil {
			return r.finishGit(ctx, row, storage.GitJobFailed, "the server has no secret key to decrypt the job's credentials", nil)
		}
		plain, err := sealer.Open(*row.Credentials)
		var creds [2]string
		if err == nil {
			err = json.Unmarshal([]byte(plain), &creds)
		}
		if err != nil {
			return r.finishGit(ctx, row, storage.GitJobFailed, "the job's credentials cannot be decrypted (was the secret key changed?)", nil)
		}
		remote.Username, remote.Password = creds[0], creds[1]
	}
	runCtx, cancel := context.WithTimeout(gitsync.WithAllowLocal(ctx, r.GitSync.AllowLocal), r.GitSync.timeout())
	defer cancel()
	if err := gitsync.CheckReachable(runCtx, remote, r.GitSync.AllowLocal); err != nil {
		return r.finishGit(ctx, row, storage.GitJobFailed, err.Error(), nil)
	}
	run := gitRun{r: r, job: row, space: space, req: req, remote: remote, setup: setup}
	if row.Operation == string(model.GitSyncImport) {
		err = run.importRepo(runCtx)
	} else {
		err = run.exportSpace(runCtx)
	}
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err() // the server is stopping: the job runs again after the restart
	}
	msg := gitsync.Scrub(err.Error(), remote)
	if runCtx.Err() != nil {
		msg = fmt.Sprintf("the job took longer than the limit of %s", r.GitSync.timeout())
	}
	var lim *gitsync.LimitError
	if !errors.As(err, &lim) {
		slog.Warn("git sync job failed", "job", row.ID, "space", row.SpaceID, "operation", row.Operation, "error", msg)
	}
	return r.finishGit(ctx, row, storage.GitJobFailed, msg, nil)
}

// finishGit records a job's end without content (a failure or a skip); a job known only by its id
// (its space unknown) writes no event.
func (r *App) finishGit(ctx context.Context, job *storage.GitSyncJob, state, msg string, out *storage.GitJobOutcome) error {
	o := storage.GitJobOutcome{State: state}
	if out != nil {
		o = *out
	}
	if msg != "" {
		o.Error = &msg
	}
	if job.SpaceID != "" {
		ctx = r.emit(ctx, gitSyncEvent(EventSpaceGitSyncCompleted, job), map[string]any{"state": "failure", "operation": job.Operation})
	}
	return r.Store.FinishGitSyncJob(ctx, job.ID, o, r.Now())
}

// gitRun is one job's run.
type gitRun struct {
	r      *App
	job    *storage.GitSyncJob
	space  *storage.Space
	req    model.GitSyncRequest
	remote gitsync.Remote
	setup  *gitSyncSetup
}

// newSetup is the space's set-up after the job: what it synced with and when. read is the
// content an import read (nil for an export, which keeps the layout the last import saw).
func (g *gitRun) newSetup(commit string, read *gitsync.Content) string {
	s := gitSyncSetup{URL: g.remote.URL, Ref: g.req.Ref, ProjectDirectory: g.req.RepoProjectDirectory, Commit: commit,
		UpdatedAt: g.r.Now()}
	var redirects map[string]string
	if read != nil {
		redirects, s.Root, s.Config = read.Redirects, read.Root, string(read.Config)
	} else if g.setup != nil {
		s.Root, s.Config = g.setup.Root, g.setup.Config
	}
	s.Redirects = redirects
	if g.req.GitInfo != nil {
		s.Provider = g.req.GitInfo.Provider
		s.ProviderURL = deref(g.req.GitInfo.URL)
	} else if g.setup != nil && g.setup.URL == g.remote.URL {
		s.Provider, s.ProviderURL = g.setup.Provider, g.setup.ProviderURL
	}
	if redirects == nil && g.setup != nil {
		s.Redirects = g.setup.Redirects
	}
	at := g.job.OrderedAt
	if g.setup != nil && g.setup.AppliedAt != nil && g.setup.AppliedAt.After(at) {
		at = *g.setup.AppliedAt
	}
	s.AppliedAt = &at
	b, _ := json.Marshal(s)
	return string(b)
}

func (g *gitRun) commitGit(oid, message string, byExport bool) string {
	c := model.GitSyncCommit{Oid: oid, Message: message, CreatedByService: byExport, Ref: &g.req.Ref}
	if g.req.RepoCommitURL != "" {
		u := strings.TrimRight(g.req.RepoCommitURL, "/") + "/" + oid
		c.URL = &u
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// importRepo reads the repository and writes it as one new revision (or a standalone one).
func (g *gitRun) importRepo(ctx context.Context) error {
	lim := g.r.GitSync.limits()
	snap, err := gitsync.Fetch(ctx, g.remote, g.req.Ref, g.req.RepoProjectDirectory, lim)
	if err != nil {
		return err
	}
	content, err := gitsync.Read(snap.Files)
	if err != nil {
		return err
	}
	gitsync.AddOutsideIncludes(content, snap.Outside)
	// File bytes go to the content-addressed blob store first: an import that fails later leaves
	// only unreferenced blobs, never a half-written revision.
	blobs := make(map[*gitsync.File]blobInfo, len(content.Files))
	for _, f := range content.Files {
		info, err := g.r.Blobs.Put(ctx, bytes.NewReader(f.Data), lim.FileBytes)
		if err != nil {
			return fmt.Errorf("store %s: %w", f.Path, err)
		}
		blobs[f] = blobInfo{key: info.Key, contentType: info.ContentType, size: info.Size, width: info.Width, height: info.Height}
	}
	setup := g.newSetup(snap.Commit, content)
	in := storage.GitImport{
		JobID: g.job.ID, Author: deref(g.job.CreatedBy), Git: g.commitGit(snap.Commit, snap.Message, false),
		Standalone: g.req.Standalone,
		Outcome:    storage.GitJobOutcome{State: storage.GitJobSucceeded, CommitOID: &snap.Commit, GitSync: &setup},
	}
	ctx = g.r.emit(ctx, gitSyncEvent(EventSpaceGitSyncCompleted, g.job), map[string]any{"state": "success", "operation": g.job.Operation, "commitId": snap.Commit})
	_, err = g.r.Store.CommitGitImport(ctx, g.space.ID, g.r.Now, in, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		return importEdit(ctx, c, content, blobs)
	})
	return err
}

type blobInfo struct {
	key, contentType string
	size             int64
	width, height    int
}

// importEdit turns the repository's content into an edit of the line: pages and files keep their
// ids when they are the same item (same Git path, else same place), and only what changed is
// written, so change requests based on earlier content stay mergeable page by page.
func importEdit(ctx context.Context, c *storage.ContentTx, content *gitsync.Content, blobs map[*gitsync.File]blobInfo) (*storage.Edit, error) {
	pages, err := c.Pages(ctx)
	if err != nil {
		return nil, err
	}
	files, err := c.Files(ctx)
	if err != nil {
		return nil, err
	}
	byGitPath, byPath := map[string]*storage.PageVersion{}, map[string]*storage.PageVersion{}
	for p, v := range pagePaths(pages) {
		byPath[p] = v
	}
	for _, v := range pages {
		if g := readPageGit(v.Git); g.Path != "" {
			byGitPath[g.Path] = v
		}
	}
	used := map[string]bool{}
	edit := &storage.Edit{}
	includesChanged, err := importIncludes(ctx, c, content.Includes, edit)
	if err != nil {
		return nil, err
	}
	var place func(list []*gitsync.Page, parent *string, parentPath string)
	place = func(list []*gitsync.Page, parent *string, parentPath string) {
		var siblings []*storage.PageVersion
		for i, p := range list {
			v := &storage.PageVersion{ParentID: parent, Position: float64(i), Type: p.Kind, Title: truncate(p.Title, 256), CreatedAt: c.Now, UpdatedAt: c.Now}
			if p.Kind != "link" {
				v.Slug = uniqueSlug(p.Slug, siblings, "")
			}
			bindery := strings.TrimPrefix(parentPath+"/"+v.Slug, "/")
			old := byGitPath[p.Path]
			if p.Path == "" || old == nil || used[old.PageID] {
				old = byPath[bindery]
			}
			if old != nil && (used[old.PageID] || old.Type != p.Kind || p.Kind == "link") {
				old = nil
			}
			if old != nil {
				v.PageID, v.CreatedAt = old.PageID, old.CreatedAt
			} else {
				v.PageID = storage.NewID()
			}
			used[v.PageID] = true
			applyFront(v, p)
			var contents []*storage.PageContent
			if p.Kind == "document" {
				contents = setMarkdown(v, c.OrganizationID, p.Markdown)
			}
			// A page that includes reusable content is indexed again when that content changed.
			reindex := includesChanged && strings.Contains(p.Markdown, "{% include")
			if old == nil || !samePage(old, v) || reindex {
				edit.Pages = append(edit.Pages, v)
				edit.Contents = append(edit.Contents, contents...)
			}
			siblings = append(siblings, v)
			id := v.PageID
			place(p.Pages, &id, bindery)
		}
	}
	place(content.Pages, nil, "")
	for _, v := range pages {
		if !used[v.PageID] {
			edit.RemovedPages = append(edit.RemovedPages, v.PageID)
		}
	}

	fileByPath, fileByName := map[string]*storage.FileVersion{}, map[string]*storage.FileVersion{}
	for _, f := range files {
		if g := readBlobGit(f.Git); g != nil {
			fileByPath[g.Path] = f
		}
		fileByName[f.Name] = f
	}
	usedFiles := map[string]bool{}
	for _, f := range content.Files {
		b := blobs[f]
		old := fileByPath[f.Path]
		if old == nil || usedFiles[old.FileID] {
			old = fileByName[f.Name]
		}
		if old != nil && usedFiles[old.FileID] {
			old = nil
		}
		git := jsonText(model.GitSyncBlob{Oid: f.OID, Path: f.Path})
		v := &storage.FileVersion{Name: f.Name, ContentType: b.contentType, Size: b.size, BlobKey: b.key, Git: git, CreatedAt: c.Now}
		if b.width > 0 {
			v.Width, v.Height = &b.width, &b.height
		}
		if old != nil {
			v.FileID = old.FileID
		} else {
			v.FileID = storage.NewID()
		}
		usedFiles[v.FileID] = true
		if old == nil || old.BlobKey != v.BlobKey || old.Name != v.Name || deref(old.Git) != deref(v.Git) {
			edit.Files = append(edit.Files, v)
		}
	}
	for _, f := range files {
		if !usedFiles[f.FileID] {
			edit.RemovedFiles = append(edit.RemovedFiles, f.FileID)
		}
	}
	return edit, nil
}

// IncludedForSearch names a reusable content, from its Git path and its file's text, as pages
// include it, and gives the markdown they include (without its front matter): what search reads
// in place of an include (storage.WithSearchTextIncluding).
func IncludedForSearch(path, text string) (name, markdown string) {
	return document.IncludeKey(path), gitsync.IncludeBody(text)
}

// importIncludes adds to edit the repository's reusable contents: each keeps its id when its Git
// path is the same, and only what changed is written. It reports whether any changed.
func importIncludes(ctx context.Context, c *storage.ContentTx, includes []*gitsync.Include, edit *storage.Edit) (bool, error) {
	current, err := c.ReusableContents(ctx)
	if err != nil {
		return false, err
	}
	edit.IncludedMarkdown = map[string]string{}
	byPath := map[string]*storage.ReusableContentVersion{}
	for _, v := range current {
		if g := readBlobGit(v.Git); g != nil {
			byPath[g.Path] = v
		}
	}
	used := map[string]bool{}
	for _, inc := range includes {
		contentID := storage.ContentID(c.OrganizationID, inc.Text)
		v := &storage.ReusableContentVersion{Title: truncate(inc.Title, 256), Git: jsonText(model.GitSyncBlob{Oid: inc.OID, Path: inc.Path}),
			ContentID: &contentID, CreatedAt: c.Now}
		old := byPath[inc.Path]
		if old != nil && !used[old.ReusableContentID] {
			v.ReusableContentID = old.ReusableContentID
		} else {
			v.ReusableContentID = storage.NewID()
			old = nil
		}
		used[v.ReusableContentID] = true
		name, md := IncludedForSearch(inc.Path, inc.Text)
		edit.IncludedMarkdown[name] = md
		if old == nil || old.Title != v.Title || deref(old.ContentID) != contentID || deref(old.Git) != deref(v.Git) {
			edit.ReusableContents = append(edit.ReusableContents, v)
			edit.Contents = append(edit.Contents, &storage.PageContent{Markdown: inc.Text})
		}
	}
	for _, v := range current {
		if !used[v.ReusableContentID] {
			edit.RemovedReusableContents = append(edit.RemovedReusableContents, v.ReusableContentID)
		}
	}
	return len(edit.ReusableContents)+len(edit.RemovedReusableContents) > 0, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// pagePaths maps each page's path (its ancestors' slugs and its own) to the page.
func pagePaths(pages []*storage.PageVersion) map[string]*storage.PageVersion {
	byID := make(map[string]*storage.PageVersion, len(pages))
	for _, v := range pages {
		byID[v.PageID] = v
	}
	out := make(map[string]*storage.PageVersion, len(pages))
	for _, v := range pages {
		if v.Type == "link" {
			continue
		}
		segs := []string{v.Slug}
		for p := v.ParentID; p != nil && byID[*p] != nil && len(segs) <= len(pages); p = byID[*p].ParentID {
			segs = append([]string{byID[*p].Slug}, segs...)
		}
		out[strings.Join(segs, "/")] = v
	}
	return out
}

// pageGitMeta is what a page keeps of Git: the contract's {oid, path}, and the table of contents
// title when it differs from the page's (kept for export; not part of the API).
type pageGitMeta struct {
	Oid       string `json:"oid"`
	Path      string `json:"path"`
	LinkTitle string `json:"linkTitle,omitempty"`
	// Cover keeps the front matter's cover settings the page layout cannot hold.
	Cover *coverGitMeta `json:"cover,omitempty"`
	// Front is the front matter as written, which export writes back while the page's fields
	// still read the same from it (gitsync.Page.FrontText).
	Front string `json:"front,omitempty"`
}

// coverGitMeta is what a page keeps of its front matter's cover beyond the contract's layout: a
// size the contract does not know (GitBook's "background"; the layout holds the default, and the
// size is written back while the layout still does) and the mask.
type coverGitMeta struct {
	Size string `json:"size,omitempty"`
	Mask string `json:"mask,omitempty"`
}

func readPageGit(raw *string) pageGitMeta {
	var g pageGitMeta
	if raw != nil {
		_ = json.Unmarshal([]byte(*raw), &g)
	}
	return g
}

// pageGit is a page's git metadata as the API shows it: {oid, path}.
func pageGit(raw *string) model.JSON {
	g := readPageGit(raw)
	if g.Path == "" {
		return nil
	}
	b, _ := json.Marshal(model.GitSyncBlob{Oid: g.Oid, Path: g.Path})
	return b
}

// pageGitBlob is a page's {oid, path} for GraphQL.
func PageGitBlob(raw model.JSON) *model.GitSyncBlob {
	var g model.GitSyncBlob
	if raw.IsNull() || json.Unmarshal(raw, &g) != nil || g.Path == "" {
		return nil
	}
	return &g
}

func readBlobGit(raw *string) *model.GitSyncBlob {
	if raw == nil {
		return nil
	}
	var g model.GitSyncBlob
	if json.Unmarshal([]byte(*raw), &g) != nil || g.Path == "" {
		return nil
	}
	return &g
}

func blobGit(raw *string) *model.GitSyncBlob { return readBlobGit(raw) }

func revisionGit(raw *string) *model.GitSyncCommit {
	if raw == nil {
		return nil
	}
	var c model.GitSyncCommit
	if json.Unmarshal([]byte(*raw), &c) != nil || c.Oid == "" {
		return nil
	}
	return &c
}

// applyFront sets a page's options from its front matter and its Git metadata.
func applyFront(v *storage.PageVersion, p *gitsync.Page) {
	f := p.Front
	v.Description = nonEmpty(f.Description)
	v.Icon = nonEmpty(f.Icon)
	v.Emoji = nonEmpty(f.Emoji)
	v.Hidden, v.NoIndex = f.Hidden, f.NoIndex
	if f.Layout != nil {
		v.Layout = jsonText(layoutFromFront(f.Layout))
	}
	if p.Kind == "link" {
		v.LinkTarget = jsonText(map[string]string{"kind": "url", "url": p.URL})
	}
	if p.Path != "" {
		v.Git = jsonText(pageGitMeta{Oid: p.OID, Path: p.Path, LinkTitle: p.LinkTitle, Cover: coverFromFront(f.Layout), Front: p.FrontText})
	}
}

// coverFromFront is what the page keeps of its front matter's cover beyond the layout, or nil.
func coverFromFront(l *gitsync.Layout) *coverGitMeta {
	if l == nil || l.Cover == nil {
		return nil
	}
	c := coverGitMeta{Mask: l.Cover.Mask}
	if !contractCoverSize(l.Cover.Size) {
		c.Size = l.Cover.Size
	}
	if c == (coverGitMeta{}) {
		return nil
	}
	return &c
}

// contractCoverSize reports whether size is one of the contract's cover sizes (or none).
func contractCoverSize(size string) bool { return size == "" || size == "hero" || size == "full" }

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func layoutFromFront(l *gitsync.Layout) model.PageLayout {
	out := model.DefaultPageLayout()
	if l.Width != "" {
		out.Width = l.Width
	}
	set := func(dst *bool, v *gitsync.Visibility) {
		if v != nil {
			*dst = v.Visible
		}
	}
	if l.Cover != nil {
		out.Cover = l.Cover.Visible
		// The contract's cover sizes; another (GitBook's "background") keeps the default, and
		// the page's Git metadata keeps it for export (coverFromFront).
		if l.Cover.Size != "" && contractCoverSize(l.Cover.Size) {
			out.CoverSize = l.Cover.Size
		}
	}
	set(&out.Title, l.Title)
	set(&out.Description, l.Description)
	set(&out.TableOfContents, l.TableOfContents)
	set(&out.Outline, l.Outline)
	set(&out.Pagination, l.Pagination)
	set(&out.Metadata, l.Metadata)
	return out
}

// layoutToFront writes a page's layout as front matter, with the cover settings its Git
// metadata kept (coverFromFront): a size the contract does not know while the layout still
// holds the default it was read as, and the mask.
func layoutToFront(raw *string, kept *coverGitMeta) *gitsync.Layout {
	if raw == nil {
		return nil
	}
	var l model.PageLayout
	if json.Unmarshal([]byte(*raw), &l) != nil {
		return nil
	}
	vis := func(b bool) *gitsync.Visibility { return &gitsync.Visibility{Visible: b} }
	cover := &gitsync.Cover{Visible: l.Cover, Size: l.CoverSize}
	if kept != nil {
		if kept.Size != "" && l.CoverSize == model.DefaultPageLayout().CoverSize {
			cover.Size = kept.Size
		}
		cover.Mask = kept.Mask
	}
	return &gitsync.Layout{Width: l.Width, Cover: cover, Title: vis(l.Title), Description: vis(l.Description),
		TableOfContents: vis(l.TableOfContents), Outline: vis(l.Outline), Pagination: vis(l.Pagination), Metadata: vis(l.Metadata)}
}

// exportSpace writes the space's current content to the repository and records the commit on
// the revision.
func (g *gitRun) exportSpace(ctx context.Context) error {
	view := storage.View{SpaceID: g.space.ID, BaseSeq: g.space.RevisionSeq}
	content, err := g.r.gitContent(ctx, view)
	if err != nil {
		return err
	}
	// Content written before the rule (keepsRootOrder) may hold a page after a group: exporting
	// it would move the page into the group.
	if err := gitsync.CheckOrder(content.Pages); err != nil {
		return err
	}
	if g.setup != nil {
		content.Redirects = g.setup.Redirects
		// The layout the last import read: pages under the root .gitbook.yaml named, the file
		// itself as it was.
		if root, ok := gitsync.CleanPath(g.setup.Root); ok {
			content.Root = root
		}
		if g.setup.Config != "" {
			content.Config = []byte(g.setup.Config)
		}
	}
	gitsync.Assign(content)
	files := gitsync.Write(content)
	author := object.Signature{Name: "Bindery", Email: "bindery@localhost", When: g.r.Now()}
	if g.job.CreatedBy != nil {
		if u, err := g.r.Store.FindUserByID(ctx, *g.job.CreatedBy); err == nil {
			author.Name, author.Email = firstNonEmpty(u.DisplayName, u.Email), u.Email
		}
	}
	base := ""
	if g.setup != nil && g.setup.URL == g.remote.URL && g.setup.Ref == g.req.Ref {
		base = g.setup.Commit
	}
	oid, err := gitsync.Commit(ctx, g.remote, gitsync.Push{
		Ref: g.req.Ref, Dir: g.req.RepoProjectDirectory, Root: content.Root, Files: files, Message: g.req.CommitMessage,
		Author: author, Base: base, Force: g.req.Force,
	}, g.r.GitSync.limits())
	if err != nil {
		return err
	}
	// The job's end, the revision's commit and the space's set-up are one transaction; a run
	// interrupted before it finds the branch already holding this content and records the same.
	setup, revGit := g.newSetup(oid, nil), g.commitGit(oid, g.req.CommitMessage, true)
	rev := g.space.RevisionID
	ev := gitSyncEvent(EventSpaceGitSyncCompleted, g.job)
	ev.RevisionID = rev
	ctx = g.r.emit(ctx, ev, map[string]any{"state": "success", "operation": g.job.Operation, "commitId": oid})
	return g.r.Store.FinishGitSyncJob(ctx, g.job.ID, storage.GitJobOutcome{State: storage.GitJobSucceeded, RevisionID: &rev, CommitOID: &oid, GitSync: &setup, RevisionGit: &revGit}, g.r.Now())
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// gitContent reads a revision's content as Git Sync content: a fixed number of statements, and
// each file's bytes from the blob store.
func (r *App) gitContent(ctx context.Context, view storage.View) (*gitsync.Content, error) {
	rows, err := r.Store.PagesOf(ctx, view)
	if err != nil {
		return nil, err
	}
	bodies, err := markdownByContent(ctx, r.Store, rows, func(v *storage.PageVersion) *string { return v.ContentID })
	if err != nil {
		return nil, err
	}
	byParent := map[string][]*storage.PageVersion{}
	byID := map[string]*storage.PageVersion{}
	for _, v := range rows {
		byParent[deref(v.ParentID)] = append(byParent[deref(v.ParentID)], v)
		byID[v.PageID] = v
	}
	var build func(parent string) []*gitsync.Page
	build = func(parent string) []*gitsync.Page {
		children := byParent[parent]
		sort.SliceStable(children, func(i, j int) bool {
			if children[i].Position != children[j].Position {
				return children[i].Position < children[j].Position
			}
			return children[i].PageID < children[j].PageID
		})
		var out []*gitsync.Page
		for _, v := range children {
			meta := readPageGit(v.Git)
			p := &gitsync.Page{Kind: v.Type, Title: v.Title, Slug: v.Slug, Path: meta.Path, LinkTitle: meta.LinkTitle, FrontText: meta.Front}
			p.Front = gitsync.FrontMatter{Description: deref(v.Description), Icon: deref(v.Icon), Emoji: deref(v.Emoji),
				Hidden: v.Hidden, NoIndex: v.NoIndex, Layout: layoutToFront(v.Layout, meta.Cover)}
			if v.ContentID != nil {
				p.Markdown = bodies[*v.ContentID]
			}
			if v.Type == "link" {
				p.URL = linkURL(v.LinkTarget)
				if p.URL == "" {
					continue // a link to a page is not expressible in SUMMARY.md yet
				}
			}
			p.Pages = build(v.PageID)
			out = append(out, p)
		}
		return out
	}
	content := &gitsync.Content{Pages: build("")}
	files, err := r.Store.FilesOf(ctx, view)
	if err != nil {
		return nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	for _, f := range files {
		data, err := r.readBlob(ctx, f.BlobKey)
		if err != nil {
			return nil, fmt.Errorf("read file %s: %w", f.Name, err)
		}
		gf := &gitsync.File{Name: path.Base(f.Name), Data: data}
		if g := readBlobGit(f.Git); g != nil {
			gf.Path = g.Path
		}
		content.Files = append(content.Files, gf)
	}
	if content.Includes, err = r.gitIncludes(ctx, view); err != nil {
		return nil, err
	}
	return content, nil
}

// gitIncludes reads a view's reusable contents as the files they were imported from.
func (r *App) gitIncludes(ctx context.Context, view storage.View) ([]*gitsync.Include, error) {
	rows, err := r.Store.ReusableContentsOf(ctx, view)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	bodies, err := markdownByContent(ctx, r.Store, rows, func(v *storage.ReusableContentVersion) *string { return v.ContentID })
	if err != nil {
		return nil, err
	}
	out := make([]*gitsync.Include, 0, len(rows))
	for _, v := range rows {
		inc := &gitsync.Include{Title: v.Title, Text: bodies[deref(v.ContentID)]}
		if g := readBlobGit(v.Git); g != nil {
			inc.Path = g.Path
		}
		out = append(out, inc)
	}
	return out, nil
}

// markdownByContent reads the markdown of items' contents by content id: one statement.
func markdownByContent[T any](ctx context.Context, s *storage.Store, items []T, contentID func(T) *string) (map[string]string, error) {
	ids := make([]string, 0, len(items))
	for _, it := range items {
		if id := contentID(it); id != nil {
			ids = append(ids, *id)
		}
	}
	return s.PageMarkdown(ctx, ids)
}

func (r *App) readBlob(ctx context.Context, key string) ([]byte, error) {
	f, err := r.Blobs.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

func linkURL(raw *string) string {
	if raw == nil {
		return ""
	}
	var ref struct{ Kind, URL string }
	if json.Unmarshal([]byte(*raw), &ref) != nil || ref.Kind != "url" {
		return ""
	}
	return ref.URL
}
