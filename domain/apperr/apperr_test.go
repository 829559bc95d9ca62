package apperr_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/storage"
)

// storage's sentinel errors are classified by what they say of themselves (apperr.Classified).
func TestStorageErrorsAreClassified(t *testing.T) {
	driver := errors.New("UNIQUE constraint failed: spaces.slug")
	for _, c := range []struct {
		err  error
		kind apperr.Kind
		msg  string
	}{
		{storage.ErrNotFound, apperr.NotFound, "Not found"},
		{errors.Join(storage.ErrConflict, driver), apperr.Conflict, "Conflict with an existing resource"},
		{storage.ErrInvalidCursor, apperr.Invalid, "page: not a valid page cursor"},
		{driver, apperr.Internal, "Internal error"},
		{apperr.NotFoundf("space %q", "x"), apperr.NotFound, `space "x"`},
	} {
		if got := apperr.KindOf(c.err); got != c.kind {
			t.Errorf("KindOf(%v) = %s, want %s", c.err, got, c.kind)
		}
		if got := apperr.Message(c.err); got != c.msg {
			t.Errorf("Message(%v) = %q, want %q", c.err, got, c.msg)
		}
	}
}

// The graph's API types, errors and permission engine link no database driver: storage speaks
// SQL, and these packages only need to classify its errors.
func TestNoDatabaseDriverBehindModelAuthzApperr(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps",
		"github.com/bindery/bindery/domain/model", "github.com/bindery/bindery/domain/authz", "github.com/bindery/bindery/domain/apperr").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "github.com/bindery/bindery/domain/model") {
		t.Fatalf("go list listed no domain/model:\n%s", out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/uptrace/bun", "github.com/jackc/pgx", "modernc.org/sqlite", "github.com/bindery/bindery/storage"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("%s is linked by domain/model, domain/authz or domain/apperr", dep)
			}
		}
	}
}
