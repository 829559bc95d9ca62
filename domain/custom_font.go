package domain

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/blob"
)

// Custom fonts (docs/sites.md, "Custom fonts"): an organization uploads font files through a
// signed upload URL that this server answers itself (generateStorageUploadURL), then defines a
// font family from them. A site whose customization names the font draws it, served from the
// site's own origin.

const (
	// MaxFontBytes bounds one font file.
	MaxFontBytes = 4 << 20
	// UploadURLLifetime is how long a signed upload URL accepts the file.
	UploadURLLifetime = 15 * time.Minute
	// UploadKindFont is the contract's StorageUploadKind for a custom font's file.
	UploadKindFont = "customization_font"
	maxFontFamily  = 50
	maxFontFaces   = 20 // weights of one font
)

// fontFace is a stored face of a custom font.
type fontFace struct {
	Weight      int    `json:"weight"`
	StorageKey  string `json:"storageKey"`
	BlobKey     string `json:"blobKey"`
	ContentType string `json:"contentType"`
}

var (
	uploadKeyOnce sync.Once
	uploadKey     []byte
)

// uploadSigningKey signs upload URLs: derived from the server's secret key when it has one (so
// that every server of a deployment accepts the URLs the others give), else random per process.
func (r *App) uploadSigningKey() []byte {
	if r.GitSync.SecretKey != "" {
		k := sha256.Sum256([]byte("bindery upload urls\x00" + r.GitSync.SecretKey))
		return k[:]
	}
	uploadKeyOnce.Do(func() {
		uploadKey = make([]byte, 32)
		_, _ = rand.Read(uploadKey)
	})
	return uploadKey
}

func (r *App) signUpload(orgID, key, kind string, size int64, expires string) string {
	m := hmac.New(sha256.New, r.uploadSigningKey())
	fmt.Fprintf(m, "upload\x00%s\x00%s\x00%s\x00%d\x00%s", orgID, key, kind, size, expires)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// GenerateStorageUploadURL gives a signed URL, valid for UploadURLLifetime, that accepts one
// PUT of the described file's bytes, and the key naming the file once uploaded. Site managers
// only (the create role). Errors: Invalid, NotFound, Forbidden.
func (r *App) GenerateStorageUploadURL(ctx context.Context, orgID string, in model.StorageUploadInput) (*model.StorageUploadURL, error) {
	if in.Kind == nil {
		return nil, apperr.Invalidf("kind", "is required")
	}
	if *in.Kind != UploadKindFont {
		return nil, apperr.Invalidf("kind", "must be %s: this server takes uploads for custom fonts only", UploadKindFont)
	}
	if in.File == nil {
		return nil, apperr.Invalidf("file", "is required")
	}
	name := path.Base(strings.ReplaceAll(strings.TrimSpace(in.File.Name), "\\", "/"))
	if name == "" || name == "." || name == "/" || !utf8.ValidString(name) || len(name) > 200 {
		return nil, apperr.Invalidf("file.name", "a file needs a name of 1 to 200 characters")
	}
	if in.File.Size != float64(int64(in.File.Size)) || in.File.Size < 1 || in.File.Size > MaxFontBytes {
		return nil, apperr.Invalidf("file.size", "must be a whole number of bytes, at most %d MiB for a font", MaxFontBytes>>20)
	}
	if _, ok := fontFormats[strings.ToLower(strings.TrimSpace(in.File.Type))]; !ok && in.File.Type != "application/octet-stream" {
		return nil, apperr.Invalidf("file.type", "must be a font type: font/woff2, font/woff, font/ttf or font/otf")
	}
	if _, err := r.siteEditor(ctx, orgID); err != nil {
		return nil, err
	}
	size := int64(in.File.Size)
	key := UploadKindFont + "/" + storage.NewID() + "/" + keySafe(name)
	expires := strconv.FormatInt(r.Now().Add(UploadURLLifetime).Unix(), 10)
	q := url.Values{"kind": {UploadKindFont}, "size": {strconv.FormatInt(size, 10)}, "expires": {expires},
		"signature": {r.signUpload(orgID, key, UploadKindFont, size, expires)}}
	u := r.Settings.PublicURL + "/uploads/" + url.PathEscape(orgID) + "/" + key + "?" + q.Encode()
	return &model.StorageUploadURL{Object: "storage-signed-url", URL: u, Key: key}, nil
}

// fontFormats maps a font file's media type to its CSS format and the contract's FontSource
// format ("" for none).
var fontFormats = map[string]struct{ css, contract, ext string }{
	"font/woff2": {"woff2", "woff2", "woff2"},
	"font/woff":  {"woff", "woff", "woff"},
	"font/ttf":   {"truetype", "", "ttf"},
	"font/otf":   {"opentype", "", "otf"},
}

// sniffFont names a font file's media type by its first bytes: WOFF2, WOFF, TrueType or
// OpenType; "" for anything else.
func sniffFont(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("wOF2")):
		return "font/woff2"
	case bytes.HasPrefix(head, []byte("wOFF")):
		return "font/woff"
	case bytes.HasPrefix(head, []byte{0, 1, 0, 0}), bytes.HasPrefix(head, []byte("true")):
		return "font/ttf"
	case bytes.HasPrefix(head, []byte("OTTO")):
		return "font/otf"
	}
	return ""
}

