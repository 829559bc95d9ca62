// Package blob stores the bytes of uploaded files (images and attachments of documentation pages),
// content-addressed by their SHA-256, in a bucket: a local directory, S3-compatible object storage,
// or memory. The bucket is gocloud.dev/blob's portable type, so its drivers (fileblob, s3blob,
// memblob) are the one interface between Bindery and where the bytes live; everything above it
// (hashing, limits, content types, deduplication) is the same on every driver.
//
// A blob is the object <hh>/<key>, where key is the lowercase hex SHA-256 of its bytes and hh its
// first two characters (in a directory: the file <dir>/<hh>/<key>, the layout Bindery has always
// used). An upload is streamed to a temporary object under tmp/ while being hashed, then moved to
// its key (renamed in a directory, copied server-side in a bucket), so a blob is either absent or
// complete, and identical uploads share one copy. Blobs are never changed, and Bindery never
// deletes one while serving. A Store is safe for concurrent use, by one process or many.
package blob

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	gcblob "gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	"gocloud.dev/blob/memblob"
	"gocloud.dev/blob/s3blob"
	"gocloud.dev/gcerrors"
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
	tempPrefix = "tmp/"   // uploads in progress; a lifecycle rule may expire what a crash left
	headMax    = 64 << 10 // kept in memory while uploading, for sniffing (svgScanMax)
	lockShards = 64
	// cleanupTimeout bounds removing a temporary object after the request that wrote it ended.
	cleanupTimeout = 30 * time.Second
)

// Store is a content-addressed blob store over one bucket.
type Store struct {
	bucket *gcblob.Bucket
	loc    Location
	dir    string // the directory of a local store: Put renames there instead of copying
	// locks serialise the final step of Put with Delete for keys sharing a shard within this
	// process, so that a Put that returns successfully is not undone by a Delete that started
	// before it. (Bindery deletes no blob while serving; Delete is for tools and tests.)
	locks [lockShards]sync.Mutex
}

// Open opens the store at location (see ParseLocation). A local directory is created (mode 0750)
// if it is missing. Opening checks the form of the location; whether a bucket answers is
// Check's to say.
func Open(ctx context.Context, location string) (*Store, error) {
	loc, err := ParseLocation(location)
	if err != nil {
		return nil, err
	}
	switch loc.Scheme {
	case "file":
		return openDir(loc)
	case "mem":
		return &Store{bucket: memblob.OpenBucket(nil), loc: loc}, nil
	}
	// s3: prefix is Bindery's option (a folder of a shared bucket); the rest are s3blob's.
	u := *loc.url
	q := u.Query()
	prefix := q.Get("prefix")
	q.Del("prefix")
	u.RawQuery = q.Encode()
	b, err := (&s3blob.URLOpener{}).OpenBucketURL(ctx, &u)
	if err != nil {
		return nil, fmt.Errorf("blob: open %s: %w", loc, err)
	}
	if prefix != "" {
		b = gcblob.PrefixedBucket(b, prefix)
	}
	return &Store{bucket: b, loc: loc}, nil
}

func openDir(loc Location) (*Store, error) {
	dir, err := filepath.Abs(loc.Dir)
	if err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
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
	// No sidecar attribute files (the database keeps each file's type), and temporary files next
	// to the blobs rather than in $TMPDIR, which may be another file system.
	b, err := fileblob.OpenBucket(dir, &fileblob.Options{NoTempDir: true, Metadata: fileblob.MetadataDontWrite, DirFileMode: dirPerm})
	if err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
	return &Store{bucket: b, loc: loc, dir: dir}, nil
}

// Location is where the store keeps its blobs.
func (s *Store) Location() Location { return s.loc }

// String names the store for logs and messages.
func (s *Store) String() string { return s.loc.String() }

// Check reports whether the bucket can be reached (for S3, a HEAD of the bucket).
func (s *Store) Check(ctx context.Context) error {
	ok, err := s.bucket.IsAccessible(ctx)
	if err != nil {
		return fmt.Errorf("blob: %s: %w", s.loc, err)
	}
	if !ok {
		return fmt.Errorf("blob: %s does not exist or is not accessible", s.loc)
	}
	return nil
}

