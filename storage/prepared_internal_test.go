package storage

import (
	"reflect"
	"slices"
	"testing"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/sqlitedialect"
)

// The hand-scanned membership statement must read every column of its models: a column added to
// Member or Organization and missing here would silently stay empty on most requests.
func TestMembershipColumnsAreTheModels(t *testing.T) {
	db := bun.NewDB(nil, sqlitedialect.New())
	for _, c := range []struct {
		model   any
		columns []string
	}{{(*Member)(nil), memberColumns}, {(*Organization)(nil), orgColumns}} {
		var names []string
		for _, f := range db.Table(reflect.TypeOf(c.model)).Fields {
			names = append(names, f.Name)
		}
		if !slices.Equal(names, c.columns) {
			t.Errorf("%T: the membership statement reads %v, the model has %v", c.model, c.columns, names)
		}
	}
}
