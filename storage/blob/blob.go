// Package blob stores the bytes of uploaded files (images and attachments of documentation pages)
// on the local file system, content-addressed by their SHA-256.
//
// A blob lives at <dir>/<hh>/<key>, where key is the lowercase hex SHA-256 of its bytes and hh
// its first two characters. Uploads are streamed to a temporary file in <dir> while being hashed
// and then renamed into place, so a blob is either absent or complete, and identical uploads share
// one copy. A Store is safe for concurrent use by multiple goroutines.
package blob

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // registers GIF for image.DecodeConfig
	_ "image/jpeg" // registers JPEG for image.DecodeConfig
	_ "image/png"  // registers PNG for image.DecodeConfig
	"io"
	"io/fs"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "golang.org/x/image/webp" // registers WebP for image.DecodeConfig
)

var (
	// ErrTooLarge is returned by Put when the content is longer than its maxBytes.
	ErrTooLarge = errors.New("blob: content too large")
	// ErrNotFound is returned for a key that is malformed or names no stored blob.
	ErrNotFound = errors.New("blob: not found")
)

// Info describes a stored blob.
type Info struct {
	Key         string // lowercase hex SHA-256 of the content
	Size        int64  // bytes
	ContentType string // sniffed MIME type, e.g. "image/png", "image/svg+xml", "text/plain; charset=utf-8"
	Width       int    // pixels; 0 when not an image or unknown
	Height      int    // pixels; 0 when not an image or unknown
}

const (
	dirPerm    = 0o750
	filePerm   = 0o640
	tempPrefix = ".tmp-"
	sniffLen   = 512      // what http.DetectContentType looks at
	svgScanMax = 64 << 10 // how far into an XML document to look for its root element
	maxDim     = 1 << 30  // larger SVG dimensions are treated as unknown
	lockShards = 64

	svgNamespace = "http://www.w3.org/2000/svg"
)

// Store is a content-addressed blob store rooted at one directory.
type Store struct {
	dir string
	// locks serialise the final step of Put (stat/rename) with Delete for keys sharing a shard,
	// so that a Put that returns successfully is not undone by a Delete that started before it.
	locks [lockShards]sync.Mutex
}

// Open returns the Store rooted at dir, creating the directory (mode 0750) if it is missing.
func Open(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("blob: empty directory")
	}
	dir = filepath.Clean(dir)
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return nil, fmt.Errorf("blob: create store directory: %w", err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("blob: %s is not a directory", dir)
	}
	return &Store{dir: dir}, nil
}

// Dir returns the directory the store is rooted at.
func (s *Store) Dir() string { return s.dir }

// Put streams r into the store and returns the description of the stored blob. Content longer than
// maxBytes is rejected with ErrTooLarge (a negative maxBytes means no limit). Storing bytes that are
// already present keeps the existing copy and returns the same Key. If ctx is cancelled while r is
// being read, Put stops and returns ctx.Err(). Nothing is left behind when Put fails.
func (s *Store) Put(ctx context.Context, r io.Reader, maxBytes int64) (info Info, err error) {
	if err := ctx.Err(); err != nil {
		return Info{}, err
	}
	tmp, err := os.CreateTemp(s.dir, tempPrefix+"*")
	if err != nil {
		return Info{}, fmt.Errorf("blob: create temp file: %w", err)
	}
	tmpName := tmp.Name()
	closed := false
	defer func() {
		if !closed {
			_ = tmp.Close()
		}
		if err != nil {
			_ = os.Remove(tmpName)
		}
	}()

	src := io.Reader(&ctxReader{ctx: ctx, r: r})
	limited := maxBytes >= 0 && maxBytes < math.MaxInt64
	if limited {
		src = io.LimitReader(src, maxBytes+1)
	}
	h := sha256.New()
	head := &headBuffer{max: sniffLen}
	n, err := io.CopyBuffer(io.MultiWriter(tmp, h, head), src, make([]byte, 32<<10))
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return Info{}, ctxErr
		}
		return Info{}, fmt.Errorf("blob: write content: %w", err)
	}
	if limited && n > maxBytes {
		return Info{}, fmt.Errorf("%w (limit %d bytes)", ErrTooLarge, maxBytes)
	}

	info = Info{Key: hex.EncodeToString(h.Sum(nil)), Size: n}
	info.ContentType, info.Width, info.Height = describe(tmp, head.buf)

	if err = tmp.Chmod(filePerm); err != nil {
		return Info{}, fmt.Errorf("blob: %w", err)
	}
	if err = tmp.Sync(); err != nil {
		return Info{}, fmt.Errorf("blob: sync temp file: %w", err)
	}
	closed = true
	if err = tmp.Close(); err != nil {
		return Info{}, fmt.Errorf("blob: close temp file: %w", err)
	}
	if err = ctx.Err(); err != nil {
		return Info{}, err
	}
	if err = s.commit(tmpName, info.Key); err != nil {
		return Info{}, err
	}
	return info, nil
}

