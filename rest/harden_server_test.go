package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/bindery/bindery/rest"
)

// loopback serves e's stack on a real loopback port with the production limits.
func (e *env) loopback() string {
	e.t.Helper()
	l := rest.DefaultServerLimits()
	ln, err := rest.Listen("127.0.0.1:0", l)
	if err != nil {
		e.t.Fatal(err)
	}
	srv := rest.NewHTTPServer(e.h, l)
	go srv.Serve(ln)
	e.t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

func send(t *testing.T, method, url, token, contentType string, body []byte) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil // the server may cut an abusive request off
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, b
}

func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// Issue 12, done when: every reproduction, sent to a real loopback server with the production
// limits, is refused; afterwards the server is healthy and its heap is back near its idle size.
func TestAbuseLeavesServerHealthy(t *testing.T) {
	eachDBAlone(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		base := e.loopback()
		site := o.siteCreate(o.admin.Token, map[string]any{"title": "Docs"})["id"].(string)
		sec := o.sectionAdd(site, o.space("", "Public"), nil)
		spaceID := o.space("", "Pages")
		idle := heapAfterGC()

		gqlBody := func(q string, vars map[string]any) []byte {
			b, _ := json.Marshal(map[string]any{"query": q, "variables": vars})
			return b
		}
		var chain strings.Builder
		chain.WriteString("fragment F0 on Organization { id }\n")
		for i := 1; i <= 30; i++ {
			fmt.Fprintf(&chain, "fragment F%d on Organization { ...F%d ...F%d }\n", i, i-1, i-1)
		}
		chain.WriteString("{ organizations { nodes { ...F30 } } }")
		var aliases strings.Builder
		aliases.WriteString("{")
		for i := range 50_000 { // about 800 KB: under the body limit, far over the token limit
			fmt.Fprintf(&aliases, " a%d: __typename", i)
		}
		aliases.WriteString(" }")

		var wg sync.WaitGroup
		attack := func(name string, fn func() (int, []byte), refused func(int, []byte) bool) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if status, body := fn(); !refused(status, body) {
					t.Errorf("%s: answered %d %.200s", name, status, body)
				}
			}()
		}
		isError := func(status int, body []byte) bool {
			return status == 0 || status >= 400 || bytes.Contains(body, []byte(`"errors"`))
		}
		// 1. A condition bomb.
		attack("condition", func() (int, []byte) {
			b, _ := json.Marshal(map[string]any{"condition": conditionBomb})
			return send(t, "PATCH", base+"/v1/orgs/"+o.id+"/sites/"+site+"/sections/"+sec.ID, o.admin.Token, "application/json", b)
		}, func(s int, _ []byte) bool { return s == 400 })
		// 2. Large bodies, at once.
		for i := range 8 {
			attack(fmt.Sprintf("large body %d", i), func() (int, []byte) {
				return send(t, "POST", base+"/graphql", o.admin.Token, "application/json", bytes.Repeat([]byte("x"), 8<<20))
			}, isError)
		}
		// 3. Fragment chains and aliases.
		attack("fragment chain", func() (int, []byte) {
			return send(t, "POST", base+"/graphql", o.admin.Token, "application/json", gqlBody(chain.String(), nil))
		}, isError)
		attack("aliases", func() (int, []byte) {
			return send(t, "POST", base+"/graphql", o.admin.Token, "application/json", gqlBody(aliases.String(), nil))
		}, isError)
		// 4. Unpriced nesting and search aliases.
		attack("nested lists", func() (int, []byte) {
			q := `query($s: ID!) { space(id: $s) { changeRequestList(first: 1000) { nodes { commentList(first: 1000) { nodes { replyList(first: 1000) { nodes { id } } } } } } } }`
			return send(t, "POST", base+"/graphql", o.admin.Token, "application/json", gqlBody(q, map[string]any{"s": spaceID}))
		}, isError)
		// 5. An amplifying table.
		attack("table", func() (int, []byte) {
			q := `mutation($t: ContentTarget!, $in: CreatePageInput!) { createPage(target: $t, input: $in) { page { id } } }`
			return send(t, "POST", base+"/graphql", o.admin.Token, "application/json", gqlBody(q, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"title": "T", "markdown": wideTable(2000, 200)}}))
		}, isError)
		// 7. A NUL byte.
		attack("NUL", func() (int, []byte) {
			return send(t, "POST", base+"/v1/orgs/"+o.id+"/spaces", o.admin.Token, "application/json", []byte(`{"title":"a\u0000"}`))
		}, func(s int, _ []byte) bool { return s == 400 })
		wg.Wait()

		for _, path := range []string{"/healthz", "/readyz"} {
			if status, body := send(t, "GET", base+path, "", "", nil); status != 200 {
				t.Errorf("%s: %d %s", path, status, body)
			}
		}
		if now := heapAfterGC(); now > idle+64<<20 {
			t.Errorf("heap %d MiB after the attacks, %d MiB idle", now>>20, idle>>20)
		}
	})
}

// A bounded load test: concurrent writers and readers on a loopback server; afterwards every
// write the server acknowledged is there.
func TestConcurrentWritesAreKept(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		base := e.loopback()
		const writers, each = 6, 8
		var mu sync.Mutex
		acked := map[string]bool{}
		var wg sync.WaitGroup
		for w := range writers {
			wg.Add(2)
			go func() {
				defer wg.Done()
				for i := range each {
					status, body := send(t, "POST", base+"/v1/orgs/"+o.id+"/spaces", o.admin.Token, "application/json", []byte(fmt.Sprintf(`{"title":"w%d-%d"}`, w, i)))
					if status != http.StatusCreated {
						continue // not acknowledged: nothing to find
					}
					var s struct{ ID string }
					if json.Unmarshal(body, &s) == nil && s.ID != "" {
						mu.Lock()
						acked[s.ID] = true
						mu.Unlock()
					}
				}
			}()
			go func() {
				defer wg.Done()
				for range each {
					if status, body := send(t, "GET", base+"/v1/orgs/"+o.id+"/spaces?limit=1000", o.admin.Token, "", nil); status != 200 {
						t.Errorf("read: %d %s", status, body)
					}
				}
			}()
		}
		wg.Wait()
		if len(acked) < writers*each/2 {
			t.Fatalf("only %d of %d writes acknowledged", len(acked), writers*each)
		}
		var list struct{ Items []struct{ ID string } }
		e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/spaces?limit=1000", nil).want(200).decode(&list)
		present := map[string]bool{}
		for _, s := range list.Items {
			present[s.ID] = true
		}
		for id := range acked {
			if !present[id] {
				t.Errorf("acknowledged space %s is missing", id)
			}
		}
	})
}
