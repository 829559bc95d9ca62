package gitsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5/memfs"
	"github.com/go-git/go-billy/v5/util"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Limits bound what one job reads from or writes to a repository.
type Limits struct {
	// RepoBytes bounds the objects fetched (uncompressed) and the files synced, in total.
	RepoBytes int64
	// Files bounds the number of files under the synced root.
	Files int
	// FileBytes bounds one file.
	FileBytes int64
}

// DefaultLimits are the limits a server runs with unless configured otherwise.
var DefaultLimits = Limits{RepoBytes: 256 << 20, Files: 10000, FileBytes: 32 << 20}

// LimitError is a limit a repository exceeded; its message says which.
type LimitError struct{ msg string }

func (e *LimitError) Error() string { return e.msg }

// Snapshot is what a commit holds under the synced root: files by path (relative to the root,
// slash-separated), and the commit.
type Snapshot struct {
	Files map[string]Blob
	// Outside holds, when the project directory is not the whole repository, the markdown files
	// under a .gitbook/includes/ folder outside it, by their path relative to it
	// ("../.gitbook/includes/x.md"): pages may include them (AddOutsideIncludes).
	Outside map[string]Blob
	Commit  string
	Message string
}

// Blob is one file of a snapshot.
type Blob struct {
	OID  string
	Data []byte
}

func auth(r Remote) transport.AuthMethod {
	if !r.HasCredentials() {
		return nil
	}
	return &githttp.BasicAuth{Username: r.Username, Password: r.Password}
}

// limitedStorage is in-memory object storage that refuses to grow past max bytes.
type limitedStorage struct {
	*memory.Storage
	max, used int64
}

func (s *limitedStorage) SetEncodedObject(o plumbing.EncodedObject) (plumbing.Hash, error) {
	s.used += o.Size()
	if s.max > 0 && s.used > s.max {
		return plumbing.ZeroHash, &LimitError{fmt.Sprintf("the repository is larger than the limit of %d MiB", s.max>>20)}
	}
	return s.Storage.SetEncodedObject(o)
}

