package domain

import (
	"encoding/json"
	"net/url"
	"path"
	"strings"

	"github.com/bindery/bindery/domain/model"
)

// EditOnGitURL is where a published page's file can be read and edited in the repository its
// space is synced with (docs/sites.md, "Edit on Git"): <repository>/blob/<branch>/<path> on
// GitHub, <repository>/-/blob/<branch>/<path> on GitLab. "" when it cannot be built honestly:
// no Git Sync, a page that came from no file, a repository that is not an https URL of GitHub
// or GitLab (by its provider or its host), or a ref that is not a branch or tag name.
func EditOnGitURL(p *PublishedPage) string {
	if p == nil || p.space == nil || p.space.src == nil || p.space.src.row == nil || p.page == nil {
		return ""
	}
	setup := readSetup(p.space.src.row.GitSync)
	var blob model.GitSyncBlob
	if setup == nil || p.page.Git.IsNull() || json.Unmarshal(p.page.Git, &blob) != nil || blob.Path == "" {
		return ""
	}
	base := setup.ProviderURL
	if base == "" {
		base = setup.URL
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return ""
	}
	u.User = nil
	repo := strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), ".git")
	if strings.Count(strings.Trim(repo, "/"), "/") < 1 {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	provider := model.GitSyncProvider("")
	if setup.Provider != nil {
		provider = *setup.Provider
	}
	var blobPath string
	switch {
	case provider == model.GitSyncProviderGitHub || provider == model.GitSyncProviderGitHubLegacy || host == "github.com":
		blobPath = "/blob/"
	case provider == model.GitSyncProviderGitLab || host == "gitlab.com":
		blobPath = "/-/blob/"
	default:
		return ""
	}
	ref := strings.TrimPrefix(strings.TrimPrefix(setup.Ref, "refs/heads/"), "refs/tags/")
	if ref == "" || strings.HasPrefix(ref, "refs/") || strings.ContainsAny(ref, " ~^:?*[\\") {
		return ""
	}
	file := path.Join(setup.ProjectDirectory, setup.Root, blob.Path)
	if file == "." || strings.HasPrefix(file, "../") || strings.HasPrefix(file, "/") {
		return ""
	}
	var parts []string
	for _, s := range strings.Split(ref+"/"+file, "/") {
		parts = append(parts, url.PathEscape(s))
	}
	return "https://" + u.Host + repo + blobPath + strings.Join(parts, "/")
}
