package model

import (
	"encoding/json"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
)

// GitInfoInput is the provider details an import or export may carry (UpdateSpaceGitInfo).
type GitInfoInput struct {
	Provider *GitSyncProvider `json:"provider,omitempty"`
	URL      *string          `json:"url,omitempty"`
}

// ImportGitRepositoryInput is the body of POST /spaces/{id}/git/import.
type ImportGitRepositoryInput struct {
	URL                  string        `json:"url"`
	Ref                  string        `json:"ref"`
	RepoCacheID          *string       `json:"repoCacheID,omitempty"`
	RepoTreeURL          *string       `json:"repoTreeURL,omitempty"`
	RepoCommitURL        *string       `json:"repoCommitURL,omitempty"`
	RepoProjectDirectory *string       `json:"repoProjectDirectory,omitempty"`
	Timestamp            *time.Time    `json:"timestamp,omitempty"`
	Force                *bool         `json:"force,omitempty"`
	Standalone           *bool         `json:"standalone,omitempty"`
	GitInfo              *GitInfoInput `json:"gitInfo,omitempty"`
}

// ExportToGitRepositoryInput is the body of POST /spaces/{id}/git/export.
type ExportToGitRepositoryInput struct {
	URL                  string        `json:"url"`
	Ref                  string        `json:"ref"`
	CommitMessage        string        `json:"commitMessage"`
	RepoCacheID          *string       `json:"repoCacheID,omitempty"`
	RepoTreeURL          *string       `json:"repoTreeURL,omitempty"`
	RepoCommitURL        *string       `json:"repoCommitURL,omitempty"`
	RepoProjectDirectory *string       `json:"repoProjectDirectory,omitempty"`
	Timestamp            *time.Time    `json:"timestamp,omitempty"`
	Force                *bool         `json:"force,omitempty"`
	GitInfo              *GitInfoInput `json:"gitInfo,omitempty"`
}

// GitSyncRequest is what an import or export asked for, credentials removed: kept with the job.
type GitSyncRequest struct {
	URL                  string        `json:"url"`
	Ref                  string        `json:"ref"`
	CommitMessage        string        `json:"commitMessage,omitempty"`
	RepoTreeURL          string        `json:"repoTreeURL,omitempty"`
	RepoCommitURL        string        `json:"repoCommitURL,omitempty"`
	RepoProjectDirectory string        `json:"repoProjectDirectory,omitempty"`
	Timestamp            *time.Time    `json:"timestamp,omitempty"`
	Force                bool          `json:"force,omitempty"`
	Standalone           bool          `json:"standalone,omitempty"`
	GitInfo              *GitInfoInput `json:"gitInfo,omitempty"`
}

// maxGitField bounds the free-text fields of a sync request.
const maxGitField = 2048

// Validate checks an import request. Errors: Invalid naming the field.
func (in *ImportGitRepositoryInput) Validate() error {
	return validateGitRequest(in.URL, in.Ref, in.RepoProjectDirectory, in.RepoTreeURL, in.RepoCommitURL, in.GitInfo)
}

// Validate checks an export request. Errors: Invalid naming the field.
func (in *ExportToGitRepositoryInput) Validate() error {
	if err := validateGitRequest(in.URL, in.Ref, in.RepoProjectDirectory, in.RepoTreeURL, in.RepoCommitURL, in.GitInfo); err != nil {
		return err
	}
	if strings.TrimSpace(in.CommitMessage) == "" {
		return apperr.Invalidf("commitMessage", "is required")
	}
	if len(in.CommitMessage) > 64<<10 {
		return apperr.Invalidf("commitMessage", "must be at most 64 KiB")
	}
	return nil
}

func validateGitRequest(url, ref string, dir, treeURL, commitURL *string, info *GitInfoInput) error {
	if strings.TrimSpace(url) == "" {
		return apperr.Invalidf("url", "is required")
	}
	if len(url) > maxGitField {
		return apperr.Invalidf("url", "must be at most %d characters", maxGitField)
	}
	if strings.TrimSpace(ref) == "" {
		return apperr.Invalidf("ref", "is required")
	}
	branch, ok := strings.CutPrefix(ref, "refs/heads/")
	if !ok || !validBranch(branch) {
		return apperr.Invalidf("ref", "must be of the form refs/heads/<branch>")
	}
	for field, v := range map[string]*string{"repoTreeURL": treeURL, "repoCommitURL": commitURL, "repoProjectDirectory": dir} {
		if v != nil && len(*v) > maxGitField {
			return apperr.Invalidf(field, "must be at most %d characters", maxGitField)
		}
	}
	if info != nil && info.Provider != nil && *info.Provider != GitSyncProviderGitHub && *info.Provider != GitSyncProviderGitLab {
		return apperr.Invalidf("gitInfo.provider", `must be "github" or "gitlab"`)
	}
	return nil
}

// validBranch follows git check-ref-format for a branch name, roughly.
func validBranch(b string) bool {
	if b == "" || len(b) > 255 || strings.HasPrefix(b, "/") || strings.HasSuffix(b, "/") || strings.HasSuffix(b, ".lock") ||
		strings.HasSuffix(b, ".") || strings.Contains(b, "..") || strings.Contains(b, "//") || strings.Contains(b, "@{") {
		return false
	}
	for _, r := range b {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			return false
		}
	}
	return true
}

