package storage_test

import (
	"os/exec"
	"strings"
	"testing"
)

// Storage speaks SQL and nothing else: neither it nor its helper packages (storagetest included),
// nor their tests, link a package of the module outside storage (the API layers above it), but
// search, which holds the full-text index beside it and links nothing above it either. Rules
// and readers come in as callbacks and options.
func TestStorageLinksNothingAboveIt(t *testing.T) {
	mod, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	module := strings.TrimSpace(string(mod))
	// -test: the storage packages' tests too (their markdown reader is a test's own).
	out, err := exec.Command("go", "list", "-deps", "-test", module+"/storage/...", module+"/search").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), module+"/storage/storagetest") {
		t.Fatalf("go list listed no storage/storagetest:\n%s", out)
	}
	for _, dep := range strings.Fields(string(out)) {
		// A test's own package is listed as storage_test, or as storage.test for its binary.
		inModule := dep == module || strings.HasPrefix(dep, module+"/")
		ownLayer := strings.HasPrefix(dep, module+"/storage") || strings.HasPrefix(dep, module+"/search")
		if inModule && !ownLayer {
			t.Errorf("%s is linked by storage", dep)
		}
	}
}
