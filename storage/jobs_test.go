package storage_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

type kindArgs struct{ kind string }

func (a kindArgs) Kind() string { return a.kind }

func TestJobExistsOnlyWhenItsTransactionCommits(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		if err := s.InsertJobThenRollBack(ctx, kindArgs{"rolled_back"}); !errors.Is(err, storage.ErrRolledBack) {
			t.Fatalf("insert then roll back: %v", err)
		}
		if _, err := s.InsertJob(ctx, kindArgs{"committed"}, nil); err != nil {
			t.Fatal(err)
		}
		kinds, err := s.JobKinds(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(kinds, []string{"committed"}) {
			t.Fatalf("queued kinds = %q, want only the committed job", kinds)
		}
	})
}
