package domain

import (
	"testing"

	"github.com/bindery/bindery/storage/storagetest"
)

// A key claimed for one request answers another request with the same key as a mismatch, never
// with the first request's answer; the same request replays it; another token's key of the same
// name is its own.
func TestIdempotencyKeyAnswersOnlyItsOwnRequest(t *testing.T) {
	eachDB(t, func(t *testing.T, d *harness) {
		_, user := storagetest.NewOrg(t, d.Store, "owner@idempotency.test")
		ctx := d.as(user.ID, "token-a")
		claim, err := d.ClaimIdempotencyKey(ctx, "k1", "POST /v1/orgs body-1")
		if err != nil || !claim.Claimed {
			t.Fatalf("first claim = %+v, %v; want claimed", claim, err)
		}
		if err := d.FinishIdempotencyKey(ctx, "k1", IdempotentAnswer{Status: 201, Body: []byte(`{"id":"one"}`)}); err != nil {
			t.Fatal(err)
		}
		other, err := d.ClaimIdempotencyKey(ctx, "k1", "POST /v1/orgs body-2")
		if err != nil || !other.Mismatch || other.Replay != nil {
			t.Fatalf("another request with the key = %+v, %v; want a mismatch, no replay", other, err)
		}
		same, err := d.ClaimIdempotencyKey(ctx, "k1", "POST /v1/orgs body-1")
		if err != nil || same.Replay == nil || same.Replay.Status != 201 || string(same.Replay.Body) != `{"id":"one"}` {
			t.Fatalf("the same request again = %+v, %v; want the first answer", same, err)
		}
		theirs, err := d.ClaimIdempotencyKey(d.as(user.ID, "token-b"), "k1", "POST /v1/orgs body-2")
		if err != nil || !theirs.Claimed {
			t.Fatalf("another token's key = %+v, %v; want its own claim", theirs, err)
		}
	})
}