// commit moves the finished temp file to its final name, or drops it when the blob already exists.
func (s *Store) commit(tmpName, key string) error {
	final := s.path(key)
	mu := s.lock(key)
	mu.Lock()
	defer mu.Unlock()

	if fi, err := os.Stat(final); err == nil && fi.Mode().IsRegular() {
		// Same bytes already stored: keep that copy, and refresh its mtime so that a collector
		// working from modification times sees it as recently used.
		now := time.Now()
		_ = os.Chtimes(final, now, now)
		return os.Remove(tmpName)
	}
	if err := os.MkdirAll(filepath.Dir(final), dirPerm); err != nil {
		return fmt.Errorf("blob: create shard directory: %w", err)
	}
	if err := os.Rename(tmpName, final); err != nil {
		// Another process may have stored the same bytes in the meantime (and some platforms
		// refuse to replace an open file); an existing blob with this key is equally good.
		if fi, statErr := os.Stat(final); statErr == nil && fi.Mode().IsRegular() {
			return os.Remove(tmpName)
		}
		return fmt.Errorf("blob: rename into place: %w", err)
	}
	return nil
}

// Open returns the stored blob with the given key, opened for reading; the caller closes it.
// A malformed key (anything but 64 lowercase hex characters) or a missing blob gives ErrNotFound.
func (s *Store) Open(key string) (*os.File, error) {
	if !ValidKey(key) {
		return nil, ErrNotFound
	}
	f, err := os.Open(s.path(key))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("blob: %w", err)
	}
	return f, nil
}

