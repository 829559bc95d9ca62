package domain

import (
	"context"
	"errors"
	"io"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/blob"
	"github.com/bindery/bindery/usercontent"
)

// MaxUploadBytes bounds one uploaded file.
const MaxUploadBytes = 100 << 20

// FileEdit is the answer to a file mutation: the revision it made and the file (nil once
// deleted).
type FileEdit struct {
	Revision *model.Revision
	File     *model.RevisionFile
}

// Upload is a file as a client sent it: its bytes, and the name and media type it declared.
type Upload struct {
	File        io.Reader
	Filename    string
	ContentType string
}

// UploadFile stores an uploaded file's bytes and adds the file to the target's content.
// Errors: Invalid (no name, too large), NotFound, Forbidden, Conflict.
func (r *App) UploadFile(ctx context.Context, target model.ContentTarget, upload Upload, name *string) (*FileEdit, error) {
	fileName := upload.Filename
	if name != nil {
		fileName = *name
	}
	fileName = path.Base(strings.ReplaceAll(strings.TrimSpace(fileName), "\\", "/"))
	if fileName == "" || fileName == "." || fileName == "/" || !utf8.ValidString(fileName) || len(fileName) > 255 {
		return nil, apperr.Invalidf("name", "a file needs a name of 1 to 255 characters")
	}
	if _, _, err := r.editableSpace(ctx, target.SpaceID); err != nil {
		return nil, err // refuse before reading the bytes
	}
	info, err := r.Blobs.Put(ctx, upload.File, MaxUploadBytes)
	if errors.Is(err, blob.ErrTooLarge) {
		return nil, apperr.Invalidf("file", "must be at most %d MiB", MaxUploadBytes>>20)
	}
	if err != nil {
		return nil, err
	}
	// The type detected from the bytes wins; the declared one is kept only for bytes the sniffer
	// cannot name, and only when it is a well-formed media type (it is served under the
	// user-content policy either way: usercontent).
	if info.ContentType == "application/octet-stream" {
		if declared := usercontent.ContentType(upload.ContentType); upload.ContentType != "" {
			info.ContentType = declared
		}
	}
	fileID := storage.NewID()
	v := &storage.FileVersion{FileID: fileID, Name: fileName, ContentType: info.ContentType, Size: info.Size, BlobKey: info.Key}
	if info.Width > 0 {
		v.Width, v.Height = &info.Width, &info.Height
	}
	src, rev, err := r.editContent(ctx, target, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		v.CreatedAt = c.Now
		return &storage.Edit{Files: []*storage.FileVersion{v}}, nil
	})
	if err != nil {
		return nil, err
	}
	f, err := r.File(ctx, src, fileID)
	if err != nil {
		return nil, err
	}
	return &FileEdit{Revision: r.toRevision(rev, src), File: f}, nil
}

// DeleteFile removes a file from the target's content; its bytes stay for older revisions.
// Errors: NotFound, Forbidden, Conflict.
func (r *App) DeleteFile(ctx context.Context, target model.ContentTarget, fileID string) (*FileEdit, error) {
	src, rev, err := r.editContent(ctx, target, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		if _, err := c.File(ctx, fileID); err != nil {
			return nil, apperr.NotFoundf("file not found")
		}
		return &storage.Edit{RemovedFiles: []string{fileID}}, nil
	})
	if err != nil {
		return nil, err
	}
	return &FileEdit{Revision: r.toRevision(rev, src)}, nil
}

// filesURL is the base URL of downloadURL.
func (s Settings) filesURL() string {
	if s.FilesURL != "" {
		return s.FilesURL
	}
	return s.PublicURL
}

// Download is a file's bytes, ready to serve.
type Download struct {
	VersionID   string // the immutable bytes' id, which downloadURL and signed links name
	Name        string
	ContentType string
	ModTime     time.Time
	Content     *blob.Reader // seekable: ranges and conditional requests are served from it
}

// DownloadFile opens the bytes of a file version for a caller who can read its space. The
// version id is what downloadURL carries: it names immutable bytes. Errors: NotFound.
func (r *App) DownloadFile(ctx context.Context, versionID string) (*Download, error) {
	v, err := r.Store.FindFileVersion(ctx, versionID)
	if err != nil {
		return nil, notFound(err, "file")
	}
	if _, _, err := r.readableSpace(ctx, v.SpaceID, false); err != nil {
		return nil, apperr.NotFoundf("file not found")
	}
	return r.openFile(ctx, v)
}

// DownloadSignedFile opens the bytes of a file version for a link whose signature the door has
// verified (usercontent.Origin): the signature is the access check, made by whoever signed the
// link. Errors: NotFound.
func (r *App) DownloadSignedFile(ctx context.Context, versionID string) (*Download, error) {
	v, err := r.Store.FindFileVersion(ctx, versionID)
	if err != nil {
		return nil, notFound(err, "file")
	}
	return r.openFile(ctx, v)
}

func (r *App) openFile(ctx context.Context, v *storage.FileVersion) (*Download, error) {
	f, err := r.Blobs.Open(ctx, v.BlobKey)
	if err != nil {
		return nil, notFound(translateBlob(err), "file")
	}
	return &Download{VersionID: v.ID, Name: v.Name, ContentType: v.ContentType, ModTime: v.CreatedAt, Content: f}, nil
}

// translateBlob makes a missing blob a missing file (404); any other error of the file store
// stays internal (500, logged by the door).
func translateBlob(err error) error {
	if errors.Is(err, blob.ErrNotFound) {
		return storage.ErrNotFound
	}
	return err
}
