package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// Git Sync (space-git): import and export answer 204 at once; the job runs in the background and
// its state shows in git/info (and GraphQL's Space.gitSyncJobs).

func (a *api) gitSyncRoutes() []Route {
	return []Route{
		{"POST", "/spaces/{spaceId}/git/import", a.importGitRepository},
		{"POST", "/spaces/{spaceId}/git/export", a.exportToGitRepository},
		{"GET", "/spaces/{spaceId}/git/info", a.getSpaceGitInfo},
		{"DELETE", "/spaces/{spaceId}/git/legacy-installation", a.deleteLegacyGitInstallation},
	}
}

func (a *api) importGitRepository(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.ImportGitRepositoryInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return noContent(a.res.ImportGitRepository(r.Context(), chi.URLParam(r, "spaceId"), in))
}

func (a *api) exportToGitRepository(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.ExportToGitRepositoryInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return noContent(a.res.ExportToGitRepository(r.Context(), chi.URLParam(r, "spaceId"), in))
}

func (a *api) getSpaceGitInfo(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.SpaceGitInfo(r.Context(), chi.URLParam(r, "spaceId")))
}

func (a *api) deleteLegacyGitInstallation(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return deleted(a.res.DeleteLegacyGitInstallation(r.Context(), chi.URLParam(r, "spaceId")))
}