// Close releases the bucket's resources.
func (s *Store) Close() error { return s.bucket.Close() }

// Put streams r into the store and returns the description of the stored blob. Content longer than
// maxBytes is rejected with ErrTooLarge (a negative maxBytes means no limit). Storing bytes that are
// already present keeps the existing copy and returns the same Key. If ctx is cancelled while r is
// being read, Put stops and returns ctx.Err(). Nothing is left behind when Put fails.
func (s *Store) Put(ctx context.Context, r io.Reader, maxBytes int64) (Info, error) {
	if err := ctx.Err(); err != nil {
		return Info{}, err
	}
	tmp := tempPrefix + tempName()
	info, head, err := s.upload(ctx, tmp, r, maxBytes)
	if err != nil {
		return Info{}, err
	}
	// The temporary object goes whatever happens next (after a rename there is nothing to delete).
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		_ = s.bucket.Delete(cctx, tmp)
	}()
	info.ContentType, info.Width, info.Height = describe(head, int64(len(head)) == info.Size, func() (io.ReadCloser, error) {
		return s.bucket.NewRangeReader(ctx, tmp, int64(len(head)), -1, nil)
	})
	if err := ctx.Err(); err != nil {
		return Info{}, err
	}
	if err := s.commit(ctx, tmp, info.Key); err != nil {
		return Info{}, err
	}
	return info, nil
}

// upload writes r to the temporary object tmp while hashing it, and returns its key, size and
// first bytes. On failure nothing is written.
func (s *Store) upload(ctx context.Context, tmp string, r io.Reader, maxBytes int64) (info Info, head []byte, err error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := s.bucket.NewWriter(wctx, tmp, &gcblob.WriterOptions{ContentType: "application/octet-stream"})
	if err != nil {
		return Info{}, nil, fmt.Errorf("blob: start upload: %w", err)
	}
	abort := func(err error) (Info, []byte, error) {
		cancel() // a writer whose context is cancelled before Close writes nothing
		_ = w.Close()
		return Info{}, nil, err
	}

	src := io.Reader(&ctxReader{ctx: ctx, r: r})
	limited := maxBytes >= 0 && maxBytes < math.MaxInt64
	if limited {
		src = io.LimitReader(src, maxBytes+1)
	}
	h := sha256.New()
	hb := &headBuffer{max: headMax}
	n, err := io.CopyBuffer(io.MultiWriter(w, h, hb), src, make([]byte, 32<<10))
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return abort(ctxErr)
		}
		return abort(fmt.Errorf("blob: write content: %w", err))
	}
	if limited && n > maxBytes {
		return abort(fmt.Errorf("%w (limit %d bytes)", ErrTooLarge, maxBytes))
	}
	if err := w.Close(); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return Info{}, nil, ctxErr
		}
		return Info{}, nil, fmt.Errorf("blob: finish upload: %w", err)
	}
	return Info{Key: hex.EncodeToString(h.Sum(nil)), Size: n}, hb.buf, nil
}

// commit moves the finished temporary object to its key, or leaves it to be dropped when the blob
// already exists (same key, same bytes).
func (s *Store) commit(ctx context.Context, tmp, key string) error {
	mu := s.lock(key)
	mu.Lock()
	defer mu.Unlock()
	exists, err := s.bucket.Exists(ctx, objectKey(key))
	if err != nil {
		return fmt.Errorf("blob: %w", err)
	}
	if exists {
		return nil
	}
	if s.dir != "" {
		// A directory renames: no second write of the bytes.
		from, to := filepath.Join(s.dir, filepath.FromSlash(tmp)), filepath.Join(s.dir, key[:2], key)
		if err := os.MkdirAll(filepath.Dir(to), dirPerm); err != nil {
			return fmt.Errorf("blob: create shard directory: %w", err)
		}
		if err := os.Chmod(from, filePerm); err != nil {
			return fmt.Errorf("blob: %w", err)
		}
		if err := os.Rename(from, to); err != nil {
			return fmt.Errorf("blob: rename into place: %w", err)
		}
		return nil
	}
	if err := s.bucket.Copy(ctx, objectKey(key), tmp, nil); err != nil {
		return fmt.Errorf("blob: copy into place: %w", err)
	}
	return nil
}