// Fetch reads the commit at ref and returns the files under dir (the project directory; "" for
// the whole repository). Symbolic links, submodules and paths that leave dir are ignored.
func Fetch(ctx context.Context, r Remote, ref, dir string, lim Limits) (*Snapshot, error) {
	guardTransports()
	st := &limitedStorage{Storage: memory.NewStorage(), max: lim.RepoBytes}
	repo, err := git.CloneContext(ctx, st, nil, &git.CloneOptions{
		URL: r.URL, Auth: auth(r), ReferenceName: plumbing.ReferenceName(ref), SingleBranch: true,
		Depth: 1, Tags: git.NoTags,
	})
	if err != nil {
		return nil, remoteErr(r, "fetch", err)
	}
	head, err := repo.Reference(plumbing.ReferenceName(ref), true)
	if err != nil {
		return nil, fmt.Errorf("ref %s not found", ref)
	}
	commit, err := repo.CommitObject(head.Hash())
	if err != nil {
		return nil, fmt.Errorf("read commit: %w", err)
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, fmt.Errorf("read tree: %w", err)
	}
	snap := &Snapshot{Files: map[string]Blob{}, Commit: commit.Hash.String(), Message: strings.TrimSpace(commit.Message)}
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	var total int64
	err = tree.Files().ForEach(func(f *object.File) error {
		if f.Mode != filemode.Regular && f.Mode != filemode.Executable && f.Mode != filemode.Deprecated {
			return nil // symlinks and submodules are never followed
		}
		outside := !strings.HasPrefix(f.Name, prefix)
		if outside && !outsideInclude(f.Name) {
			return nil
		}
		rel, ok := CleanPath(strings.TrimPrefix(f.Name, prefix))
		if outside {
			rel, ok = relativeTo(dir, f.Name)
		}
		if !ok {
			return nil
		}
		if lim.Files > 0 && len(snap.Files) >= lim.Files {
			return &LimitError{fmt.Sprintf("the repository has more than %d files", lim.Files)}
		}
		if lim.FileBytes > 0 && f.Size > lim.FileBytes {
			return &LimitError{fmt.Sprintf("%s is larger than the limit of %d MiB per file", f.Name, lim.FileBytes>>20)}
		}
		if total += f.Size; lim.RepoBytes > 0 && total > lim.RepoBytes {
			return &LimitError{fmt.Sprintf("the repository is larger than the limit of %d MiB", lim.RepoBytes>>20)}
		}
		rd, err := f.Reader()
		if err != nil {
			return err
		}
		defer rd.Close()
		data, err := io.ReadAll(rd)
		if err != nil {
			return err
		}
		if outside {
			if snap.Outside == nil {
				snap.Outside = map[string]Blob{}
			}
			snap.Outside[rel] = Blob{OID: f.Hash.String(), Data: data}
		} else {
			snap.Files[rel] = Blob{OID: f.Hash.String(), Data: data}
		}
		return ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	return snap, nil
}

// outsideInclude reports whether a repository path is a markdown file under a .gitbook/includes/
// folder, inside the repository.
func outsideInclude(p string) bool {
	c, ok := CleanPath(p)
	return ok && c == p && strings.HasSuffix(strings.ToLower(c), ".md") &&
		(strings.HasPrefix(c, IncludesDir+"/") || strings.Contains(c, "/"+IncludesDir+"/"))
}

// relativeTo is repository path p relative to directory dir ("documentation",
// ".gitbook/includes/x.md" → "../.gitbook/includes/x.md").
func relativeTo(dir, p string) (string, bool) {
	d, f := strings.Split(dir, "/"), strings.Split(p, "/")
	i := 0
	for i < len(d) && i < len(f)-1 && d[i] == f[i] {
		i++
	}
	rel := strings.Repeat("../", len(d)-i) + strings.Join(f[i:], "/")
	return rel, path.Join(dir, rel) == p
}

// CleanPath normalizes a slash-separated relative path and reports whether it stays inside its
// root (no "..", no absolute path, no ".git" component).
func CleanPath(p string) (string, bool) {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.ContainsRune(p, 0) {
		return "", false
	}
	c := path.Clean(p)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	for _, part := range strings.Split(c, "/") {
		if strings.EqualFold(part, ".git") {
			return "", false
		}
	}
	return c, true
}

// Push describes a commit to make and push.
type Push struct {
	Ref string
	Dir string // project directory: only files under it are replaced
	// Root is the folder of Dir that .gitbook.yaml names as the root ("" for Dir itself): when
	// set, only files under it are replaced, and Dir's .gitbook.yaml.
	Root    string
	Files   map[string][]byte // relative to Dir
	Message string
	Author  object.Signature
	// Base is the commit the last sync saw ("" if unknown): without Force, a branch that moved
	// since then is not overwritten.
	Base  string
	Force bool
}

// ErrBranchMoved: the branch has commits the space has not seen.
var ErrBranchMoved = errors.New("the branch has moved since the last sync; import it first, or export with force")

// Commit writes p.Files as the whole content of p.Dir on top of the branch (or as its first
// commit), commits and pushes. It returns the new commit, or the branch head when nothing changed.
func Commit(ctx context.Context, r Remote, p Push, lim Limits) (oid string, err error) {
	guardTransports()
	st := &limitedStorage{Storage: memory.NewStorage(), max: lim.RepoBytes}
	fs := memfs.New()
	ref := plumbing.ReferenceName(p.Ref)
	repo, err := git.CloneContext(ctx, st, fs, &git.CloneOptions{
		URL: r.URL, Auth: auth(r), ReferenceName: ref, SingleBranch: true, Tags: git.NoTags,
	})
	var parent plumbing.Hash
	switch {
	case err == nil:
		head, err := repo.Head()
		if err != nil {
			return "", fmt.Errorf("read branch head: %w", err)
		}
		parent = head.Hash()
	case errors.Is(err, transport.ErrEmptyRemoteRepository) || isRefNotFound(err):
		st = &limitedStorage{Storage: memory.NewStorage(), max: lim.RepoBytes}
		fs = memfs.New()
		if repo, err = git.Init(st, fs); err != nil {
			return "", err
		}
		if _, err := repo.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{r.URL}}); err != nil {
			return "", err
		}
		if err := st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, ref)); err != nil {
			return "", err
		}
	default:
		return "", remoteErr(r, "fetch", err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return "", err
	}
	if err := replaceDir(wt, p.Dir, p.Root, p.Files); err != nil {
		return "", err
	}
	if status, err := wt.Status(); err == nil && status.IsClean() && !parent.IsZero() {
		return parent.String(), nil // the branch already holds exactly this content
	}
	if p.Base != "" && !parent.IsZero() && parent.String() != p.Base && !p.Force {
		return "", ErrBranchMoved
	}
	author := p.Author
	if author.When.IsZero() {
		author.When = time.Now()
	}
	hash, err := wt.Commit(p.Message, &git.CommitOptions{Author: &author, Committer: &author})
	if errors.Is(err, git.ErrEmptyCommit) {
		return parent.String(), nil
	}
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	spec := config.RefSpec(fmt.Sprintf("%s:%s", ref, ref))
	if p.Force {
		spec = "+" + spec
	}
	err = repo.PushContext(ctx, &git.PushOptions{RemoteName: "origin", RefSpecs: []config.RefSpec{spec}, Auth: auth(r)})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		if strings.Contains(err.Error(), "non-fast-forward") {
			return "", ErrBranchMoved
		}
		return "", remoteErr(r, "push", err)
	}
	return hash.String(), nil
}

