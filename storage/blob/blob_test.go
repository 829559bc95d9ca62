package blob

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/storage/blob/blobtest"
)

// drivers are the stores every behaviour is tested on: a directory, memory, and an S3 bucket
// served in process.
var drivers = []struct {
	name string
	open func(t *testing.T) *Store
}{
	{"file", func(t *testing.T) *Store { return mustOpen(t, filepath.Join(t.TempDir(), "blobs")) }},
	{"mem", func(t *testing.T) *Store { return mustOpen(t, "mem://") }},
	{"s3", func(t *testing.T) *Store { return mustOpen(t, blobtest.NewS3(t).Location) }},
}

func mustOpen(t *testing.T, location string) *Store {
	t.Helper()
	s, err := Open(context.Background(), location)
	if err != nil {
		t.Fatalf("Open(%s): %v", location, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// eachDriver runs fn once per driver; newStore opens a fresh, empty store of that driver.
func eachDriver(t *testing.T, fn func(t *testing.T, newStore func(t *testing.T) *Store)) {
	for _, d := range drivers {
		t.Run(d.name, func(t *testing.T) { fn(t, d.open) })
	}
}

func keyOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// files lists everything the store holds, blobs or not (temporary uploads, a driver's own
// temporary files): every regular file under a directory, every object of a bucket.
func files(t *testing.T, s *Store) []string {
	t.Helper()
	var out []string
	if s.dir != "" {
		err := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				rel, _ := filepath.Rel(s.dir, p)
				out = append(out, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatalf("walk: %v", err)
		}
		return out
	}
	it := s.bucket.List(nil)
	for {
		obj, err := it.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("list: %v", err)
		}
		out = append(out, obj.Key)
	}
}

func readBlob(t *testing.T, s *Store, key string) []byte {
	t.Helper()
	f, err := s.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("Open(%s): %v", key, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return b
}

func TestOpenCreatesDirectory(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "a", "b")
	for _, location := range []string{dir, "file://" + filepath.ToSlash(dir)} {
		s, err := Open(ctx, location)
		if err != nil {
			t.Fatalf("Open(%s): %v", location, err)
		}
		fi, err := os.Stat(dir)
		if err != nil {
			t.Fatalf("stat: %v", err)
		}
		if !fi.IsDir() {
			t.Fatalf("%s is not a directory", dir)
		}
		if extra := fi.Mode().Perm() &^ 0o750; extra != 0 {
			t.Errorf("directory mode %v grants more than 0750", fi.Mode().Perm())
		}
		if s.dir != dir || s.String() != dir || !s.Location().Local() {
			t.Errorf("store at %q (%s), want %q", s.dir, s, dir)
		}
		if err := s.Check(ctx); err != nil {
			t.Errorf("Check: %v", err)
		}
	}
	// A path that is a file is refused.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, file); err == nil {
		t.Errorf("Open(file) succeeded")
	}
	if _, err := Open(ctx, ""); err == nil {
		t.Errorf(`Open("") succeeded`)
	}
}

// TestDirectoryLayout: a directory store reads the files directories written before stores were
// buckets (<dir>/<hh>/<key>, no attribute files), and writes the same layout, with no
// sidecar files and nothing in $TMPDIR.
func TestDirectoryLayout(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	old := []byte("written by an older bindery")
	if err := os.MkdirAll(filepath.Join(dir, keyOf(old)[:2]), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, keyOf(old)[:2], keyOf(old)), old, 0o640); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	s := mustOpen(t, dir)
	if got := readBlob(t, s, keyOf(old)); !bytes.Equal(got, old) {
		t.Errorf("old blob = %q", got)
	}
	info, err := s.Put(ctx, strings.NewReader("new"), -1)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	if err := s.Keys(ctx, func(k string) error { keys = append(keys, k); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 {
		t.Errorf("Keys = %v, want the old blob and the new one", keys)
	}
	fi, err := os.Stat(filepath.Join(dir, info.Key[:2], info.Key))
	if err != nil {
		t.Fatalf("new blob not at <dir>/<hh>/<key>: %v", err)
	}
	if extra := fi.Mode().Perm() &^ 0o640; extra != 0 {
		t.Errorf("file mode %v grants more than 0640", fi.Mode().Perm())
	}
	for _, f := range files(t, s) {
		if _, ok := keyOfObject(f); !ok {
			t.Errorf("stray file %s", f)
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("$TMPDIR holds %d entries", len(entries))
	}
}

func TestParseLocation(t *testing.T) {
	tests := []struct {
		in      string
		scheme  string
		dir     string
		wantErr string
	}{
		{in: "bindery-files", scheme: "file", dir: "bindery-files"},
		{in: "/var/lib/bindery/files/", scheme: "file", dir: "/var/lib/bindery/files"},
		{in: "file:///var/lib/bindery/files", scheme: "file", dir: "/var/lib/bindery/files"},
		{in: "file://localhost/srv/files", scheme: "file", dir: "/srv/files"},
		{in: "s3://bucket?region=eu-west-1&endpoint=http://127.0.0.1:9000&use_path_style=true", scheme: "s3"},
		{in: "s3://bucket/?prefix=bindery/", scheme: "s3"},
		{in: "mem://", scheme: "mem"},
		{in: "", wantErr: "no files location"},
		{in: "file://data/files", wantErr: "absolute local path"},
		{in: "file:///srv/files?x=1", wantErr: "no options"},
		{in: "s3://", wantErr: "names a bucket"},
		{in: "s3://bucket/folder", wantErr: "prefix="},
		{in: "s3://key:secret@bucket", wantErr: "no credentials"},
		{in: "gs://bucket", wantErr: "unsupported scheme"},
	}
	for _, tt := range tests {
		loc, err := ParseLocation(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseLocation(%q) = %v, want an error with %q", tt.in, err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Errorf("ParseLocation(%q) error shows the secret: %v", tt.in, err)
			}
			continue
		}
		if err != nil || loc.Scheme != tt.scheme || loc.Dir != tt.dir {
			t.Errorf("ParseLocation(%q) = %+v, %v; want %s %q", tt.in, loc, err, tt.scheme, tt.dir)
		}
	}
	// gocloud refuses options it does not know, when opening.
	if _, err := Open(context.Background(), "s3://bucket?region=x&colour=blue"); err == nil || !strings.Contains(err.Error(), "colour") {
		t.Errorf("unknown S3 option: %v", err)
	}
}

// TestStoreUnreachable: an S3 store that stops answering fails every operation with an error
// that is not ErrNotFound (so that the doors answer 5xx, not 404), and never panics.
func TestStoreUnreachable(t *testing.T) {
	ctx := context.Background()
	srv := blobtest.NewS3(t)
	s := mustOpen(t, srv.Location)
	info, err := s.Put(ctx, strings.NewReader("before the outage"), -1)
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.Objects(t); len(got) != 1 || got[0] != objectKey(info.Key) {
		t.Errorf("bucket holds %v, want only %s", got, objectKey(info.Key))
	}
	srv.Stop()
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := s.Open(tctx, info.Key); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("Open = %v, want a store error", err)
	}
	if _, err := s.Put(tctx, strings.NewReader("during the outage"), -1); err == nil {
		t.Error("Put succeeded")
	}
	if _, err := s.Has(tctx, info.Key); err == nil {
		t.Error("Has succeeded")
	}
	if err := s.Check(tctx); err == nil {
		t.Error("Check succeeded")
	}
}

func TestPutRoundTrip(t *testing.T) {
	eachDriver(t, func(t *testing.T, newStore func(t *testing.T) *Store) {
		big := bytes.Repeat([]byte("0123456789abcdef"), 100_000) // 1.6 MB, several copy buffers
		tests := []struct {
			name    string
			content []byte
			ctype   string
		}{
			{"empty", nil, "text/plain; charset=utf-8"},
			{"text", []byte("hello, bindery\n"), "text/plain; charset=utf-8"},
			{"binary", []byte{0, 1, 2, 3, 0xff, 0xfe}, "application/octet-stream"},
			{"pdf", []byte("%PDF-1.7\n%...\n"), "application/pdf"},
			{"large", big, "text/plain; charset=utf-8"},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				s := newStore(t)
				info, err := s.Put(context.Background(), bytes.NewReader(tc.content), -1)
				if err != nil {
					t.Fatalf("Put: %v", err)
				}
				want := Info{Key: keyOf(tc.content), Size: int64(len(tc.content)), ContentType: tc.ctype}
				if info != want {
					t.Errorf("Put = %+v, want %+v", info, want)
				}
				if got := readBlob(t, s, info.Key); !bytes.Equal(got, tc.content) {
					t.Errorf("content differs: got %d bytes, want %d", len(got), len(tc.content))
				}
				wantFiles := []string{info.Key[:2] + "/" + info.Key}
				if got := files(t, s); strings.Join(got, ",") != strings.Join(wantFiles, ",") {
					t.Errorf("files = %v, want %v", got, wantFiles)
				}
			})
		}
	})
}

