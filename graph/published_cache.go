package graph

import (
	"container/list"
	"sync"

	"github.com/bindery/bindery/storage"
)

// publishedTrees keeps the page rows of recently read published revisions. A revision never
// changes, so its rows can be reused by every later page view of it: a page of a 10,000-page
// space then reads its page, not the whole tree. The cache is bounded by the number of rows it
// holds, least recently used first out. The zero value is ready to use.
type publishedTrees struct {
	mu    sync.Mutex
	byKey map[string]*list.Element
	order *list.List // front: most recently used
	rows  int
}

type publishedTree struct {
	key  string
	rows []*storage.PageVersion
}

// maxCachedPageRows bounds the rows the cache holds (a few hundred bytes each).
const maxCachedPageRows = 200_000

func (c *publishedTrees) get(key string) ([]*storage.PageVersion, bool) {
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
	return el.Value.(*publishedTree).rows, true
}

func (c *publishedTrees) put(key string, rows []*storage.PageVersion) {
	if len(rows) > maxCachedPageRows {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey, c.order = map[string]*list.Element{}, list.New()
	}
	if _, ok := c.byKey[key]; ok {
		return
	}
	c.byKey[key] = c.order.PushFront(&publishedTree{key: key, rows: rows})
	c.rows += len(rows)
	for c.rows > maxCachedPageRows {
		last := c.order.Back()
		t := last.Value.(*publishedTree)
		c.order.Remove(last)
		delete(c.byKey, t.key)
		c.rows -= len(t.rows)
	}
}
