// Package translatortest is a fake chat-completions server for tests: it speaks the
// OpenAI-compatible protocol the translator client uses, logs every request, and answers with a
// deterministic translation, or with whatever a test asks for (errors, slow or malformed answers).
package translatortest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/translator"
)

// Received is one request as the server read it.
type Received struct {
	Authorization string
	Model         string
	System        string
	Source        string
	Target        string
	Glossary      []translator.Term
	Texts         []string
}

// Reply overrides the server's answer to one request: a status and raw body, after Delay.
// A zero Status means the normal answer (after Delay).
type Reply struct {
	Status int
	Body   string
	Header map[string]string
	Delay  time.Duration
}

// Server is the fake. Respond, when set, decides each answer (n counts requests from 1).
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	received []Received
	inFlight int
	maxSeen  int
	Respond  func(n int, r Received) Reply
	// Skip names glossary target terms the fake "forgets" to use.
	Skip map[string]bool
}

// New starts a fake server, closed when the test ends.
func New(t testing.TB) *Server {
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Translate is the fake's translation of one text: "[target] " and the text, with each glossary
// source term replaced by its target term.
func Translate(text, target string, glossary []translator.Term, skip map[string]bool) string {
	for _, t := range glossary {
		if !skip[t.Target] {
			text = strings.ReplaceAll(text, t.Source, t.Target)
		}
	}
	return "[" + target + "] " + text
}

// Requests returns every request received so far.
func (s *Server) Requests() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// MaxInFlight is the most requests the server held at once.
func (s *Server) MaxInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxSeen
}

// TextsSent returns every text received, across requests.
func (s *Server) TextsSent() []string {
	var out []string
	for _, r := range s.Requests() {
		out = append(out, r.Texts...)
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	rec := Received{Authorization: r.Header.Get("Authorization")}
	if err := json.Unmarshal(raw, &req); err != nil || len(req.Messages) < 2 {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"message":"bad request"}}`)
		return
	}
	rec.Model, rec.System = req.Model, req.Messages[0].Content
	var payload struct {
		Source   string            `json:"sourceLanguage"`
		Target   string            `json:"targetLanguage"`
		Glossary []translator.Term `json:"glossary"`
		Texts    []string          `json:"texts"`
	}
	_ = json.Unmarshal([]byte(req.Messages[len(req.Messages)-1].Content), &payload)
	rec.Source, rec.Target, rec.Glossary, rec.Texts = payload.Source, payload.Target, payload.Glossary, payload.Texts

	s.mu.Lock()
	s.received = append(s.received, rec)
	n := len(s.received)
	s.inFlight++
	s.maxSeen = max(s.maxSeen, s.inFlight)
	respond, skip := s.Respond, s.Skip
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()

	var reply Reply
	if respond != nil {
		reply = respond(n, rec)
	}
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	if reply.Status != 0 {
		w.WriteHeader(reply.Status)
		io.WriteString(w, reply.Body)
		return
	}
	texts := make([]string, len(rec.Texts))
	for i, t := range rec.Texts {
		texts[i] = Translate(t, rec.Target, rec.Glossary, skip)
	}
	content, _ := json.Marshal(map[string]any{"texts": texts})
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(Completion(string(content)))
}

// Completion is a chat-completions answer whose message is content.
func Completion(content string) map[string]any {
	return map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion", "model": "fake",
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
	}
}

// CompletionBody is Completion encoded.
func CompletionBody(content string) string {
	b, _ := json.Marshal(Completion(content))
	return string(b)
}