func TestPutDedupe(t *testing.T) {
	eachDriver(t, func(t *testing.T, newStore func(t *testing.T) *Store) {
		s := newStore(t)
		content := []byte("the same attachment, uploaded twice")
		first, err := s.Put(context.Background(), bytes.NewReader(content), 1<<20)
		if err != nil {
			t.Fatalf("first Put: %v", err)
		}
		second, err := s.Put(context.Background(), bytes.NewReader(content), 1<<20)
		if err != nil {
			t.Fatalf("second Put: %v", err)
		}
		if first != second {
			t.Errorf("second Put = %+v, want %+v", second, first)
		}
		other, err := s.Put(context.Background(), strings.NewReader("something else"), 1<<20)
		if err != nil {
			t.Fatalf("third Put: %v", err)
		}
		if other.Key == first.Key {
			t.Errorf("different content got the same key")
		}
		if got := files(t, s); len(got) != 2 {
			t.Errorf("files = %v, want 2 blobs", got)
		}
	})
}

func TestPutTooLarge(t *testing.T) {
	eachDriver(t, func(t *testing.T, newStore func(t *testing.T) *Store) {
		tests := []struct {
			name     string
			size     int
			maxBytes int64
			wantErr  error
		}{
			{"empty with zero limit", 0, 0, nil},
			{"one byte over zero limit", 1, 0, ErrTooLarge},
			{"exactly the limit", 1000, 1000, nil},
			{"one byte over", 1001, 1000, ErrTooLarge},
			{"far over", 200_000, 1000, ErrTooLarge},
			{"negative means unlimited", 200_000, -1, nil},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				s := newStore(t)
				content := bytes.Repeat([]byte{'x'}, tc.size)
				info, err := s.Put(context.Background(), bytes.NewReader(content), tc.maxBytes)
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Put error = %v, want %v", err, tc.wantErr)
				}
				got := files(t, s)
				if tc.wantErr != nil {
					if info != (Info{}) {
						t.Errorf("Put returned %+v with an error", info)
					}
					if len(got) != 0 {
						t.Errorf("files left behind: %v", got)
					}
					return
				}
				if info.Size != int64(tc.size) || len(got) != 1 {
					t.Errorf("Put = %+v, files %v; want size %d and one file", info, got, tc.size)
				}
			})
		}
	})
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("connection reset")
	}
	n := min(f.n, len(p))
	f.n -= n
	return n, nil
}