func isRefNotFound(err error) bool {
	var noMatch git.NoMatchingRefSpecError
	return errors.As(err, &noMatch) || errors.Is(err, plumbing.ErrReferenceNotFound) ||
		strings.Contains(err.Error(), "couldn't find remote ref")
}

// replaceDir makes files the whole content of dir (of its folder sub when set) in the worktree
// and stages the change.
func replaceDir(wt *git.Worktree, dir, sub string, files map[string][]byte) error {
	root := path.Join(dir, sub)
	if root == "" {
		root = "."
	}
	var existing []string
	walk := func(from string, keep func(p string) bool) {
		_ = util.Walk(wt.Filesystem, from, func(p string, info os.FileInfo, err error) error {
			if err != nil {
				return nil
			}
			if info.IsDir() {
				if path.Base(p) == ".git" {
					return filepath.SkipDir
				}
				return nil
			}
			if p = strings.TrimPrefix(p, "/"); keep(p) {
				existing = append(existing, p)
			}
			return nil
		})
	}
	walk(root, func(string) bool { return true })
	if sub != "" {
		// The project directory's own .gitbook/includes/ is the space's too (Read): its markdown
		// files are replaced with the rest, so a reusable content deleted in Bindery leaves it.
		walk(path.Join(dir, IncludesDir), func(p string) bool { return strings.HasSuffix(strings.ToLower(p), ".md") })
	}
	for _, p := range existing {
		if _, err := wt.Remove(p); err != nil {
			_ = wt.Filesystem.Remove(p)
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		full := path.Join(dir, name)
		if strings.HasPrefix(name, "../") && !outsideInclude(full) {
			continue // outside the project directory, only a reusable content read from there
		}
		if sub != "" && name != ".gitbook.yaml" && !strings.HasPrefix(name, sub+"/") && !outsideInclude(full) {
			continue // outside the root, only .gitbook.yaml and reusable content read from there
		}
		if err := util.WriteFile(wt.Filesystem, full, files[name], 0o644); err != nil {
			return err
		}
		if _, err := wt.Add(full); err != nil {
			return fmt.Errorf("stage %s: %w", full, err)
		}
	}
	return nil
}

// remoteErr describes a transport failure without the URL's credentials (the URL handed to
// go-git never has them; the password is scrubbed anyway in case a server echoes it).
func remoteErr(r Remote, op string, err error) error {
	msg := err.Error()
	switch {
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed):
		msg = "authentication failed"
	case errors.Is(err, transport.ErrRepositoryNotFound):
		msg = "repository not found"
	case isRefNotFound(err):
		msg = "branch not found"
	}
	var lim *LimitError
	if errors.As(err, &lim) {
		return lim
	}
	if errors.Is(err, ErrLocalRemote) {
		return ErrLocalRemote
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("%s %s: %s", op, r.URL, Scrub(msg, r))
}

// Scrub removes r's credentials from a message.
func Scrub(msg string, r Remote) string {
	for _, s := range []string{r.Password, r.Username} {
		if len(s) >= 3 {
			msg = strings.ReplaceAll(msg, s, "***")
		}
	}
	return msg
}
