package storage_test

import (
	"os/exec"
	"strings"
	"testing"
)

// Storage speaks SQL and nothing else: neither it nor its helper packages (storagetest included)
// link a graph package. Rules and readers come in as callbacks and options.
func TestStorageLinksNoGraphPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/bindery/bindery/storage/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "github.com/bindery/bindery/storage/storagetest") {
		t.Fatalf("go list listed no storage/storagetest:\n%s", out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/bindery/bindery/graph") {
			t.Errorf("%s is linked by storage", dep)
		}
	}
}
