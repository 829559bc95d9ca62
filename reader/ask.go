package reader

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/answer"
	"github.com/bindery/bindery/domain/apperr"
)

// The Ask panel (docs/ask.md): on a published site, when the server has an AI provider, the
// header holds a question box. Without JavaScript it is a form whose answer is a page of its
// own (GET ~ask?q=); with it, ask.js streams the answer from the same URL (Accept:
// text/event-stream), shows its sources as links, and sends the reader's rating (POST
// ~ask/rating). The answer is made from what this visitor reads: the site's visibility, their
// share key, visitor token and claims apply, as on every page. Without a provider the panel and
// its routes are absent.

// askRoutes mounts the Ask panel's routes.
func (h *Handler) askRoutes(r chi.Router) {
	r.Get("/{name}/~ask", h.serveAsk)
	r.Post("/{name}/~ask/rating", h.serveAskRating)
}

// askFuncs are the templates' Ask functions: whether the panel shows, its URL beside the
// search's, and the URL of a static file beside reader.js.
func (h *Handler) askFuncs() template.FuncMap {
	return template.FuncMap{
		"askOn":  func() bool { return h.app.Answers != nil },
		"askURL": func(searchURL string) string { return strings.TrimSuffix(searchURL, "~search") + "~ask" },
		"askParagraphs": func(md string) []string {
			var out []string
			for _, p := range strings.Split(md, "\n\n") {
				if p = strings.TrimSpace(p); p != "" {
					out = append(out, p)
				}
			}
			return out
		},
		"askAsset": func(readerJS, file string) string {
			base, _, _ := strings.Cut(readerJS, "reader.js")
			return base + file + "?v=" + h.static[file].hash
		},
	}
}

// askEvent is one event of the panel's stream: the answer so far (the last is final).
type askEvent struct {
	Markdown string      `json:"markdown"`
	Found    bool        `json:"found"`
	Sources  []askSource `json:"sources"`
	Done     bool        `json:"done,omitempty"`
}

type askSource struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

func toAskEvent(a *answer.Answer, done bool) askEvent {
	ev := askEvent{Markdown: a.Markdown, Found: a.Found, Sources: []askSource{}, Done: done}
	for _, s := range a.Sources {
		u := s.URL
		if len(s.Sections) > 0 {
			u += "#" + s.Sections[0]
		}
		ev.Sources = append(ev.Sources, askSource{Title: s.Title, URL: u})
	}
	return ev
}

// askQuestion reads the question and the conversation's earlier questions. Errors: Invalid.
func askQuestion(req *http.Request) (answer.Question, error) {
	q := req.URL.Query()
	in := answer.Question{Text: strings.TrimSpace(q.Get("q")), Previous: q["previous"]}
	return in, in.Validate()
}

// serveAsk answers a visitor's question: streamed to ask.js, or as a page of its own.
func (h *Handler) serveAsk(w http.ResponseWriter, req *http.Request) {
	if h.app.Answers == nil {
		h.errorPage(w, req, http.StatusNotFound, "Page not found", "There is nothing at this address.")
		return
	}
	stream := strings.Contains(req.Header.Get("Accept"), "text/event-stream")
	in, err := askQuestion(req)
	if err == nil {
		var ps *domain.PublishedSite
		if ps, err = h.app.OpenPublishedSite(req.Context(), chi.URLParam(req, "name"), visitor(req)); err == nil {
			if stream {
				h.streamAsk(w, req, ps, in)
				return
			}
			var a *answer.Answer
			if a, err = h.app.AskPublished(req.Context(), ps, in, nil); err == nil {
				headers(w, false)
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				_ = h.tmpl.ExecuteTemplate(w, "ask.html", map[string]any{"Site": ps, "Question": in.Text, "Answer": toAskEvent(a, true),
					"Static": h.staticURLs(req), "Back": ps.URL})
				return
			}
		}
	}
	status, title, text := askFailure(req, err)
	if stream {
		headers(w, false)
		http.Error(w, text, status)
		return
	}
	h.errorPage(w, req, status, title, text)
}

// streamAsk streams the answer as server-sent events; a failure after the first ends the stream
// with an "error" event.
func (h *Handler) streamAsk(w http.ResponseWriter, req *http.Request, ps *domain.PublishedSite, in answer.Question) {
	started := false
	send := func(event string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			return
		}
		if !started {
			headers(w, false)
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("X-Accel-Buffering", "no")
			w.WriteHeader(http.StatusOK)
			started = true
		}
		if event != "" {
			fmt.Fprintf(w, "event: %s\n", event)
		}
		fmt.Fprintf(w, "data: %s\n\n", b)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	final, err := h.app.AskPublished(req.Context(), ps, in, func(a *answer.Answer) { send("", toAskEvent(a, false)) })
	if err == nil {
		send("", toAskEvent(final, true))
		return
	}
	if errors.Is(err, context.Canceled) && req.Context().Err() != nil {
		return // the reader went away
	}
	status, _, text := askFailure(req, err)
	if !started {
		headers(w, false)
		http.Error(w, text, status)
		return
	}
	send("error", map[string]string{"message": text})
}

// askFailure is the status and words of a failed question.
func askFailure(req *http.Request, err error) (int, string, string) {
	var pe *answer.ProviderError
	switch {
	case errors.As(err, &pe):
		return http.StatusBadGateway, "No answer", "The answer could not be written: " + pe.Msg + ". Please try again later."
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout, "No answer", "The answer took too long. Please try again."
	}
	switch apperr.KindOf(err) {
	case apperr.NotFound:
		return http.StatusNotFound, "Page not found", "There is nothing at this address."
	case apperr.Unauthenticated:
		return http.StatusUnauthorized, "Sign in to read this site", "This site is for signed-in visitors."
	case apperr.Invalid:
		return http.StatusBadRequest, "Bad request", apperr.Message(err)
	}
	slog.ErrorContext(req.Context(), "reader ask failed", "path", req.URL.Path, "err", err)
	return http.StatusInternalServerError, "Something went wrong", "The answer could not be shown. Please try again later."
}

// maxRatingBody bounds a rating's body.
const maxRatingBody = 16 << 10

// serveAskRating records a visitor's rating of an answer: a JSON body, sent by ask.js from the
// site's own pages (a cross-site request is refused).
func (h *Handler) serveAskRating(w http.ResponseWriter, req *http.Request) {
	headers(w, false)
	if h.app.Answers == nil {
		http.NotFound(w, req)
		return
	}
	if !sameOrigin(req) {
		http.Error(w, "cross-site request refused", http.StatusForbidden)
		return
	}
	if ct := req.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		http.Error(w, "the body must be JSON", http.StatusUnsupportedMediaType)
		return
	}
	var in domain.AskRatingInput
	if err := json.NewDecoder(http.MaxBytesReader(w, req.Body, maxRatingBody)).Decode(&in); err != nil {
		http.Error(w, "the body is not a rating", http.StatusBadRequest)
		return
	}
	ps, err := h.app.OpenPublishedSite(req.Context(), chi.URLParam(req, "name"), visitor(req))
	if err == nil {
		err = h.app.RateAnswer(req.Context(), ps, in)
	}
	if err != nil {
		status, _, text := askFailure(req, err)
		http.Error(w, text, status)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// sameOrigin reports whether a request comes from the site's own pages: the browser says so
// (Sec-Fetch-Site), or its Origin is this host.
func sameOrigin(req *http.Request) bool {
	if site := req.Header.Get("Sec-Fetch-Site"); site != "" {
		return site == "same-origin"
	}
	origin := req.Header.Get("Origin")
	if origin == "" {
		return false
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host == req.Host
}
