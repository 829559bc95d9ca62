package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/answer"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"
	"github.com/go-chi/chi/v5"
)

// Ask (docs/ask.md): answers and recommended questions, as one JSON answer or as server-sent
// events whose data is the contract's SearchAIAnswerStream or SearchAIRecommendedQuestionStream.

// searchAIAnswer is the contract's SearchAIAnswer.
type searchAIAnswer struct {
	Answer            any              `json:"answer"`
	FollowupQuestions []string         `json:"followupQuestions"`
	Sources           []searchAISource `json:"sources"`
}

// searchAISource is the contract's SearchAIAnswerSource.
type searchAISource struct {
	Type     string   `json:"type"`
	Page     string   `json:"page"`
	Revision string   `json:"revision"`
	Space    string   `json:"space"`
	Sections []string `json:"sections"`
}

// answerFormat reads the format query parameter: "document" (the default) or "markdown".
func answerFormat(r *http.Request) (string, error) {
	switch f := r.URL.Query().Get("format"); f {
	case "", "document":
		return "document", nil
	case "markdown":
		return f, nil
	}
	return "", apperr.Invalidf("format", `must be "document" or "markdown"`)
}

// contractAnswer is an answer in the contract's shape, its text as format says.
func contractAnswer(a *answer.Answer, format string) searchAIAnswer {
	out := searchAIAnswer{FollowupQuestions: a.FollowupQuestions, Sources: make([]searchAISource, len(a.Sources))}
	if format == "markdown" {
		out.Answer = map[string]string{"markdown": a.Markdown}
	} else {
		out.Answer = map[string]any{"document": document.Contract(document.FromMarkdown(a.Markdown, nil))}
	}
	for i, s := range a.Sources {
		out.Sources[i] = searchAISource{Type: "page", Page: s.PageID, Revision: s.RevisionID, Space: s.SpaceID, Sections: s.Sections}
	}
	return out
}

// askErr answers an Ask failure: a provider's failure is 502 and its time running out 504 (the
// server is fine, its provider is not); a client that went away gets nothing.
func askErr(w http.ResponseWriter, r *http.Request, err error) (int, any, error) {
	if status, msg, ok := providerStatus(r, err); ok {
		if status != 0 {
			writeErrorStatus(w, status, msg)
		}
		return 0, nil, nil
	}
	return 0, nil, err
}

// providerStatus is the status and message of an error that is the provider's or the clock's
// rather than the request's; 0 when the client went away.
func providerStatus(r *http.Request, err error) (int, string, bool) {
	var pe *answer.ProviderError
	switch {
	case r.Context().Err() != nil:
		return 0, "", true
	case errors.As(err, &pe):
		return http.StatusBadGateway, pe.Msg, true
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout, "the AI provider did not answer in time", true
	}
	return 0, "", false
}

// eventStream writes server-sent events, starting the response at the first one; until then an
// error can still be answered as the contract's error body.
type eventStream struct {
	w       http.ResponseWriter
	started bool
}

// send writes one event whose data is v as JSON.
func (s *eventStream) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	if !s.started {
		h := s.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no") // proxies must not hold the stream back
		s.w.WriteHeader(http.StatusOK)
		s.started = true
	}
	fmt.Fprintf(s.w, "data: %s\n\n", b)
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

