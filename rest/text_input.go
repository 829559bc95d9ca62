package rest

import (
	"net/http"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/textinput"
)

// rejectBadText refuses a request whose path or query string is not text (a NUL character, %00,
// or bytes that are not UTF-8, e.g. %FF), naming the query parameter (or "path"): no id, slug or
// parameter may hold one, and PostgreSQL cannot compare with a NUL. JSON bodies are checked where
// they are decoded; GraphQL checks its own parameters.
func rejectBadText(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/graphql" {
			next.ServeHTTP(w, r)
			return
		}
		if problem := textinput.Check(r.URL.Path); problem != "" {
			writeError(w, r, textinput.Error("path", problem))
			return
		}
		if mayHoldBadQuery(r.URL.RawQuery) {
			q := r.URL.Query()
			names := make([]string, 0, len(q))
			for k := range q {
				names = append(names, k)
			}
			sort.Strings(names) // the same parameter is named on every try
			for _, k := range names {
				for _, v := range append([]string{k}, q[k]...) {
					if problem := textinput.Check(v); problem != "" {
						writeError(w, r, textinput.Error(k, problem))
						return
					}
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// mayHoldBadQuery reports cheaply whether a raw query string may decode to something CheckText
// refuses: an escaped NUL, an escaped byte of 0x80 or more (maybe not UTF-8), or raw bytes that
// are not UTF-8.
func mayHoldBadQuery(raw string) bool {
	for i := strings.IndexByte(raw, '%'); i >= 0 && i+2 < len(raw); {
		if d := raw[i+1]; raw[i+1:i+3] == "00" || strings.IndexByte("89abcdefABCDEF", d) >= 0 {
			return true
		}
		next := strings.IndexByte(raw[i+1:], '%')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return !utf8.ValidString(raw)
}
