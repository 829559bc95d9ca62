package blob

import (
	"bytes"
	"context"
	"io"
	"net/url"
	"testing"

	"github.com/bindery/bindery/storage/blob/blobtest"
)

// TestS3SignedMultipart: as in production, requests are signed with credentials from the
// environment, and a file larger than one part (5 MiB) goes up as a multipart upload; the bytes
// read back are the bytes written, whole and by range.
func TestS3SignedMultipart(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDBINDERYTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "not-a-secret")
	srv := blobtest.NewS3(t)
	u, _ := url.Parse(srv.Location)
	q := u.Query()
	q.Del("anonymous")
	u.RawQuery = q.Encode()
	s := mustOpen(t, u.String())
	ctx := context.Background()
	for _, size := range []int{10, 6<<20 + 3} {
		content := make([]byte, size)
		for i := range content {
			content[i] = byte(i * 7 / 3)
		}
		info, err := s.Put(ctx, bytes.NewReader(content), -1)
		if err != nil {
			t.Fatalf("Put %d bytes: %v", size, err)
		}
		if info.Key != keyOf(content) || info.Size != int64(size) {
			t.Errorf("Put = %+v", info)
		}
		r, err := s.Open(ctx, info.Key)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, content) {
			t.Errorf("%d bytes: read %d bytes, %v", size, len(got), err)
		}
		if _, err := r.Seek(int64(size/2), io.SeekStart); err != nil {
			t.Fatal(err)
		}
		half, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(half, content[size/2:]) {
			t.Errorf("%d bytes: second half read %d bytes, %v", size, len(half), err)
		}
		if r.Size() != int64(size) || r.Err() != nil {
			t.Errorf("Size = %d, Err = %v", r.Size(), r.Err())
		}
		r.Close()
	}
}