// Open returns the stored blob with the given key, opened for reading; the caller closes it.
// A malformed key (anything but 64 lowercase hex characters) or a missing blob gives ErrNotFound;
// any other error is the store's (unreachable, refused).
func (s *Store) Open(ctx context.Context, key string) (*Reader, error) {
	if !ValidKey(key) {
		return nil, ErrNotFound
	}
	r, err := s.bucket.NewReader(ctx, objectKey(key), nil)
	if err != nil {
		if gcerrors.Code(err) == gcerrors.NotFound {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("blob: open %s: %w", key, err)
	}
	return &Reader{r: r}, nil
}

// Has reports whether a blob with that key is stored.
func (s *Store) Has(ctx context.Context, key string) (bool, error) {
	if !ValidKey(key) {
		return false, nil
	}
	ok, err := s.bucket.Exists(ctx, objectKey(key))
	if err != nil {
		return false, fmt.Errorf("blob: %w", err)
	}
	return ok, nil
}

// Delete removes the blob with the given key. Deleting a well-formed key that is not stored is not
// an error; a malformed key gives ErrNotFound. Readers that already opened the blob may keep
// reading it (a directory's do).
func (s *Store) Delete(ctx context.Context, key string) error {
	if !ValidKey(key) {
		return ErrNotFound
	}
	mu := s.lock(key)
	mu.Lock()
	defer mu.Unlock()
	if err := s.bucket.Delete(ctx, objectKey(key)); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return fmt.Errorf("blob: %w", err)
	}
	return nil
}

// Keys calls fn with the key of every stored blob, in no particular order, stopping at fn's first
// error. Temporary objects of uploads in progress are not blobs and are skipped.
func (s *Store) Keys(ctx context.Context, fn func(key string) error) error {
	it := s.bucket.List(nil)
	for {
		obj, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("blob: list: %w", err)
		}
		if key, ok := keyOfObject(obj.Key); ok {
			if err := fn(key); err != nil {
				return err
			}
		}
	}
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

// objectKey is the bucket key of a (validated) blob key.
func objectKey(key string) string { return key[:2] + "/" + key }

// keyOfObject is the blob key of a bucket key, if it names a blob.
func keyOfObject(name string) (string, bool) {
	if len(name) != 3+sha256.Size*2 || name[2] != '/' || !ValidKey(name[3:]) || name[:2] != name[3:5] {
		return "", false
	}
	return name[3:], true
}

// tempName is unique and sorts by time, so that leftovers of crashed uploads are easy to spot.
func tempName() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return strconv.FormatInt(time.Now().UnixNano(), 10) + "-" + hex.EncodeToString(b[:])
}

func (s *Store) lock(key string) *sync.Mutex {
	b, _ := strconv.ParseUint(key[:2], 16, 8)
	return &s.locks[b%lockShards]
}

// Reader reads one blob. It is an io.ReadSeekCloser, so http.ServeContent answers ranges and
// conditional requests from it; a seek re-reads from the store only from the offset asked.
type Reader struct {
	r   *gcblob.Reader
	err error
}

// Read implements io.Reader.
func (r *Reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && r.err == nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
		r.err = err
	}
	return n, err
}

// Seek implements io.Seeker.
func (r *Reader) Seek(offset int64, whence int) (int64, error) { return r.r.Seek(offset, whence) }

// Close implements io.Closer.
func (r *Reader) Close() error { return r.r.Close() }

// Size is the blob's length in bytes.
func (r *Reader) Size() int64 { return r.r.Size() }

// Err is the first error reading failed with, other than the end of the blob and the reader's
// context ending (the client went away): a download cut short by the store, for the log.
func (r *Reader) Err() error { return r.err }

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
