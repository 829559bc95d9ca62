package rest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDocsGuidesRun runs the step-by-step guides as a reader would: every curl command of their
// shell blocks that talk to the server ($BINDERY), in order, against a fresh server (the reader's "Publish your first site", then
// the glossary and translation examples). Each must answer 2xx (GraphQL without errors), and the
// published page must show what the guide wrote.
func TestDocsGuidesRun(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		e.withProvider()
		_, admin := e.org("Docs", "admin@guides.test")
		sh := &guideShell{t: t, e: e, vars: map[string]string{}, fixed: map[string]string{"TOKEN": admin.Token}}
		for _, doc := range []string{"reader.md", "translations.md"} {
			raw, err := os.ReadFile(filepath.Join("..", "docs", doc))
			if err != nil {
				t.Fatal(err)
			}
			ran := 0
			for _, b := range shellBlocks(string(raw)) {
				if strings.Contains(b, "$BINDERY") { // requests to the server (not a model server's set-up)
					sh.run(doc, b)
					ran++
				}
			}
			if ran == 0 {
				t.Fatalf("%s has no shell block of requests", doc)
			}
		}
		if sh.requests < 12 {
			t.Fatalf("the guides made %d requests: is the parser reading them?", sh.requests)
		}
		if !strings.Contains(sh.last, "Hello, <strong>world</strong>.") && !strings.Contains(sh.published, "Hello, <strong>world</strong>.") {
			t.Errorf("the published site does not show the guide's page:\n%.600s", sh.published)
		}
		// The glossary ends as the guide says: the first entry updated, then deleted.
		_, rec := e.serve(httptest.NewRequest("GET", "/v1/orgs/"+sh.vars["ORG"]+"/translations-glossary", nil), admin.Token, nil)
		if body := rec.Body.String(); !strings.Contains(body, `"count":1`) || !strings.Contains(body, `"translations":{"en":"Gadget","fr":"Truc"}`) {
			t.Errorf("glossary after the guide: %s", body)
		}
		// The glossary's documented error names the operation.
		_, rec = e.serve(httptest.NewRequest("PUT", "/v1/orgs/"+sh.vars["ORG"]+"/translations-glossary", strings.NewReader(`{"operations":[{"type":"insert"}]}`)), admin.Token, nil)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "operations[0].translations") {
			t.Errorf("a glossary insert without translations: %d %s", rec.Code, rec.Body)
		}
	})
}

// shellBlocks returns the ```sh blocks of a markdown text, unindented.
func shellBlocks(md string) []string {
	var out []string
	var cur []string
	indent, in := "", false
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case !in && trimmed == "```sh":
			in, indent, cur = true, line[:len(line)-len(trimmed)], nil
		case in && trimmed == "```":
			in = false
			out = append(out, strings.Join(cur, "\n"))
		case in:
			cur = append(cur, strings.TrimPrefix(line, indent))
		}
	}
	return out
}

// guideShell runs the small part of the shell the guides use: NAME=value and
// NAME=$(curl … | jq -r '.path'), curl with -s, -X, -H and -d, quoting and $NAME expansion.
type guideShell struct {
	t               *testing.T
	e               *env
	vars, fixed     map[string]string
	requests        int
	last, published string
}

var assignment = regexp.MustCompile(`^([A-Z_]+)=(.*)$`)

func (s *guideShell) run(doc, block string) {
	s.t.Helper()
	for _, line := range strings.Split(strings.ReplaceAll(block, "\\\n", " "), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if m := assignment.FindStringSubmatch(line); m != nil {
			value := m[2]
			if inner, ok := strings.CutPrefix(value, "$("); ok && strings.HasSuffix(inner, ")") {
				value = s.pipeline(doc, strings.TrimSuffix(inner, ")"))
			} else {
				value = strings.Join(s.words(value), " ")
			}
			if _, fixed := s.fixed[m[1]]; !fixed {
				s.vars[m[1]] = value
			}
			continue
		}
		s.last = s.pipeline(doc, line)
	}
}

