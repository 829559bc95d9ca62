package storage_test

import (
	"context"
	"testing"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// What a revision changed (versions started or ended at its sequence) and the page holding a
// content id (getDocumentById) have indexes to read, so their cost follows the pages asked for,
// not the size of the line. The planner's choice on a test's few rows says nothing, so the test
// reads the schema: each lookup's columns lead an index.
func TestPageVersionLookupsHaveIndexes(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		indexes, err := s.IndexedColumns(context.Background(), "page_versions")
		if err != nil {
			t.Fatal(err)
		}
		for _, lookup := range [][]string{{"line", "from_seq"}, {"line", "to_seq"}, {"content_id"}} {
			if !leadsAnIndex(indexes, lookup) {
				t.Errorf("no index of page_versions starts with %v: %v", lookup, indexes)
			}
		}
	})
}

func leadsAnIndex(indexes map[string][]string, cols []string) bool {
	for _, have := range indexes {
		if len(have) < len(cols) {
			continue
		}
		match := true
		for i, c := range cols {
			match = match && have[i] == c
		}
		if match {
			return true
		}
	}
	return false
}
