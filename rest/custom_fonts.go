package rest

import (
	"log/slog"
	"net/http"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// The contract's custom fonts and the signed upload URL their files go through (docs/sites.md,
// "Custom fonts").
func (a *api) customFontRoutes() []Route {
	return []Route{
		{"POST", "/orgs/{organizationId}/storage/upload", a.generateStorageUploadURL},
		{"GET", "/orgs/{organizationId}/fonts", a.listCustomFonts},
		{"PUT", "/orgs/{organizationId}/fonts", a.createCustomFont},
		{"GET", "/orgs/{organizationId}/fonts/{fontId}", a.getCustomFont},
		{"POST", "/orgs/{organizationId}/fonts/{fontId}", a.updateCustomFont},
		{"DELETE", "/orgs/{organizationId}/fonts/{fontId}", a.deleteCustomFont},
	}
}

func (a *api) generateStorageUploadURL(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.StorageUploadInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	u, err := a.res.GenerateStorageUploadURL(r.Context(), chi.URLParam(r, "organizationId"), in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, u, nil
}

func (a *api) listCustomFonts(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, func(r *http.Request) (string, error) { return chi.URLParam(r, "organizationId"), nil },
		func(orgID string, first *int, after *string) (*model.CustomFontConnection, error) {
			return a.res.CustomFonts(r.Context(), orgID, first, after)
		})
}

// preconditionFailed answers an invalid font as the contract's font operations do: 412.
func preconditionFailed(status int, body any, err error) (int, any, error) {
	if apperr.KindOf(err) == apperr.Invalid {
		return http.StatusPreconditionFailed, errorBodyOf(http.StatusPreconditionFailed, apperr.Message(err)), nil
	}
	return status, body, err
}

func (a *api) createCustomFont(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CustomFontInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	f, err := a.res.CreateCustomFont(r.Context(), chi.URLParam(r, "organizationId"), in)
	if err != nil {
		return preconditionFailed(0, nil, err)
	}
	return http.StatusCreated, f, nil
}

func (a *api) getCustomFont(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.CustomFont(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "fontId")))
}

func (a *api) updateCustomFont(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CustomFontInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	f, err := a.res.UpdateCustomFont(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "fontId"), in)
	if err != nil {
		return preconditionFailed(0, nil, err)
	}
	// The contract answers an update with 201 and the font.
	return http.StatusCreated, f, nil
}

func (a *api) deleteCustomFont(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return deleted(a.res.DeleteCustomFont(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "fontId")))
}

// receiveUpload takes the bytes PUT to a signed upload URL (generateStorageUploadURL): the
// signature is the proof of access, no token is needed.
func receiveUpload(res *domain.App) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, domain.MaxFontBytes+1)
		if err := res.ReceiveUpload(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "*"), r.URL.Query(), r.Body); err != nil {
			writeError(w, r, err)
			return
		}
		w.WriteHeader(http.StatusOK)
	}
}

// serveFont serves a custom font's file at the URL the API gives (FontSource.url). Fonts are
// public, as the files of a published site's fonts are; their ids are not guessable.
func serveFont(res *domain.App) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		d, err := res.FontFile(r.Context(), "", chi.URLParam(r, "fontId"), chi.URLParam(r, "file"))
		if err != nil {
			writeError(w, r, err)
			return
		}
		defer d.Content.Close()
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Header().Set("Content-Type", d.ContentType)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Access-Control-Allow-Origin", "*") // fonts load cross-origin only with it
		http.ServeContent(w, r, d.Name, d.ModTime, d.Content)
		if err := d.Content.Err(); err != nil {
			slog.ErrorContext(r.Context(), "font download cut short by the file store", "path", r.URL.Path, "err", err)
		}
	}
}