// pipeline runs curl, optionally piped to jq -r '.path', and returns what it prints.
func (s *guideShell) pipeline(doc, line string) string {
	s.t.Helper()
	words := s.words(line)
	var curl, jq []string
	for i, w := range words {
		if w == "|" {
			curl, jq = words[:i], words[i+1:]
			break
		}
	}
	if curl == nil {
		curl = words
	}
	out := s.curl(doc, line, curl)
	if len(jq) == 0 {
		return out
	}
	if len(jq) != 3 || jq[0] != "jq" || jq[1] != "-r" {
		s.t.Fatalf("%s: unsupported pipe %q", doc, jq)
	}
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		s.t.Fatalf("%s: %s: the answer is not JSON: %.300s", doc, line, out)
	}
	for _, part := range regexp.MustCompile(`\.([A-Za-z_]+)|\[(\d+)\]`).FindAllStringSubmatch(jq[2], -1) {
		if part[1] != "" {
			m, _ := v.(map[string]any)
			v = m[part[1]]
		} else {
			l, _ := v.([]any)
			i, _ := strconv.Atoi(part[2])
			if i >= len(l) {
				s.t.Fatalf("%s: %s: %s finds nothing in %.300s", doc, line, jq[2], out)
			}
			v = l[i]
		}
	}
	str, ok := v.(string)
	if !ok || str == "" {
		s.t.Fatalf("%s: %s: %s is %v in %.300s", doc, line, jq[2], v, out)
	}
	return str
}

func (s *guideShell) curl(doc, line string, args []string) string {
	s.t.Helper()
	if len(args) == 0 || args[0] != "curl" {
		s.t.Fatalf("%s: not a curl command: %s", doc, line)
	}
	method, target, body := "", "", ""
	headers := http.Header{}
	for i := 1; i < len(args); i++ {
		switch a := args[i]; a {
		case "-s":
		case "-X", "-H", "-d":
			if i+1 >= len(args) {
				s.t.Fatalf("%s: %s: %s without a value", doc, line, a)
			}
			i++
			switch a {
			case "-X":
				method = args[i]
			case "-H":
				name, value, _ := strings.Cut(args[i], ":")
				headers.Set(name, strings.TrimSpace(value))
			case "-d":
				body = args[i]
			}
		default:
			if strings.HasPrefix(a, "-") {
				s.t.Fatalf("%s: %s: unsupported option %s", doc, line, a)
			}
			target = a
		}
	}
	if method == "" {
		method = "GET"
		if body != "" {
			method = "POST"
		}
	}
	u, err := neturl.Parse(target)
	if err != nil || u.Path == "" {
		s.t.Fatalf("%s: %s: bad URL %q", doc, line, target)
	}
	if body != "" && !json.Valid([]byte(body)) {
		s.t.Fatalf("%s: %s: the body is not JSON: %s", doc, line, body)
	}
	req := httptest.NewRequest(method, u.RequestURI(), strings.NewReader(body))
	req.Header = headers
	rec := httptest.NewRecorder()
	s.e.h.ServeHTTP(rec, req)
	s.requests++
	out := rec.Body.String()
	if rec.Code < 200 || rec.Code > 299 {
		s.t.Fatalf("%s: %s\n%s %s answered %d: %.600s", doc, line, method, u.RequestURI(), rec.Code, out)
	}
	if u.Path == "/graphql" && strings.Contains(out, `"errors"`) {
		s.t.Fatalf("%s: %s\nGraphQL errors: %.600s", doc, line, out)
	}
	if strings.HasPrefix(u.Path, "/sites/") {
		s.published = out
	}
	return out
}

// words splits a command line as the shell does: single quotes literal, double quotes and bare
// words with $NAME expanded, a lone | a word of its own.
func (s *guideShell) words(line string) []string {
	var out []string
	var cur strings.Builder
	started := false
	expand := func(i int) int { // line[i] == '$': append the variable's value, return the next index
		j := i + 1
		for j < len(line) && (line[j] == '_' || (line[j] >= 'A' && line[j] <= 'Z')) {
			j++
		}
		if j == i+1 {
			cur.WriteByte('$')
			return j
		}
		name := line[i+1 : j]
		v, ok := s.fixed[name]
		if !ok {
			if v, ok = s.vars[name]; !ok {
				s.t.Fatalf("$%s is not set before: %s", name, line)
			}
		}
		cur.WriteString(v)
		return j
	}
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			if started {
				out = append(out, cur.String())
				cur.Reset()
				started = false
			}
			i++
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				s.t.Fatalf("unclosed quote: %s", line)
			}
			cur.WriteString(line[i+1 : i+1+end])
			started, i = true, i+2+end
		case c == '"':
			started = true
			for i++; i < len(line) && line[i] != '"'; {
				switch {
				case line[i] == '\\' && i+1 < len(line) && strings.IndexByte(`"\$`, line[i+1]) >= 0:
					cur.WriteByte(line[i+1])
					i += 2
				case line[i] == '$':
					i = expand(i)
				default:
					cur.WriteByte(line[i])
					i++
				}
			}
			i++
		case c == '$':
			started = true
			i = expand(i)
		default:
			started = true
			cur.WriteByte(c)
			i++
		}
	}
	if started {
		out = append(out, cur.String())
	}
	return out
}
