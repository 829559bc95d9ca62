// Package translator sends text to a machine-translation model through the OpenAI-compatible
// chat-completions protocol of the operator's provider (package aiprovider).
//
// One request carries the text runs of one page (a long page is split into several requests,
// never mixed with another page). The model is asked to answer a JSON object {"texts":[…]} with
// exactly one translation per text, in order; anything else is malformed and tried again.
// Requests are bounded in number at a time and in duration, and retried with exponential back-off
// on 429, 5xx, network errors, time-outs and malformed answers.
package translator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/aiprovider"
)

// Config says how hard to use the provider.
type Config struct {
	// Concurrency bounds the requests in flight at once, across every run (default 4).
	Concurrency int
	// Timeout bounds one request, answer included (default 2 minutes).
	Timeout time.Duration
	// Attempts is how many times a request is tried before its error is final (default 4).
	Attempts int
	// Backoff is the first retry's delay, doubled (with jitter) at each retry (default 1s);
	// a Retry-After header, when sent, wins, up to MaxBackoff.
	Backoff time.Duration
	// MaxBackoff caps a retry's delay (default 30s).
	MaxBackoff time.Duration
	// MaxBatchChars splits a page's texts into several requests above this many characters
	// (default 12000).
	MaxBatchChars int
}

// Client translates through a provider. It is safe for concurrent use.
type Client struct {
	provider *aiprovider.Provider
	cfg      Config
	slots    chan struct{}
}

// New returns a client of provider, cfg's zero fields taking their defaults.
func New(provider *aiprovider.Provider, cfg Config) *Client {
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 4
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	if cfg.Attempts <= 0 {
		cfg.Attempts = 4
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = time.Second
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = 30 * time.Second
	}
	if cfg.MaxBatchChars <= 0 {
		cfg.MaxBatchChars = 12000
	}
	return &Client{provider: provider, cfg: cfg, slots: make(chan struct{}, cfg.Concurrency)}
}

// Model is the model the client asks for.
func (c *Client) Model() string { return c.provider.Model() }

// Term is a glossary entry the translation must use: Source in the source text is written
// Target in the translation.
type Term struct {
	Source string `json:"source"`
	Target string `json:"target"`
}

// Request is the text of one page to translate.
type Request struct {
	SourceLanguage string // language code; empty: let the model tell
	TargetLanguage string
	Instructions   string // the translation's own instructions, plain text
	Glossary       []Term
	Texts          []string
}

// Error is a provider failure, worded for the run's history: it never holds the key.
type Error struct {
	Msg       string
	Retryable bool
}

func (e *Error) Error() string { return e.Msg }