// GitSyncProvider is a Git hosting provider.
type GitSyncProvider string

// Providers.
const (
	GitSyncProviderGitHub       GitSyncProvider = "github"
	GitSyncProviderGitLab       GitSyncProvider = "gitlab"
	GitSyncProviderGitHubLegacy GitSyncProvider = "github-legacy"
)

var gitSyncProviders = []GitSyncProvider{GitSyncProviderGitHub, GitSyncProviderGitLab, GitSyncProviderGitHubLegacy}

func (e GitSyncProvider) IsValid() bool             { return slices.Contains(gitSyncProviders, e) }
func (e GitSyncProvider) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *GitSyncProvider) UnmarshalGQL(v any) error { return unmarshalEnum(v, gitSyncProviders, e) }

// GitSyncState is a space's sync set-up (the contract's GitSyncState), with what Bindery adds:
// the ref, the project directory, the last commit synced and the last job.
type GitSyncState struct {
	RepoName             *string          `json:"repoName,omitempty"`
	InstallationProvider *GitSyncProvider `json:"installationProvider,omitempty"`
	Integration          *string          `json:"integration,omitempty"`
	URL                  *string          `json:"url,omitempty"`
	UpdatedAt            *time.Time       `json:"updatedAt,omitempty"`
	Ref                  *string          `json:"ref,omitempty"`
	ProjectDirectory     *string          `json:"projectDirectory,omitempty"`
	Commit               *string          `json:"commit,omitempty"`
	LastJob              *GitSyncJob      `json:"lastJob,omitempty"`
}

// GitSyncJobState is where an import or export stands.
type GitSyncJobState string

// Job states.
const (
	GitSyncJobQueued    GitSyncJobState = "queued"
	GitSyncJobRunning   GitSyncJobState = "running"
	GitSyncJobSucceeded GitSyncJobState = "succeeded"
	GitSyncJobFailed    GitSyncJobState = "failed"
	GitSyncJobSkipped   GitSyncJobState = "skipped"
)

var gitSyncJobStates = []GitSyncJobState{GitSyncJobQueued, GitSyncJobRunning, GitSyncJobSucceeded, GitSyncJobFailed, GitSyncJobSkipped}

func (e GitSyncJobState) IsValid() bool             { return slices.Contains(gitSyncJobStates, e) }
func (e GitSyncJobState) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *GitSyncJobState) UnmarshalGQL(v any) error { return unmarshalEnum(v, gitSyncJobStates, e) }

// GitSyncOperation is what a job does.
type GitSyncOperation string

// Operations.
const (
	GitSyncImport GitSyncOperation = "import"
	GitSyncExport GitSyncOperation = "export"
)

var gitSyncOperations = []GitSyncOperation{GitSyncImport, GitSyncExport}

func (e GitSyncOperation) IsValid() bool             { return slices.Contains(gitSyncOperations, e) }
func (e GitSyncOperation) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *GitSyncOperation) UnmarshalGQL(v any) error { return unmarshalEnum(v, gitSyncOperations, e) }

// GitSyncJob is one import or export and how it went.
type GitSyncJob struct {
	ID            string           `json:"id"`
	Operation     GitSyncOperation `json:"operation"`
	State         GitSyncJobState  `json:"state"`
	Error         *string          `json:"error,omitempty"`
	URL           string           `json:"url"`
	Ref           string           `json:"ref"`
	CommitMessage *string          `json:"commitMessage,omitempty"`
	Timestamp     time.Time        `json:"timestamp"`
	Force         bool             `json:"force"`
	Standalone    bool             `json:"standalone"`
	RevisionID    *string          `json:"revision,omitempty"`
	Commit        *string          `json:"commit,omitempty"`
	CreatedAt     time.Time        `json:"createdAt"`
	StartedAt     *time.Time       `json:"startedAt,omitempty"`
	FinishedAt    *time.Time       `json:"finishedAt,omitempty"`
}

// GitSyncJobConnection pages through a space's jobs.
type (
	GitSyncJobConnection = Connection[*GitSyncJob]
	GitSyncJobEdge       = Edge[*GitSyncJob]
)

// GitSyncCommit is the commit a revision came from or went to. createdByService is
// API-SPEC.txt's name and createdByGitBook the public spec's: both are written.
type GitSyncCommit struct {
	Oid              string  `json:"oid"`
	Message          string  `json:"message"`
	CreatedByService bool    `json:"createdByService"`
	URL              *string `json:"url,omitempty"`
	Ref              *string `json:"ref,omitempty"`
}

// MarshalJSON writes both names of the "made by an export" flag.
func (c GitSyncCommit) MarshalJSON() ([]byte, error) {
	type plain GitSyncCommit
	return json.Marshal(struct {
		plain
		CreatedByGitBook bool `json:"createdByGitBook"`
	}{plain(c), c.CreatedByService})
}

// CreatedByGitBook is the public spec's name of CreatedByService.
func (c GitSyncCommit) CreatedByGitBook() bool { return c.CreatedByService }

// GitSyncBlob is the Git blob a page or file came from.
type GitSyncBlob struct {
	Oid  string `json:"oid"`
	Path string `json:"path"`
}