func TestPutFailureLeavesNothing(t *testing.T) {
	eachDriver(t, func(t *testing.T, newStore func(t *testing.T) *Store) {
		cancelled, cancel := context.WithCancel(context.Background())
		cancel()
		tests := []struct {
			name    string
			ctx     context.Context
			r       io.Reader
			wantErr error
		}{
			{"reader error", context.Background(), &failingReader{n: 100_000}, nil},
			{"cancelled context", cancelled, strings.NewReader("data"), context.Canceled},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				s := newStore(t)
				_, err := s.Put(tc.ctx, tc.r, -1)
				if err == nil {
					t.Fatal("Put succeeded")
				}
				if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
					t.Errorf("Put error = %v, want %v", err, tc.wantErr)
				}
				if got := files(t, s); len(got) != 0 {
					t.Errorf("files left behind: %v", got)
				}
			})
		}
	})
}

// cancelAfter cancels its context once n bytes have been read, as a client disconnecting
// mid-upload would.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n -= n
	if c.n <= 0 {
		c.cancel()
	}
	return n, err
}

func TestPutCancelledMidStream(t *testing.T) {
	eachDriver(t, func(t *testing.T, newStore func(t *testing.T) *Store) {
		s := newStore(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		r := &cancelAfter{r: bytes.NewReader(make([]byte, 1<<20)), n: 40_000, cancel: cancel}
		if _, err := s.Put(ctx, r, -1); !errors.Is(err, context.Canceled) {
			t.Fatalf("Put error = %v, want context.Canceled", err)
		}
		if got := files(t, s); len(got) != 0 {
			t.Errorf("files left behind: %v", got)
		}
	})
}

func testImage(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 7), uint8(y * 13), 99, 255})
		}
	}
	return img
}

