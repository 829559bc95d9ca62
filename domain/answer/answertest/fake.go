// Package answertest is a fake OpenAI-compatible chat-completions server for tests of Ask: it
// logs every prompt and answers what the test's Reply function says, streamed as server-sent
// events in small pieces (or in one JSON answer), or blocks until the request is cancelled. Its
// /embeddings endpoint computes deterministic vectors (Vector) and logs every input.
package answertest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Server is the fake. Reply decides the model's text from the user message (default: cite
// passage 1). With Block set, it never answers and records when the client goes away.
type Server struct {
	*httptest.Server
	Reply    func(user string) string
	NoStream bool
	Block    bool
	Status   int // when set, every request fails with this status

	mu        sync.Mutex
	prompts   []string
	embedded  []string
	cancelled chan struct{}
	once      sync.Once
}

// New starts a fake server, closed when the test ends.
func New(t testing.TB) *Server {
	s := &Server{cancelled: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Prompts are the whole text (system and user messages) of every request, in order.
func (s *Server) Prompts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.prompts...)
}

// Cancelled is closed when a blocked request's client went away.
func (s *Server) Cancelled() <-chan struct{} { return s.cancelled }

// Embedded are the inputs of every embeddings request, in order.
func (s *Server) Embedded() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.embedded...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/embeddings") {
		s.serveEmbeddings(w, r)
		return
	}
	var req struct {
		Messages []struct{ Role, Content string } `json:"messages"`
		Stream   bool                             `json:"stream"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	var all, user []string
	for _, m := range req.Messages {
		all = append(all, m.Content)
		if m.Role == "user" {
			user = append(user, m.Content)
		}
	}
	s.mu.Lock()
	s.prompts = append(s.prompts, strings.Join(all, "\n"))
	s.mu.Unlock()
	if s.Status != 0 {
		http.Error(w, "provider failure", s.Status)
		return
	}
	if s.Block {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		s.once.Do(func() { close(s.cancelled) })
		return
	}
	text := "The answer is in the first passage [1]."
	if s.Reply != nil {
		text = s.Reply(strings.Join(user, "\n"))
	}
	if s.NoStream || !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"index": 0, "message": map[string]any{"role": "assistant", "content": text}}}})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for len(text) > 0 {
		n := min(len(text), 8)
		chunk, _ := json.Marshal(map[string]any{"choices": []map[string]any{{"index": 0, "delta": map[string]any{"content": text[:n]}}}})
		fmt.Fprintf(w, "data: %s\n\n", chunk)
		w.(http.Flusher).Flush()
		text = text[n:]
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func (s *Server) serveEmbeddings(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" || len(req.Input) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.embedded = append(s.embedded, req.Input...)
	s.mu.Unlock()
	if s.Status != 0 {
		http.Error(w, "provider failure", s.Status)
		return
	}
	data := make([]map[string]any, len(req.Input))
	for i, in := range req.Input {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": Vector(in)}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
}

// Dimensions is the length of the fake's vectors.
const Dimensions = 256

// Concepts map words to the concept they stand for: the fake's vectors place words of one
// concept together, as a real model places synonyms, so a question can find a page by meaning
// without sharing a word with it.
var Concepts = map[string]string{
	"remove": "revoke", "delete": "revoke", "disable": "revoke", "cancel": "revoke", "invalidate": "revoke",
	"credential": "token", "credentials": "token", "key": "token", "keys": "token", "secret": "token",
	"make": "create", "generate": "create", "issue": "create", "new": "create",
	"program": "api", "programs": "api", "automation": "api", "script": "api", "scripts": "api",
}

// stopWords carry no meaning of their own.
var stopWords = map[string]bool{"the": true, "and": true, "how": true, "what": true, "can": true, "you": true, "for": true,
	"with": true, "this": true, "that": true, "does": true, "are": true, "your": true, "from": true, "into": true, "which": true, "when": true}

// Vector is the fake's embedding of text: a bag of its words' concepts (Concepts, else the word,
// without a plural s), each hashed to one of Dimensions dimensions; short words are left out.
func Vector(text string) []float32 {
	v := make([]float32, Dimensions)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if len(w) < 3 || stopWords[w] {
			continue
		}
		c, ok := Concepts[w]
		if !ok {
			c = strings.TrimSuffix(w, "s")
		}
		h := fnv.New32a()
		h.Write([]byte(c))
		v[h.Sum32()%Dimensions]++
	}
	v[Dimensions-1] += 0.01 // never the zero vector
	return v
}
