package domain

import (
	"context"
	"testing"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// Tokens that expired more than a day ago are deleted; those that expired since, and those that
// never expire, stay.
func TestExpiredTokensArePruned(t *testing.T) {
	eachDB(t, func(t *testing.T, d *harness) {
		_, owner := storagetest.NewOrg(t, d.Store, "owner@tokens.test")
		ctx := context.Background()
		made := func(expires *time.Time) string {
			tok, err := d.Store.CreateToken(ctx, owner.ID, d.now.Add(-72*time.Hour), expires)
			if err != nil {
				t.Fatal(err)
			}
			return tok
		}
		long, recent := d.now.Add(-48*time.Hour), d.now.Add(-time.Hour)
		old, fresh, forever := made(&long), made(&recent), made(nil)
		if n, err := d.PruneExpiredTokens(ctx); err != nil || n != 1 {
			t.Fatalf("pruned %d (%v), want 1", n, err)
		}
		before := d.now.Add(-71 * time.Hour) // when all three were valid: only a deleted row is not found
		for tok, want := range map[string]bool{old: false, fresh: true, forever: true} {
			_, err := d.Store.FindToken(ctx, tok, before)
			if got := err == nil; got != want {
				t.Errorf("token kept = %v, want %v (%v)", got, want, err)
			}
			if err != nil && err != storage.ErrNotFound {
				t.Error(err)
			}
		}
	})
}