func encode(t *testing.T, f func(io.Writer, image.Image) error, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := f(&buf, img); err != nil {
		t.Fatalf("encode: %v", err)
	}
	return buf.Bytes()
}

// webpLossless returns the header of a lossless WebP image: enough for DecodeConfig.
func webpLossless(w, h int) []byte {
	bits := uint32(w-1) | uint32(h-1)<<14 | 1<<28 // alpha flag, version 0
	chunk := []byte{0x2f, 0, 0, 0, 0, 0}          // signature, 4 bytes of size, 1 byte padding
	binary.LittleEndian.PutUint32(chunk[1:5], bits)
	var b bytes.Buffer
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, uint32(4+8+len(chunk)))
	b.WriteString("WEBPVP8L")
	_ = binary.Write(&b, binary.LittleEndian, uint32(len(chunk)))
	b.Write(chunk)
	return b.Bytes()
}

func TestPutImageDimensions(t *testing.T) {
	eachDriver(t, func(t *testing.T, newStore func(t *testing.T) *Store) {
		// A JPEG whose frame header comes after more than 512 bytes of metadata.
		jpegWithComment := func(t *testing.T) []byte {
			j := encode(t, func(w io.Writer, m image.Image) error { return jpeg.Encode(w, m, nil) }, testImage(33, 21))
			comment := bytes.Repeat([]byte("c"), 4000)
			seg := append([]byte{0xff, 0xfe, byte((len(comment) + 2) >> 8), byte(len(comment) + 2)}, comment...)
			return append(append(append([]byte{}, j[:2]...), seg...), j[2:]...)
		}
		tests := []struct {
			name          string
			content       func(t *testing.T) []byte
			ctype         string
			width, height int
		}{
			{"png", func(t *testing.T) []byte { return encode(t, png.Encode, testImage(3, 2)) }, "image/png", 3, 2},
			{"jpeg", func(t *testing.T) []byte {
				return encode(t, func(w io.Writer, m image.Image) error { return jpeg.Encode(w, m, &jpeg.Options{Quality: 80}) }, testImage(5, 7))
			}, "image/jpeg", 5, 7},
			{"jpeg with long metadata", jpegWithComment, "image/jpeg", 33, 21},
			{"gif", func(t *testing.T) []byte {
				return encode(t, func(w io.Writer, m image.Image) error { return gif.Encode(w, m, nil) }, testImage(4, 9))
			}, "image/gif", 4, 9},
			{"webp", func(*testing.T) []byte { return webpLossless(640, 480) }, "image/webp", 640, 480},
			{"truncated png", func(t *testing.T) []byte { return encode(t, png.Encode, testImage(3, 2))[:12] }, "image/png", 0, 0},
			{"not an image", func(*testing.T) []byte { return []byte("plain text") }, "text/plain; charset=utf-8", 0, 0},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				s := newStore(t)
				content := tc.content(t)
				info, err := s.Put(context.Background(), bytes.NewReader(content), 10<<20)
				if err != nil {
					t.Fatalf("Put: %v", err)
				}
				want := Info{Key: keyOf(content), Size: int64(len(content)), ContentType: tc.ctype, Width: tc.width, Height: tc.height}
				if info != want {
					t.Errorf("Put = %+v, want %+v", info, want)
				}
			})
		}
	})
}