// ReceiveUpload takes the bytes PUT to a signed upload URL: orgID and key from its path, q its
// query. A URL that is not valid (tampered, expired) is NotFound; bytes that are not a font, or
// more than the size the URL was given for, are Invalid; a key already uploaded is Conflict.
func (r *App) ReceiveUpload(ctx context.Context, orgID, key string, q url.Values, body io.Reader) error {
	size, err := strconv.ParseInt(q.Get("size"), 10, 64)
	expires := q.Get("expires")
	at, err2 := strconv.ParseInt(expires, 10, 64)
	got, err3 := base64.RawURLEncoding.DecodeString(q.Get("signature"))
	want, _ := base64.RawURLEncoding.DecodeString(r.signUpload(orgID, key, q.Get("kind"), size, expires))
	if err != nil || err2 != nil || err3 != nil || r.Now().Unix() > at || !hmac.Equal(got, want) {
		return apperr.NotFoundf("this upload URL is not valid, or has expired: ask for a new one")
	}
	br := bufio.NewReaderSize(body, 64)
	head, _ := br.Peek(4)
	ct := sniffFont(head)
	if ct == "" {
		return apperr.Invalidf("file", "is not a font file: upload a WOFF2, WOFF, TrueType or OpenType font")
	}
	info, err := r.Blobs.Put(ctx, br, size)
	if errors.Is(err, blob.ErrTooLarge) {
		return apperr.Invalidf("file", "is larger than the %d bytes the upload URL was made for", size)
	}
	if err != nil {
		return err
	}
	name := path.Base(key)
	err = r.Store.CreateStorageUpload(ctx, &storage.StorageUpload{StorageKey: key, OrganizationID: orgID, Kind: UploadKindFont,
		Name: name, ContentType: ct, Size: info.Size, BlobKey: info.Key, CreatedAt: r.Now()})
	if errors.Is(err, storage.ErrConflict) {
		return apperr.Conflictf("this upload URL was used already: ask for a new one")
	}
	return err
}

// validFontFamily checks a family name: the contract's 1 to 50 characters, and none that would
// end a CSS string.
func validFontFamily(s string) error {
	n := utf8.RuneCountInString(s)
	if strings.TrimSpace(s) == "" || n > maxFontFamily {
		return apperr.Invalidf("fontFamily", "must be 1 to %d characters", maxFontFamily)
	}
	for _, c := range s {
		if unicode.IsControl(c) || strings.ContainsRune(`"'\;{}<>`, c) {
			return apperr.Invalidf("fontFamily", "may not hold quotes, backslashes, ; { } < > or control characters")
		}
	}
	return nil
}

