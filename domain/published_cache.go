package domain

import (
	"container/list"
	"sync"

	"github.com/bindery/bindery/storage"
)

// publishedTrees keeps what page views of recently read published revisions need: the page tree
// with its navigation, the index references resolve against, and the files. A revision never
// changes, so every later view of it reuses them: a page of a 10,000-page space then reads its
// page, not the whole tree, and builds nothing of the size of the space. Entries are read-only
// once cached. The cache is bounded by the number of pages it holds, least recently used first
// out. The zero value is ready to use.
type publishedTrees struct {
	mu    sync.Mutex
	byKey map[string]*list.Element
	order *list.List // front: most recently used
	rows  int
}

// publishedRevision is a cached revision: shared by concurrent views, never modified.
type publishedRevision struct {
	key   string
	tree  *publishedTreeView
	index *linkIndex
	files []*storage.FileVersion
	rows  int
	// includes are its reusable contents, read by the first view that includes one.
	includes *includeSet
}

// maxCachedPageRows bounds the rows the cache holds (a few hundred bytes each).
const maxCachedPageRows = 200_000

func (c *publishedTrees) get(key string) (*publishedRevision, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		return nil, false
	}
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*publishedRevision), true
}

func (c *publishedTrees) put(rev *publishedRevision) {
	if rev.rows > maxCachedPageRows {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey, c.order = map[string]*list.Element{}, list.New()
	}
	if _, ok := c.byKey[rev.key]; ok {
		return
	}
	c.byKey[rev.key] = c.order.PushFront(rev)
	c.rows += rev.rows
	for c.rows > maxCachedPageRows {
		last := c.order.Back()
		t := last.Value.(*publishedRevision)
		c.order.Remove(last)
		delete(c.byKey, t.key)
		c.rows -= t.rows
	}
}