func TestPutSVG(t *testing.T) {
	eachDriver(t, func(t *testing.T, newStore func(t *testing.T) *Store) {
		const ns = `xmlns="http://www.w3.org/2000/svg"`
		tests := []struct {
			name          string
			doc           string
			ctype         string
			width, height int
		}{
			{"width and height", `<svg ` + ns + ` width="120" height="80"><rect/></svg>`, "image/svg+xml", 120, 80},
			{"px units", `<svg ` + ns + ` width="120px" height=" 80.4px "/>`, "image/svg+xml", 120, 80},
			{"absolute units", `<svg ` + ns + ` width="1in" height="72pt"/>`, "image/svg+xml", 96, 96},
			{"viewBox only", `<svg ` + ns + ` viewBox="0 0 300 150"/>`, "image/svg+xml", 300, 150},
			{"viewBox with commas", `<svg ` + ns + ` viewBox="-10,-10,64,32"/>`, "image/svg+xml", 64, 32},
			{"width and viewBox", `<svg ` + ns + ` width="600" viewBox="0 0 300 150"/>`, "image/svg+xml", 600, 300},
			{"percentages fall back to viewBox", `<svg ` + ns + ` width="100%" height="100%" viewBox="0 0 40 30"/>`, "image/svg+xml", 40, 30},
			{"no size", `<svg ` + ns + `><circle r="4"/></svg>`, "image/svg+xml", 0, 0},
			{"relative size, no viewBox", `<svg ` + ns + ` width="10em" height="5em"/>`, "image/svg+xml", 0, 0},
			{"no namespace", `<svg width="16" height="16"/>`, "image/svg+xml", 16, 16},
			{"prefixed root", `<s:svg xmlns:s="http://www.w3.org/2000/svg" width="7" height="9"/>`, "image/svg+xml", 7, 9},
			{"xml declaration, comment and doctype",
				"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<!-- Generator: Adobe Illustrator -->\n" +
					`<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">` + "\n" +
					`<svg version="1.1" ` + ns + ` xmlns:xlink="http://www.w3.org/1999/xlink" width="24" height="12"/>`,
				"image/svg+xml", 24, 12},
			{"leading comment", `<!-- icon --><svg ` + ns + ` width="5" height="6"/>`, "image/svg+xml", 5, 6},
			{"byte order mark", "\ufeff<svg " + ns + ` width="3" height="4"/>`, "image/svg+xml", 3, 4},
			{"latin-1 declaration", `<?xml version="1.0" encoding="ISO-8859-1"?><svg ` + ns + ` width="8" height="2"/>`, "image/svg+xml", 8, 2},
			{"root after a long comment", "<!--" + strings.Repeat(" ", 2000) + "--><svg " + ns + ` width="11" height="13"/>`, "image/svg+xml", 11, 13},
			{"negative size ignored", `<svg ` + ns + ` width="-5" height="10"/>`, "image/svg+xml", 0, 0},
			{"huge size ignored", `<svg ` + ns + ` width="1e300" height="10"/>`, "image/svg+xml", 0, 0},
			{"other xml root", `<?xml version="1.0"?><note><svg width="1" height="1"/></note>`, "text/xml; charset=utf-8", 0, 0},
			{"svg in another namespace", `<svg xmlns="urn:example" width="1" height="1"/>`, "text/plain; charset=utf-8", 0, 0},
			{"html", `<html><body><svg width="1" height="1"/></body></html>`, "text/html; charset=utf-8", 0, 0},
			{"text mentioning svg", `use <svg width="1"> tags`, "text/plain; charset=utf-8", 0, 0},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				s := newStore(t)
				info, err := s.Put(context.Background(), strings.NewReader(tc.doc), 1<<20)
				if err != nil {
					t.Fatalf("Put: %v", err)
				}
				if info.ContentType != tc.ctype || info.Width != tc.width || info.Height != tc.height {
					t.Errorf("Put = %q %dx%d, want %q %dx%d", info.ContentType, info.Width, info.Height, tc.ctype, tc.width, tc.height)
				}
				if got := readBlob(t, s, info.Key); string(got) != tc.doc {
					t.Errorf("content differs")
				}
			})
		}
	})
}