// Translate returns one translation per text, in order. Errors: *Error, or the context's error.
func (c *Client) Translate(ctx context.Context, req Request) ([]string, error) {
	out := make([]string, 0, len(req.Texts))
	for _, batch := range c.batches(req.Texts) {
		part := req
		part.Texts = batch
		got, err := c.translateBatch(ctx, part)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

// batches splits texts into requests of at most MaxBatchChars characters (a longer text goes
// alone).
func (c *Client) batches(texts []string) [][]string {
	var out [][]string
	var cur []string
	size := 0
	for _, t := range texts {
		if len(cur) > 0 && size+len(t) > c.cfg.MaxBatchChars {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, t)
		size += len(t)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func (c *Client) translateBatch(ctx context.Context, req Request) ([]string, error) {
	body, err := json.Marshal(c.chatRequest(req))
	if err != nil {
		return nil, &Error{Msg: "encode translation request: " + err.Error()}
	}
	var last error
	for attempt := 0; attempt < c.cfg.Attempts; attempt++ {
		if attempt > 0 {
			if err := sleep(ctx, c.delay(attempt, last)); err != nil {
				return nil, err
			}
		}
		texts, err := c.once(ctx, body, len(req.Texts))
		if err == nil {
			return texts, nil
		}
		var pe *Error
		if !errors.As(err, &pe) || !pe.Retryable {
			return nil, err
		}
		last = err
	}
	return nil, &Error{Msg: fmt.Sprintf("%s (after %d attempts)", last.Error(), c.cfg.Attempts)}
}

// once sends one request, holding one of the client's slots while it is in flight.
func (c *Client) once(ctx context.Context, body []byte, want int) ([]string, error) {
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.slots }()
	reqCtx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	resp, err := c.provider.Chat(reqCtx, body, "application/json")
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if reqCtx.Err() != nil {
			return nil, &Error{Msg: fmt.Sprintf("translation provider did not answer within %s", c.cfg.Timeout), Retryable: true}
		}
		return nil, &Error{Msg: "translation provider unreachable", Retryable: true}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &Error{Msg: "translation provider's answer could not be read", Retryable: true}
	}
	if resp.StatusCode != http.StatusOK {
		e := &Error{Msg: fmt.Sprintf("translation provider answered %d%s", resp.StatusCode, c.detail(raw)),
			Retryable: resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500}
		if ra := retryAfter(resp.Header.Get("Retry-After")); ra > 0 {
			return nil, &retryLater{err: e, after: ra}
		}
		return nil, e
	}
	return c.parse(raw, want)
}

// retryLater is a retryable error that came with a Retry-After delay.
type retryLater struct {
	err   *Error
	after time.Duration
}

func (e *retryLater) Error() string { return e.err.Msg }
func (e *retryLater) Unwrap() error { return e.err }

// delay is how long to wait before the given attempt (1-based retries).
func (c *Client) delay(attempt int, last error) time.Duration {
	var rl *retryLater
	if errors.As(last, &rl) {
		return min(rl.after, c.cfg.MaxBackoff)
	}
	d := c.cfg.Backoff << (attempt - 1)
	d += time.Duration(rand.Int64N(int64(d)/2 + 1))
	return min(d, c.cfg.MaxBackoff)
}

func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return time.Until(t)
	}
	return 0
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// detail is a short, key-free excerpt of an error answer's message.
func (c *Client) detail(raw []byte) string {
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	msg := ""
	if json.Unmarshal(raw, &body) == nil && len(body.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(body.Error, &obj) == nil && obj.Message != "" {
			msg = obj.Message
		} else {
			_ = json.Unmarshal(body.Error, &msg)
		}
	}
	msg = c.redact(strings.TrimSpace(msg))
	if msg == "" {
		return ""
	}
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return ": " + msg
}

// redact removes the key from text a provider sent back.
func (c *Client) redact(s string) string {
	if key := c.provider.Secret(); key != "" {
		s = strings.ReplaceAll(s, key, "[redacted]")
	}
	return s
}

// chatRequest is the chat-completions request for one batch.
func (c *Client) chatRequest(req Request) map[string]any {
	payload, _ := json.Marshal(struct {
		Source   string   `json:"sourceLanguage,omitempty"`
		Target   string   `json:"targetLanguage"`
		Glossary []Term   `json:"glossary,omitempty"`
		Texts    []string `json:"texts"`
	}{req.SourceLanguage, req.TargetLanguage, req.Glossary, req.Texts})
	return map[string]any{
		"model":       c.provider.Model(),
		"temperature": 0,
		"stream":      false,
		"messages": []map[string]string{
			{"role": "system", "content": systemPrompt(req)},
			{"role": "user", "content": string(payload)},
		},
	}
}

func systemPrompt(req Request) string {
	var b strings.Builder
	from := req.SourceLanguage
	if from == "" {
		from = "the source language"
	}
	fmt.Fprintf(&b, "You translate documentation from %s into the language with code %q.\n", from, req.TargetLanguage)
	b.WriteString("The user sends a JSON object whose \"texts\" array holds pieces of one page, in order. ")
	b.WriteString("Answer with only a JSON object {\"texts\": [...]} holding exactly one translation per piece, in the same order: ")
	b.WriteString("no other text, no markdown, no code fences. Translate each piece on its own; keep its meaning, tone, ")
	b.WriteString("punctuation and leading or trailing punctuation; keep product names, code identifiers and numbers as they are.\n")
	if len(req.Glossary) > 0 {
		b.WriteString("Glossary: wherever a source term occurs, its translation must be exactly the given target term:\n")
		for _, t := range req.Glossary {
			fmt.Fprintf(&b, "- %q → %q\n", t.Source, t.Target)
		}
	}
	if s := strings.TrimSpace(req.Instructions); s != "" {
		b.WriteString("Instructions from the documentation's owners:\n")
		b.WriteString(s)
		b.WriteByte('\n')
	}
	return b.String()
}

// parse reads a chat-completions answer and the {"texts":[…]} object its message holds.
func (c *Client) parse(raw []byte, want int) ([]string, error) {
	var resp struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil || len(resp.Choices) == 0 {
		return nil, &Error{Msg: "translation provider sent a malformed answer (not a chat completion)", Retryable: true}
	}
	content := strings.TrimSpace(resp.Choices[0].Message.Content)
	// Models often wrap JSON in a code fence or a sentence: read the outermost object.
	if i, j := strings.IndexByte(content, '{'), strings.LastIndexByte(content, '}'); i >= 0 && j > i {
		content = content[i : j+1]
	}
	var out struct {
		Texts []json.RawMessage `json:"texts"`
	}
	if err := json.Unmarshal([]byte(content), &out); err != nil || out.Texts == nil {
		reason := ""
		if resp.Choices[0].FinishReason == "length" {
			reason = ", cut short by the model's length limit"
		}
		return nil, &Error{Msg: "translation provider sent a malformed answer (no JSON texts array" + reason + ")", Retryable: true}
	}
	if len(out.Texts) != want {
		return nil, &Error{Msg: fmt.Sprintf("translation provider sent %d texts for %d", len(out.Texts), want), Retryable: true}
	}
	texts := make([]string, want)
	for i, t := range out.Texts {
		if err := json.Unmarshal(t, &texts[i]); err != nil {
			return nil, &Error{Msg: fmt.Sprintf("translation provider sent a malformed answer (text %d is not a string)", i), Retryable: true}
		}
	}
	return texts, nil
}
