package storage

import (
	"reflect"
	"slices"
	"testing"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/sqlitedialect"
)

// The statements scanned by hand (the membership, the site trees) must read every column of their
// models, in order: a column added to a model and missing here would silently stay empty.
func TestHandScannedColumnsAreTheModels(t *testing.T) {
	db := bun.NewDB(nil, sqlitedialect.New())
	for _, c := range []struct {
		model   any
		columns []string
	}{{(*Member)(nil), memberColumns}, {(*Organization)(nil), orgColumns}, {(*Space)(nil), treeSpaceColumns}} {
		var names []string
		for _, f := range db.Table(reflect.TypeOf(c.model)).Fields {
			names = append(names, f.Name)
		}
		if !slices.Equal(names, c.columns) {
			t.Errorf("%T: a hand-scanned statement reads %v, the model has %v", c.model, c.columns, names)
		}
	}
}