func (r *App) toCustomFont(f *storage.CustomFont, edit bool) *model.CustomFont {
	var faces []fontFace
	_ = json.Unmarshal([]byte(f.Faces), &faces)
	out := &model.CustomFont{ID: f.ID, Custom: true, FontFamily: f.FontFamily, Permissions: model.CustomFontPermissions{Edit: edit}}
	for _, fc := range faces {
		out.FontFaces = append(out.FontFaces, &model.CustomFontFace{Weight: fc.Weight,
			Sources: []*model.CustomFontSource{fontSource(r.Settings.PublicURL+"/fonts/", f.ID, fc)}})
	}
	return out
}

// fontSource is where a face's file is served, under base.
func fontSource(base, fontID string, fc fontFace) *model.CustomFontSource {
	f := fontFormats[fc.ContentType]
	src := &model.CustomFontSource{URL: base + url.PathEscape(fontID) + "/" + strconv.Itoa(fc.Weight) + "." + f.ext}
	if f.contract != "" {
		src.Format = &f.contract
	}
	return src
}

// CustomFonts lists an organization's fonts by family. Members with a role. Errors: Invalid,
// NotFound, Forbidden.
func (r *App) CustomFonts(ctx context.Context, orgID string, first *int, after *string) (*model.CustomFontConnection, error) {
	org, err := r.siteReader(ctx, orgID)
	if err != nil {
		return nil, err
	}
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	page.NoTotal = !Wants(ctx, WantTotal)
	list, err := r.Store.FindCustomFonts(ctx, org.ID, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, func(f *storage.CustomFont) *model.CustomFont { return r.toCustomFont(f, org.Permissions.CreateContent) }), nil
}

// CustomFont reads one font. Errors: NotFound (also a font of another organization), Forbidden.
func (r *App) CustomFont(ctx context.Context, orgID, fontID string) (*model.CustomFont, error) {
	org, err := r.siteReader(ctx, orgID)
	if err != nil {
		return nil, err
	}
	f, err := r.Store.FindCustomFont(ctx, org.ID, fontID)
	if err != nil {
		return nil, notFound(err, "font")
	}
	return r.toCustomFont(f, org.Permissions.CreateContent), nil
}

// CreateCustomFont defines a font from uploaded files. Errors: Invalid (a missing regular
// weight, a key that names no font uploaded to this organization), NotFound, Forbidden.
func (r *App) CreateCustomFont(ctx context.Context, orgID string, in model.CustomFontInput) (*model.CustomFont, error) {
	if in.FontFamily == nil {
		return nil, apperr.Invalidf("fontFamily", "is required")
	}
	if len(in.FontFaces) == 0 {
		return nil, apperr.Invalidf("fontFaces", "needs at least one face, of weight 400")
	}
	org, err := r.siteEditor(ctx, orgID)
	if err != nil {
		return nil, err
	}
	f := &storage.CustomFont{ID: storage.NewID(), OrganizationID: org.ID, CreatedAt: r.Now()}
	if err := r.fillCustomFont(ctx, f, nil, in); err != nil {
		return nil, err
	}
	if err := r.Store.CreateCustomFont(r.emit(ctx, orgObjectEvent(EventCustomFontCreated, org.ID, "custom-font", f.ID, f.FontFamily), nil), f); err != nil {
		return nil, err
	}
	return r.toCustomFont(f, true), nil
}

