package search_test

import (
	"regexp"
	"testing"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// Search indexes what the reader given with WithSearchText makes of a page's markdown (the
// server passes domain/document's): here a reader that keeps a link's text and drops its target,
// so the tests see the index follow the reader.
func TestMain(m *testing.M) { storagetest.Main(m, storage.WithSearchText(linkTextOnly)) }

var markdownLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

func linkTextOnly(markdown string) string { return markdownLink.ReplaceAllString(markdown, "$1") }

var (
	t0     = storagetest.T0
	newOrg = storagetest.NewOrg
)