// end finishes a stream with err: before the first event, the contract's error body; after it,
// an "error" event with that body (the status is already sent).
func (s *eventStream) end(r *http.Request, err error) (int, any, error) {
	if err == nil {
		return 0, nil, nil
	}
	if !s.started {
		return askErr(s.w, r, err)
	}
	status, msg := statusOf[apperr.KindOf(err)], apperr.Message(err)
	if st, m, ok := providerStatus(r, err); ok {
		if st == 0 {
			return 0, nil, nil // the client went away
		}
		status, msg = st, m
	} else if apperr.KindOf(err) == apperr.Internal {
		slog.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	var body errorBody
	body.Error.Code, body.Error.Message = status, msg
	b, _ := json.Marshal(body)
	fmt.Fprintf(s.w, "event: error\ndata: %s\n\n", b)
	return 0, nil, nil
}

// streamAnswer streams an answer: each partial answer, then the final one.
func streamAnswer(w http.ResponseWriter, r *http.Request, ask func(emit func(*answer.Answer)) (*answer.Answer, error)) (int, any, error) {
	format, err := answerFormat(r)
	if err != nil {
		return 0, nil, err
	}
	s := &eventStream{w: w}
	var last *answer.Answer
	final, err := ask(func(a *answer.Answer) {
		last = a
		s.send(map[string]any{"type": "answer", "answer": contractAnswer(a, format)})
	})
	if err == nil && final != last {
		s.send(map[string]any{"type": "answer", "answer": contractAnswer(final, format)})
	}
	return s.end(r, err)
}

// streamQuestions streams recommended questions, one event each.
func streamQuestions(w http.ResponseWriter, r *http.Request, recommend func(emit func(string)) ([]string, error)) (int, any, error) {
	s := &eventStream{w: w}
	_, err := recommend(func(q string) { s.send(map[string]string{"question": q}) })
	if err == nil && !s.started {
		// No question: an empty stream, still an event stream.
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
	}
	return s.end(r, err)
}

// askQuery is the contract's SearchAIQuery.
type askQuery struct {
	Query           string   `json:"query"`
	PreviousQueries []string `json:"previousQueries"`
}

// askInOrganization answers POST /orgs/{organizationId}/ask.
func (a *api) askInOrganization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	format, err := answerFormat(r)
	if err != nil {
		return 0, nil, err
	}
	var in askQuery
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	ans, err := a.res.AskInOrganization(r.Context(), chi.URLParam(r, "organizationId"), answer.Question{Text: in.Query, Previous: in.PreviousQueries}, nil)
	if err != nil {
		return askErr(w, r, err)
	}
	return ok(map[string]any{"answer": contractAnswer(ans, format)}, nil)
}

// streamAskInOrganization answers GET /orgs/{organizationId}/ask/stream.
func (a *api) streamAskInOrganization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	q := answer.Question{Text: r.URL.Query().Get("query")}
	return streamAnswer(w, r, func(emit func(*answer.Answer)) (*answer.Answer, error) {
		return a.res.AskInOrganization(r.Context(), chi.URLParam(r, "organizationId"), q, emit)
	})
}

// getRecommendedQuestionsInOrganization answers GET /orgs/{organizationId}/ask/questions.
func (a *api) getRecommendedQuestionsInOrganization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	qs, err := a.res.RecommendedQuestionsInOrganization(r.Context(), chi.URLParam(r, "organizationId"), nil)
	if err != nil {
		return askErr(w, r, err)
	}
	return ok(map[string]any{"questions": qs}, nil)
}

// streamRecommendedQuestionsInOrganization answers GET /orgs/{organizationId}/ask/questions/stream.
func (a *api) streamRecommendedQuestionsInOrganization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return streamQuestions(w, r, func(emit func(string)) ([]string, error) {
		return a.res.RecommendedQuestionsInOrganization(r.Context(), chi.URLParam(r, "organizationId"), emit)
	})
}

// siteAskInput is streamAskInSite's body.
type siteAskInput struct {
	Question string               `json:"question"`
	Context  *struct{}            `json:"context"`
	Scope    *domain.SiteAskScope `json:"scope"`
}

// streamAskInSite answers POST /orgs/{organizationId}/sites/{siteId}/ask.
func (a *api) streamAskInSite(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in siteAskInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	if in.Scope == nil {
		return 0, nil, apperr.Invalidf("scope", "is required")
	}
	q := answer.Question{Text: in.Question}
	if err := q.Validate(); err != nil {
		return 0, nil, err
	}
	return streamAnswer(w, r, func(emit func(*answer.Answer)) (*answer.Answer, error) {
		return a.res.AskInSite(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"), q, *in.Scope, nil, emit)
	})
}

// streamRecommendedQuestionsInSite answers GET /orgs/{organizationId}/sites/{siteId}/ask/questions.
func (a *api) streamRecommendedQuestionsInSite(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return streamQuestions(w, r, func(emit func(string)) ([]string, error) {
		return a.res.RecommendedQuestionsInSite(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"), r.URL.Query().Get("siteSpaceId"), emit)
	})
}