// UpdateCustomFont changes a font's family or faces: a face given replaces the face of its
// weight, one whose storageKey is null removes it. Errors: as CreateCustomFont.
func (r *App) UpdateCustomFont(ctx context.Context, orgID, fontID string, in model.CustomFontInput) (*model.CustomFont, error) {
	org, err := r.siteEditor(ctx, orgID)
	if err != nil {
		return nil, err
	}
	f, err := r.Store.FindCustomFont(ctx, org.ID, fontID)
	if err != nil {
		return nil, notFound(err, "font")
	}
	var faces []fontFace
	_ = json.Unmarshal([]byte(f.Faces), &faces)
	if err := r.fillCustomFont(ctx, f, faces, in); err != nil {
		return nil, err
	}
	if err := r.Store.UpdateCustomFont(r.emit(ctx, orgObjectEvent(EventCustomFontUpdated, org.ID, "custom-font", f.ID, f.FontFamily), nil), f); err != nil {
		return nil, notFound(err, "font")
	}
	return r.toCustomFont(f, true), nil
}

// fillCustomFont applies in over a font and its faces, checking the result.
func (r *App) fillCustomFont(ctx context.Context, f *storage.CustomFont, faces []fontFace, in model.CustomFontInput) error {
	if in.FontFamily != nil {
		if err := validFontFamily(*in.FontFamily); err != nil {
			return err
		}
		f.FontFamily = *in.FontFamily
	}
	byWeight := map[int]fontFace{}
	for _, fc := range faces {
		byWeight[fc.Weight] = fc
	}
	var keys []string
	seen := map[int]bool{}
	for i, fc := range in.FontFaces {
		field := fmt.Sprintf("fontFaces[%d]", i)
		if fc == nil {
			return apperr.Invalidf(field, "is required")
		}
		if fc.Weight < 1 || fc.Weight > 1000 {
			return apperr.Invalidf(field+".weight", "must be from 1 to 1000")
		}
		if seen[fc.Weight] {
			return apperr.Invalidf(field+".weight", "weight %d is given twice", fc.Weight)
		}
		seen[fc.Weight] = true
		if fc.StorageKey != nil {
			if *fc.StorageKey == "" || len(*fc.StorageKey) > 512 {
				return apperr.Invalidf(field+".storageKey", "must be 1 to 512 characters")
			}
			keys = append(keys, *fc.StorageKey)
		}
	}
	uploads, err := r.Store.FindStorageUploads(ctx, f.OrganizationID, keys)
	if err != nil {
		return err
	}
	for i, fc := range in.FontFaces {
		if fc.StorageKey == nil {
			delete(byWeight, fc.Weight)
			continue
		}
		u := uploads[*fc.StorageKey]
		if u == nil || u.Kind != UploadKindFont {
			return apperr.Invalidf(fmt.Sprintf("fontFaces[%d].storageKey", i), "no font was uploaded under this key in this organization")
		}
		byWeight[fc.Weight] = fontFace{Weight: fc.Weight, StorageKey: u.StorageKey, BlobKey: u.BlobKey, ContentType: u.ContentType}
	}
	if len(byWeight) > maxFontFaces {
		return apperr.Invalidf("fontFaces", "at most %d weights", maxFontFaces)
	}
	if _, ok := byWeight[400]; !ok {
		return apperr.Invalidf("fontFaces", "a font needs a face of weight 400 (regular)")
	}
	out := make([]fontFace, 0, len(byWeight))
	for _, fc := range byWeight {
		out = append(out, fc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Weight < out[j].Weight })
	raw, _ := json.Marshal(out)
	f.Faces, f.UpdatedAt = string(raw), r.Now()
	return nil
}

// DeleteCustomFont removes a font; it reports whether there was one. Sites that named it draw
// their default font again. Errors: NotFound (the organization), Forbidden.
func (r *App) DeleteCustomFont(ctx context.Context, orgID, fontID string) (bool, error) {
	org, err := r.siteEditor(ctx, orgID)
	if err != nil {
		return false, err
	}
	return r.Store.DeleteCustomFont(r.emit(ctx, orgObjectEvent(EventCustomFontDeleted, org.ID, "custom-font", fontID, ""), nil), org.ID, fontID)
}

