package rest_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bindery/bindery/storage/blob"
	"github.com/bindery/bindery/storage/blob/blobtest"
	"github.com/google/go-cmp/cmp"
)

// TestFilesInS3: with the file store in an S3 bucket (an S3-compatible server in the test
// process, reached through the real S3 client), a file uploaded through GraphQL is read back
// through REST, GraphQL and the published site, with ranges and conditional requests; its bytes
// are in the bucket and nowhere on local disk. A blob missing from the bucket is a 404 and a
// bucket that stops answering a logged 500, through every door.
func TestFilesInS3(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		localDir := e.res.Blobs.Location().Dir // the harness's directory store (if any), which must stay empty
		s3 := blobtest.NewS3(t)
		blobs, err := blob.Open(ctx, s3.Location)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { blobs.Close() })
		e.res.Blobs = blobs

		org, admin := e.org("Buckets", "admin@buckets.test")
		space := e.call(admin.Token, "POST", "/orgs/"+org+"/spaces", `{"title":"Guide"}`).want(http.StatusCreated).object()["id"].(string)
		img := tinyPNG(t)
		var up struct{ UploadFile struct{ File ctFile } }
		e.upload(admin.Token, target(space, ""), "cat.png", img).ok(&up)
		file := up.UploadFile.File
		if file.ContentType != "image/png" || file.Size != len(img) || file.Dimensions == nil || file.Dimensions.Width != 4 || file.Dimensions.Height != 3 {
			t.Fatalf("uploaded file = %+v", file)
		}
		sum := sha256.Sum256(img)
		key := hex.EncodeToString(sum[:])
		if got, want := s3.Objects(t), []string{key[:2] + "/" + key}; !cmp.Equal(got, want) {
			t.Errorf("bucket holds %v, want %v (the blob, no temporary upload)", got, want)
		}

		// REST: the file's description, then its bytes at downloadURL.
		var rf ctFile
		e.call(admin.Token, "GET", "/spaces/"+space+"/content/files/"+file.ID, nil).want(http.StatusOK).decode(&rf)
		if !cmp.Equal(rf, file) {
			t.Errorf("REST file = %+v, want %+v", rf, file)
		}
		download := func(token, rawURL string, headers ...string) *httptest.ResponseRecorder {
			t.Helper()
			u, err := url.Parse(rawURL)
			if err != nil {
				t.Fatal(err)
			}
			req := httptest.NewRequest("GET", u.Path, nil)
			for i := 0; i+1 < len(headers); i += 2 {
				req.Header.Set(headers[i], headers[i+1])
			}
			_, rec := e.serve(req, token, nil)
			return rec
		}
		rec := download(admin.Token, file.DownloadURL)
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), img) || rec.Header().Get("Content-Type") != "image/png" {
			t.Fatalf("download = %d %q, %d bytes", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Len())
		}
		lastModified := rec.Header().Get("Last-Modified")
		if lastModified == "" || rec.Header().Get("Accept-Ranges") != "bytes" {
			t.Errorf("download headers = %v", rec.Header())
		}
		// Ranges are read from the bucket from the offset asked; conditional requests answer 304.
		rec = download(admin.Token, file.DownloadURL, "Range", "bytes=1-3")
		if rec.Code != http.StatusPartialContent || !bytes.Equal(rec.Body.Bytes(), img[1:4]) ||
			rec.Header().Get("Content-Range") != fmt.Sprintf("bytes 1-3/%d", len(img)) {
			t.Errorf("range = %d %q %q", rec.Code, rec.Header().Get("Content-Range"), rec.Body.Bytes())
		}
		rec = download(admin.Token, file.DownloadURL, "Range", fmt.Sprintf("bytes=%d-", len(img)-5))
		if rec.Code != http.StatusPartialContent || !bytes.Equal(rec.Body.Bytes(), img[len(img)-5:]) {
			t.Errorf("suffix range = %d %q", rec.Code, rec.Body.Bytes())
		}
		if rec = download(admin.Token, file.DownloadURL, "If-Modified-Since", lastModified); rec.Code != http.StatusNotModified {
			t.Errorf("If-Modified-Since = %d, want 304", rec.Code)
		}

		// GraphQL describes the same file.
		var gq struct {
			Space struct{ Content struct{ File *ctFile } }
		}
		e.gql(admin.Token, `query($s: ID!, $f: ID!) { space(id: $s) { content { file(id: $f) { id name contentType downloadURL size dimensions { width height } } } } }`,
			map[string]any{"s": space, "f": file.ID}).ok(&gq)
		if gq.Space.Content.File == nil || !cmp.Equal(*gq.Space.Content.File, file) {
			t.Errorf("GraphQL file = %+v, want %+v", gq.Space.Content.File, file)
		}

		// The published site serves it from the bucket too.
		e.createPage(admin.Token, target(space, ""), map[string]any{"title": "Cats", "markdown": "![A cat](cat.png)\n"})
		site := e.call(admin.Token, "POST", "/orgs/"+org+"/sites", `{"title":"Bucket Docs"}`).want(http.StatusCreated).object()["id"].(string)
		base := "/orgs/" + org + "/sites/" + site
		e.call(admin.Token, "PATCH", base, `{"basename":"bucket-docs"}`).want(http.StatusOK)
		e.call(admin.Token, "POST", base+"/sections", `{"spaceId":"`+space+`"}`).want(http.StatusCreated)
		var pub struct {
			PublishedSite struct {
				At struct {
					Page struct{ Files []struct{ Name, URL string } }
				}
			}
		}
		e.gql(admin.Token, `{ publishedSite(name: "bucket-docs") { at(path: "") { page { files { name url } } } } }`, nil).ok(&pub)
		if files := pub.PublishedSite.At.Page.Files; len(files) != 1 || files[0].Name != "cat.png" {
			t.Fatalf("published files = %+v", files)
		}
		pu, _ := url.Parse(pub.PublishedSite.At.Page.Files[0].URL)
		readerPath := pu.Path
		if p := e.read(readerPath, nil).want(http.StatusOK); p.Body != string(img) || p.Header.Get("Content-Type") != "image/png" {
			t.Errorf("reader file: %q, %d bytes", p.Header.Get("Content-Type"), len(p.Body))
		}
		if p := e.read(readerPath, nil, "Range", "bytes=0-7"); p.Status != http.StatusPartialContent || p.Body != string(img[:8]) {
			t.Errorf("reader range = %d %q", p.Status, p.Body)
		}

		// Nothing went to local disk.
		var local []string
		_ = filepath.WalkDir(localDir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				local = append(local, p)
			}
			return nil
		})
		if len(local) != 0 {
			t.Errorf("files on local disk: %v", local)
		}

		// A blob missing from the bucket is a missing file, in every door.
		if err := blobs.Delete(ctx, key); err != nil {
			t.Fatal(err)
		}
		if rec := download(admin.Token, file.DownloadURL); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `"code":404`) {
			t.Errorf("download of a missing blob = %d %s", rec.Code, rec.Body)
		}
		e.read(readerPath, nil).want(http.StatusNotFound)

		// A bucket that stops answering is a server error (logged), never a 404 or a panic.
		s3.Stop()
		if rec := download(admin.Token, file.DownloadURL); rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), `"code":500`) {
			t.Errorf("download during an outage = %d %s", rec.Code, rec.Body)
		}
		e.read(readerPath, nil).want(http.StatusInternalServerError)
		if code := e.upload(admin.Token, target(space, ""), "dog.txt", []byte("woof")).code(); code != "INTERNAL" {
			t.Errorf("upload during an outage: %s, want INTERNAL", code)
		}
		// What the database knows is still served.
		e.call(admin.Token, "GET", "/spaces/"+space+"/content/files/"+file.ID, nil).want(http.StatusOK)
	})
}
