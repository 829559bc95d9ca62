package rest

import (
	"net/http"
	"sort"
	"strings"

	"github.com/bindery/bindery/graph"
)

// rejectNUL refuses a request whose path or query string holds a NUL character (%00), naming the
// query parameter (or "path"): no id, slug or parameter may hold one, and PostgreSQL cannot
// compare with one. JSON bodies are checked where they are decoded.
func rejectNUL(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/graphql" { // GraphQL checks its variables and literals itself
			next.ServeHTTP(w, r)
			return
		}
		if strings.IndexByte(r.URL.Path, 0) >= 0 {
			writeError(w, r, graph.NULError("path"))
			return
		}
		if strings.Contains(r.URL.RawQuery, "%00") {
			q := r.URL.Query()
			names := make([]string, 0, len(q))
			for k := range q {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				for _, v := range q[k] {
					if strings.IndexByte(k+v, 0) >= 0 {
						writeError(w, r, graph.NULError(k))
						return
					}
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}
