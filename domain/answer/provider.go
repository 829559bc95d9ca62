// Package answer answers questions from documentation through the operator's OpenAI-compatible
// model (docs/ask.md). It never reads content itself: the caller retrieves the pages the asker
// may read (a Retriever, built on the search that already applies access rules), and only the
// passages cut from those pages reach the model. An answer cites the passages it used, every
// citation points at a passage that was retrieved, and when nothing relevant was retrieved, or
// the model cites nothing, the answer says so instead of inventing one.
package answer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Config says where the model server is and how much one answer may cost.
type Config struct {
	// URL is the provider's OpenAI-compatible base URL (http://localhost:11434/v1) or its full
	// chat-completions endpoint.
	URL string
	// Model is the chat model name the server knows.
	Model string
	// APIKey is sent as a bearer token when set.
	APIKey string
	// Timeout bounds one answer, from the question to its last word (default 2 minutes).
	Timeout time.Duration
	// MaxTokens bounds the tokens the model may write in one answer (default 800).
	MaxTokens int
	// HTTPClient is the client requests go through (default: a new http.Client).
	HTTPClient *http.Client
}

// Client is a configured provider, safe for concurrent use.
type Client struct {
	cfg      Config
	endpoint string
}

// New checks cfg and returns a client. Errors name the setting at fault.
func New(cfg Config) (*Client, error) {
	u, err := url.Parse(cfg.URL)
	if cfg.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("AI provider: the URL must be an http(s) URL")
	}
	if cfg.Model == "" {
		return nil, errors.New("AI provider: a model name is required")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = 800
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	endpoint := strings.TrimRight(cfg.URL, "/")
	if !strings.HasSuffix(endpoint, "/chat/completions") {
		endpoint += "/chat/completions"
	}
	return &Client{cfg: cfg, endpoint: endpoint}, nil
}

// Model is the chat model the client asks for.
func (c *Client) Model() string { return c.cfg.Model }

// Message is one message of a chat.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ProviderError is a failure of the model server, worded for the asker: it never holds the key
// nor the provider's own error text (which may echo the prompt).
type ProviderError struct{ Msg string }

func (e *ProviderError) Error() string { return e.Msg }

// maxReply bounds the bytes read from the provider for one answer, whatever it sends.
const maxReply = 1 << 20

// chat sends msgs and returns the model's reply, calling onDelta with each piece as it streams
// (the provider may also answer in one piece). Errors: *ProviderError, or the context's error.
func (c *Client) chat(ctx context.Context, msgs []Message, onDelta func(string)) (string, error) {
	body, err := json.Marshal(map[string]any{
		"model": c.cfg.Model, "messages": msgs, "temperature": 0, "max_tokens": c.cfg.MaxTokens, "stream": true,
	})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream, application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", &ProviderError{Msg: "the AI provider could not be reached"}
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return "", &ProviderError{Msg: fmt.Sprintf("the AI provider answered %d", resp.StatusCode)}
	}
	in := io.LimitReader(resp.Body, maxReply)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var out struct {
			Choices []struct {
				Message Message `json:"message"`
			} `json:"choices"`
		}
		if err := json.NewDecoder(in).Decode(&out); err != nil || len(out.Choices) == 0 {
			return "", readErr(ctx, "the AI provider's answer could not be read")
		}
		onDelta(out.Choices[0].Message.Content)
		return out.Choices[0].Message.Content, nil
	}
	var text strings.Builder
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxReply)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		if !ok {
			continue
		}
		data = strings.TrimSpace(data)
		if data == "[DONE]" {
			return text.String(), nil
		}
		var chunk struct {
			Choices []struct {
				Delta Message `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return "", &ProviderError{Msg: "the AI provider's answer could not be read"}
		}
		if len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content != "" {
			text.WriteString(chunk.Choices[0].Delta.Content)
			onDelta(chunk.Choices[0].Delta.Content)
		}
	}
	if err := sc.Err(); err != nil {
		return "", readErr(ctx, "the AI provider's answer was cut off")
	}
	return text.String(), nil // a stream that ends without [DONE] still said what it said
}

// readErr is the context's error when it ended the read, or a ProviderError.
func readErr(ctx context.Context, msg string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return &ProviderError{Msg: msg}
}