func TestInvalidKeys(t *testing.T) {
	eachDriver(t, func(t *testing.T, newStore func(t *testing.T) *Store) {
		s := newStore(t)
		info, err := s.Put(context.Background(), strings.NewReader("secret"), -1)
		if err != nil {
			t.Fatal(err)
		}
		// Something outside the store that a traversal might reach.
		if s.dir != "" {
			if err := os.WriteFile(filepath.Join(filepath.Dir(s.dir), "x"), []byte("outside"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		tests := []struct {
			name string
			key  string
		}{
			{"empty", ""},
			{"parent", "../x"},
			{"parent padded to length", "../x" + strings.Repeat("0", 60)},
			{"uppercase", strings.ToUpper(info.Key)},
			{"short", info.Key[:63]},
			{"long", info.Key + "0"},
			{"not hex", strings.Repeat("g", 64)},
			{"with slash", info.Key[:2] + "/" + info.Key[3:]},
			{"shard path", info.Key[:2] + "/" + info.Key},
			{"absolute", "/" + info.Key[1:]},
			{"nul byte", info.Key[:63] + "\x00"},
			{"missing", strings.Repeat("0", 64)},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				f, err := s.Open(context.Background(), tc.key)
				if f != nil {
					f.Close()
				}
				if !errors.Is(err, ErrNotFound) || f != nil {
					t.Errorf("Open(%q) = %v, %v; want nil, ErrNotFound", tc.key, f, err)
				}
			})
		}
		if got := readBlob(t, s, info.Key); string(got) != "secret" {
			t.Errorf("valid key read %q", got)
		}
	})
}

func TestValidKey(t *testing.T) {
	tests := []struct {
		key  string
		want bool
	}{
		{keyOf(nil), true},
		{strings.Repeat("0123456789abcdef", 4), true},
		{strings.Repeat("0123456789ABCDEF", 4), false},
		{strings.Repeat("a", 63), false},
		{strings.Repeat("a", 65), false},
		{"", false},
		{"../" + strings.Repeat("a", 61), false},
	}
	for _, tc := range tests {
		if got := ValidKey(tc.key); got != tc.want {
			t.Errorf("ValidKey(%q) = %v, want %v", tc.key, got, tc.want)
		}
	}
}

func TestConcurrentIdenticalPuts(t *testing.T) {
	eachDriver(t, func(t *testing.T, newStore func(t *testing.T) *Store) {
		s := newStore(t)
		content := bytes.Repeat([]byte("concurrent upload "), 20_000)
		const n = 16
		var (
			wg    sync.WaitGroup
			infos [n]Info
			errs  [n]error
		)
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				infos[i], errs[i] = s.Put(context.Background(), bytes.NewReader(content), 1<<20)
			}()
		}
		close(start)
		wg.Wait()
		for i := range n {
			if errs[i] != nil {
				t.Errorf("Put %d: %v", i, errs[i])
			}
			if infos[i].Key != keyOf(content) || infos[i].Size != int64(len(content)) {
				t.Errorf("Put %d = %+v", i, infos[i])
			}
		}
		if got := files(t, s); len(got) != 1 {
			t.Errorf("files = %v, want exactly one blob", got)
		}
		if got := readBlob(t, s, keyOf(content)); !bytes.Equal(got, content) {
			t.Errorf("stored content differs")
		}
	})
}

