package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/blob/blobtest"
	"github.com/bindery/bindery/storage/storagetest"
)

// TestTwoServersShareOneBucket runs two `bindery serve` on one PostgreSQL database and one S3
// bucket, as docs/operations.md's scale-out describes: a file uploaded through one server is
// read through the other, through REST, GraphQL and the published site. The bytes are in the
// bucket; nothing is written to the working directory or $TMPDIR. A bucket that does not exist
// stops serve before it touches the database.
func TestTwoServersShareOneBucket(t *testing.T) {
	work, tmp := t.TempDir(), t.TempDir()
	t.Chdir(work)
	t.Setenv("TMPDIR", tmp)
	ctx := context.Background()
	db := storagetest.DSN(t, storage.Postgres)
	bucket := blobtest.NewS3(t)

	// A bucket that does not exist: serve refuses to start, and creates no database.
	missing, _ := url.Parse(bucket.Location)
	missing.Host = "no-such-bucket"
	sqlite := filepath.Join(work, "never.db")
	if _, err := run(t, ctx, "serve", "--addr", "127.0.0.1:0", "--database", sqlite, "--files", missing.String()); err == nil ||
		!strings.Contains(err.Error(), "file storage unreachable") || exitCode(err) != exitFailure {
		t.Errorf("serve with a missing bucket: %v", err)
	}
	if _, err := os.Stat(sqlite); !os.IsNotExist(err) {
		t.Errorf("serve with a missing bucket touched the database: %v", err)
	}

	out, err := run(t, ctx, "admin", "bootstrap", "--database", db, "--org-title", "Scale", "--email", "ops@scale.test", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var boot struct {
		Organization struct{ ID string }
		Token        string
	}
	if err := json.Unmarshal([]byte(out), &boot); err != nil {
		t.Fatalf("bootstrap printed %q: %v", out, err)
	}

	// Two servers. Neither prints to stdout (the database has users), so they run side by side.
	// They are stopped together (each takes a while to stop its job workers).
	var stops []func() (wait func())
	t.Cleanup(func() {
		var waits []func()
		for _, stop := range stops {
			waits = append(waits, stop())
		}
		for _, wait := range waits {
			wait()
		}
	})
	start := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		sctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() {
			cmd := app()
			cmd.ErrWriter = io.Discard
			done <- cmd.Run(sctx, []string{"bindery", "serve", "--addr", addr, "--database", db, "--files", bucket.Location})
		}()
		stops = append(stops, func() func() {
			cancel()
			return func() {
				if err := <-done; err != nil {
					t.Errorf("serve on %s: %v", addr, err)
				}
			}
		})
		waitFor(t, "http://"+addr+"/healthz")
		return "http://" + addr
	}
	a, b := start(), start()

	call := func(base, method, path, contentType string, body io.Reader) []byte {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, body)
		req.Header.Set("Authorization", "Bearer "+boot.Token)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 300 {
			t.Fatalf("%s %s%s: %d %s", method, base, path, res.StatusCode, raw)
		}
		return raw
	}
	id := func(raw []byte) string {
		var v struct{ ID string }
		_ = json.Unmarshal(raw, &v)
		return v.ID
	}
	space := id(call(a, "POST", "/v1/orgs/"+boot.Organization.ID+"/spaces", "application/json", strings.NewReader(`{"title":"Shared"}`)))

	// Upload through server A (GraphQL multipart).
	content := []byte("uploaded through A, read through B\n")
	var form bytes.Buffer
	w := multipart.NewWriter(&form)
	ops, _ := json.Marshal(map[string]any{
		"query":     `mutation($t: ContentTarget!, $f: Upload!) { uploadFile(target: $t, file: $f) { file { id downloadURL } } }`,
		"variables": map[string]any{"t": map[string]any{"spaceId": space}, "f": nil},
	})
	_ = w.WriteField("operations", string(ops))
	_ = w.WriteField("map", `{"0":["variables.f"]}`)
	part, _ := w.CreateFormFile("0", "notes.txt")
	_, _ = part.Write(content)
	_ = w.Close()
	var up struct {
		Data struct {
			UploadFile struct {
				File struct{ ID, DownloadURL string }
			}
		}
	}
	if err := json.Unmarshal(call(a, "POST", "/graphql", w.FormDataContentType(), &form), &up); err != nil || up.Data.UploadFile.File.ID == "" {
		t.Fatalf("upload: %+v %v", up, err)
	}
	file := up.Data.UploadFile.File

	// Read through server B: the bytes, REST's description, GraphQL's.
	du, _ := url.Parse(file.DownloadURL)
	if got := call(b, "GET", du.Path, "", nil); !bytes.Equal(got, content) {
		t.Errorf("download through B = %q", got)
	}
	if got := id(call(b, "GET", "/v1/spaces/"+space+"/content/files/"+file.ID, "", nil)); got != file.ID {
		t.Errorf("REST file through B = %q", got)
	}
	q, _ := json.Marshal(map[string]any{"query": fmt.Sprintf(`{ space(id: %q) { content { file(id: %q) { downloadURL } } } }`, space, file.ID)})
	if got := call(b, "POST", "/graphql", "application/json", bytes.NewReader(q)); !bytes.Contains(got, []byte(du.Path)) {
		t.Errorf("GraphQL file through B = %s", got)
	}

	// Published through A, read through B's reader.
	call(a, "POST", "/graphql", "application/json", bytes.NewReader(mustJSON(map[string]any{
		"query":     `mutation($t: ContentTarget!) { createPage(target: $t, input: {title: "Notes", markdown: "See [the notes](notes.txt)."}) { page { id } } }`,
		"variables": map[string]any{"t": map[string]any{"spaceId": space}},
	})))
	site := id(call(a, "POST", "/v1/orgs/"+boot.Organization.ID+"/sites", "application/json", strings.NewReader(`{"title":"Shared Docs"}`)))
	call(a, "PATCH", "/v1/orgs/"+boot.Organization.ID+"/sites/"+site, "application/json", strings.NewReader(`{"basename":"shared"}`))
	call(a, "POST", "/v1/orgs/"+boot.Organization.ID+"/sites/"+site+"/sections", "application/json", strings.NewReader(`{"spaceId":"`+space+`"}`))
	var pub struct {
		Data struct {
			PublishedSite struct {
				At struct {
					Page struct{ Files []struct{ URL string } }
				}
			}
		}
	}
	_ = json.Unmarshal(call(b, "POST", "/graphql", "application/json", bytes.NewReader(mustJSON(map[string]any{
		"query": `{ publishedSite(name: "shared") { at(path: "") { page { files { url } } } } }`,
	}))), &pub)
	if files := pub.Data.PublishedSite.At.Page.Files; len(files) != 1 {
		t.Fatalf("published files = %+v", files)
	} else {
		pu, _ := url.Parse(files[0].URL)
		if got := call(b, "GET", pu.Path, "", nil); !bytes.Equal(got, content) {
			t.Errorf("reader file through B = %q", got)
		}
	}

	// The bytes are in the bucket, and nothing is on local disk.
	sum := sha256.Sum256(content)
	key := hex.EncodeToString(sum[:])
	if got := bucket.Objects(t); len(got) != 1 || got[0] != key[:2]+"/"+key {
		t.Errorf("bucket holds %v, want the one blob %s", got, key)
	}
	for _, dir := range []string{work, tmp} {
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%s holds %d entries (first %s), want none", dir, len(entries), entries[0].Name())
		}
	}
}

func mustJSON(v any) []byte {
	raw, _ := json.Marshal(v)
	return raw
}