// FontFile is a font face's file, as Download: for a font of orgID ("" for any organization:
// the font URLs the API gives are public, as the files of a published site's font are).
// weightFile is "<weight>.<ext>" or "<weight>". Errors: NotFound.
func (r *App) FontFile(ctx context.Context, orgID, fontID, weightFile string) (*Download, error) {
	w, _, _ := strings.Cut(weightFile, ".")
	weight, err := strconv.Atoi(w)
	if err != nil {
		return nil, apperr.NotFoundf("font not found")
	}
	var f *storage.CustomFont
	if orgID == "" {
		f, err = r.Store.FindCustomFontByID(ctx, fontID)
	} else {
		f, err = r.Store.FindCustomFont(ctx, orgID, fontID)
	}
	if err != nil {
		return nil, notFound(err, "font")
	}
	var faces []fontFace
	_ = json.Unmarshal([]byte(f.Faces), &faces)
	for _, fc := range faces {
		if fc.Weight == weight {
			content, err := r.Blobs.Open(ctx, fc.BlobKey)
			if err != nil {
				return nil, translateBlob(err)
			}
			return &Download{Name: strconv.Itoa(weight) + "." + fontFormats[fc.ContentType].ext, ContentType: fc.ContentType, ModTime: f.UpdatedAt, Content: content}, nil
		}
	}
	return nil, apperr.NotFoundf("font not found")
}

// PublishedFontFile is a font file a published site draws: a font of the site's organization.
// Errors: NotFound, Unauthenticated (as the site).
func (r *App) PublishedFontFile(ctx context.Context, name string, visitor *model.SiteVisitorInput, fontID, weightFile string) (*Download, error) {
	ps, err := r.OpenPublishedSite(ctx, name, visitor)
	if err != nil {
		return nil, err
	}
	return r.FontFile(ctx, ps.orgID, fontID, weightFile)
}

// resolveFonts replaces, in a customization the reader draws, a custom font the settings name
// (styling.font, styling.monospaceFont: {"custom": true, "id": …}) by the organization's font
// as it is now, its files served under the site's base URL; a font the organization no longer
// has is left out (the reader draws its default). One statement for all the fonts named.
func (r *App) resolveFonts(ctx context.Context, orgID, base string, docs ...map[string]any) error {
	var ids []string
	for _, d := range docs {
		for _, k := range []string{"font", "monospaceFont"} {
			if id := customFontID(d, k); id != "" {
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		return nil
	}
	fonts, err := r.Store.CustomFontsByID(ctx, orgID, ids)
	if err != nil {
		return err
	}
	for _, d := range docs {
		styling, _ := d["styling"].(map[string]any)
		for _, k := range []string{"font", "monospaceFont"} {
			id := customFontID(d, k)
			if id == "" {
				continue
			}
			f := fonts[id]
			if f == nil {
				delete(styling, k)
				continue
			}
			var faces []fontFace
			_ = json.Unmarshal([]byte(f.Faces), &faces)
			var out []any
			for _, fc := range faces {
				src := fontSource(base+"~font/", f.ID, fc)
				s := map[string]any{"url": src.URL, "cssFormat": fontFormats[fc.ContentType].css}
				out = append(out, map[string]any{"weight": fc.Weight, "sources": []any{s}})
			}
			styling[k] = map[string]any{"id": f.ID, "custom": true, "fontFamily": f.FontFamily, "fontFaces": out}
		}
	}
	return nil
}

// customFontID is the id of the custom font a customization's styling[key] names, or "".
func customFontID(doc map[string]any, key string) string {
	styling, _ := doc["styling"].(map[string]any)
	def, _ := styling[key].(map[string]any)
	if custom, _ := def["custom"].(bool); !custom {
		return ""
	}
	id, _ := def["id"].(string)
	return id
}

// keySafe is a file name as a storage key's last segment: letters, digits, . _ - only.
func keySafe(name string) string {
	out := []rune{}
	for _, c := range name {
		if c < 128 && (unicode.IsLetter(c) || unicode.IsDigit(c) || c == '.' || c == '_' || c == '-') {
			out = append(out, c)
		} else {
			out = append(out, '-')
		}
	}
	return string(out)
}