func TestConcurrentPutDelete(t *testing.T) {
	eachDriver(t, func(t *testing.T, newStore func(t *testing.T) *Store) {
		s := newStore(t)
		contents := [][]byte{[]byte("a"), []byte("b"), []byte("c"), []byte("d")}
		var wg sync.WaitGroup
		for i := range 32 {
			c := contents[i%len(contents)]
			wg.Add(2)
			go func() {
				defer wg.Done()
				if _, err := s.Put(context.Background(), bytes.NewReader(c), -1); err != nil {
					t.Errorf("Put: %v", err)
				}
			}()
			go func() {
				defer wg.Done()
				if err := s.Delete(context.Background(), keyOf(c)); err != nil {
					t.Errorf("Delete: %v", err)
				}
			}()
		}
		wg.Wait()
		for _, f := range files(t, s) {
			if _, ok := keyOfObject(f); !ok {
				t.Errorf("temp file left behind: %s", f)
			}
		}
	})
}

func TestDelete(t *testing.T) {
	eachDriver(t, func(t *testing.T, newStore func(t *testing.T) *Store) {
		s := newStore(t)
		info, err := s.Put(context.Background(), strings.NewReader("to be deleted"), -1)
		if err != nil {
			t.Fatal(err)
		}
		keep, err := s.Put(context.Background(), strings.NewReader("to be kept"), -1)
		if err != nil {
			t.Fatal(err)
		}
		// An open reader keeps working after Delete.
		open, err := s.Open(context.Background(), info.Key)
		if err != nil {
			t.Fatal(err)
		}
		defer open.Close()

		tests := []struct {
			name    string
			key     string
			wantErr error
		}{
			{"existing", info.Key, nil},
			{"again", info.Key, nil},
			{"never stored", strings.Repeat("ab", 32), nil},
			{"invalid", "../x", ErrNotFound},
			{"uppercase", strings.ToUpper(keep.Key), ErrNotFound},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				if err := s.Delete(context.Background(), tc.key); !errors.Is(err, tc.wantErr) {
					t.Errorf("Delete(%q) = %v, want %v", tc.key, err, tc.wantErr)
				}
			})
		}
		if _, err := s.Open(context.Background(), info.Key); !errors.Is(err, ErrNotFound) {
			t.Errorf("Open after Delete: %v, want ErrNotFound", err)
		}
		if b, err := io.ReadAll(open); err != nil || string(b) != "to be deleted" {
			t.Errorf("reader opened before Delete: %q, %v", b, err)
		}
		if got := readBlob(t, s, keep.Key); string(got) != "to be kept" {
			t.Errorf("other blob: %q", got)
		}
		// Storing the bytes again brings the blob back under the same key.
		again, err := s.Put(context.Background(), strings.NewReader("to be deleted"), -1)
		if err != nil || again.Key != info.Key {
			t.Fatalf("Put after Delete = %+v, %v", again, err)
		}
		if got := readBlob(t, s, info.Key); string(got) != "to be deleted" {
			t.Errorf("re-put content: %q", got)
		}
	})
}