// Delete removes the blob with the given key. Deleting a well-formed key that is not stored is not
// an error; a malformed key gives ErrNotFound. Readers that already opened the blob keep reading it.
func (s *Store) Delete(key string) error {
	if !ValidKey(key) {
		return ErrNotFound
	}
	mu := s.lock(key)
	mu.Lock()
	defer mu.Unlock()
	if err := os.Remove(s.path(key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blob: %w", err)
	}
	return nil
}

// ValidKey reports whether key is well formed: exactly 64 lowercase hexadecimal characters.
func ValidKey(key string) bool {
	if len(key) != sha256.Size*2 {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// path is the file name of a (validated) key.
func (s *Store) path(key string) string {
	return filepath.Join(s.dir, key[:2], key)
}

func (s *Store) lock(key string) *sync.Mutex {
	b, _ := strconv.ParseUint(key[:2], 16, 8)
	return &s.locks[b%lockShards]
}

// describe sniffs the content type of the file whose first bytes are head and, for images, reads
// their dimensions. It reads f from the start; errors just leave the dimensions at 0.
func describe(f *os.File, head []byte) (contentType string, width, height int) {
	contentType = http.DetectContentType(head)
	base, _, _ := strings.Cut(contentType, ";")
	switch base {
	case "text/xml", "text/plain", "text/html":
		// An SVG document sniffs as one of these, depending on what precedes its root element.
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return contentType, 0, 0
		}
		if ok, w, h := sniffSVG(io.LimitReader(f, svgScanMax)); ok {
			return "image/svg+xml", w, h
		}
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return contentType, 0, 0
		}
		if cfg, _, err := image.DecodeConfig(bufio.NewReader(f)); err == nil && cfg.Width > 0 && cfg.Height > 0 {
			return contentType, cfg.Width, cfg.Height
		}
	}
	return contentType, 0, 0
}

// sniffSVG reports whether r holds an XML document whose root element is <svg>, and the size given
// by that element's width and height attributes, or its viewBox (0 when neither says).
func sniffSVG(r io.Reader) (ok bool, width, height int) {
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		_, _ = br.Discard(3)
	}
	d := xml.NewDecoder(br)
	d.Strict = false
	// Only the ASCII attribute names and values of the root element matter, so any declared
	// single-byte-compatible encoding can be read as is.
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	for {
		tok, err := d.Token()
		if err != nil {
			return false, 0, 0
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != "svg" || (t.Name.Space != "" && t.Name.Space != svgNamespace) {
				return false, 0, 0
			}
			w, h := svgSize(t.Attr)
			return true, w, h
		case xml.CharData:
			if len(bytes.TrimSpace(t)) != 0 {
				return false, 0, 0 // text before the root element: not an XML document
			}
		}
	}
}

// svgSize works out an SVG's intrinsic size in CSS pixels from its root element's attributes.
func svgSize(attrs []xml.Attr) (width, height int) {
	var (
		w, h     float64
		wOK, hOK bool
		vbW, vbH float64
		vbOK     bool
	)
	for _, a := range attrs {
		if a.Name.Space != "" {
			continue
		}
		switch a.Name.Local {
		case "width":
			w, wOK = svgLength(a.Value)
		case "height":
			h, hOK = svgLength(a.Value)
		case "viewBox":
			vbW, vbH, vbOK = viewBox(a.Value)
		}
	}
	switch {
	case wOK && hOK:
	case wOK && vbOK:
		h, hOK = w*vbH/vbW, true
	case hOK && vbOK:
		w, wOK = h*vbW/vbH, true
	case vbOK:
		w, h, wOK, hOK = vbW, vbH, true, true
	}
	if !wOK || !hOK {
		return 0, 0
	}
	width, height = pixels(w), pixels(h)
	if width == 0 || height == 0 {
		return 0, 0
	}
	return width, height
}

// svgLength parses an absolute SVG length ("120", "120px", "1.5in", ...) into CSS pixels.
// Relative lengths (%, em, ...) are not known without a viewport and give ok == false.
func svgLength(s string) (px float64, ok bool) {
	s = strings.TrimSpace(s)
	units := map[string]float64{"": 1, "px": 1, "in": 96, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 96.0 / 72, "pc": 16}
	num := strings.TrimRightFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' })
	scale, known := units[strings.ToLower(s[len(num):])]
	if !known {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return 0, false
	}
	return v * scale, true
}

// viewBox parses "min-x min-y width height" (separated by whitespace and/or commas).
func viewBox(s string) (width, height float64, ok bool) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	if len(f) != 4 {
		return 0, 0, false
	}
	var v [4]float64
	for i, x := range f {
		n, err := strconv.ParseFloat(x, 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return 0, 0, false
		}
		v[i] = n
	}
	if v[2] <= 0 || v[3] <= 0 {
		return 0, 0, false
	}
	return v[2], v[3], true
}

func pixels(v float64) int {
	r := math.Round(v)
	if r < 1 || r > maxDim {
		return 0
	}
	return int(r)
}

// ctxReader stops reading once its context is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// headBuffer keeps the first max bytes written to it.
type headBuffer struct {
	buf []byte
	max int
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - len(h.buf); room > 0 {
		h.buf = append(h.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
