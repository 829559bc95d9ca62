// Package answer answers questions from documentation through the operator's OpenAI-compatible
// model (docs/ask.md). It never reads content itself: the caller retrieves the pages the asker
// may read (a Retriever, built on the search that already applies access rules), and only the
// passages cut from those pages reach the model. An answer cites the passages it used, every
// citation points at a passage that was retrieved, and when nothing relevant was retrieved, or
// the model cites nothing, the answer says so instead of inventing one.
package answer

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/aiprovider"
)

// Config says how much one answer may cost.
type Config struct {
	// Timeout bounds one answer, from the question to its last word (default 2 minutes).
	Timeout time.Duration
	// MaxTokens bounds the tokens the model may write in one answer (default 800).
	MaxTokens int
}

// Client answers through a provider, safe for concurrent use.
type Client struct {
	provider *aiprovider.Provider
	cfg      Config
}

// New returns a client of provider, cfg's zero fields taking their defaults.
func New(provider *aiprovider.Provider, cfg Config) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = 800
	}
	return &Client{provider: provider, cfg: cfg}
}

// Model is the chat model the client asks for.
func (c *Client) Model() string { return c.provider.Model() }

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
		"model": c.provider.Model(), "messages": msgs, "temperature": 0, "max_tokens": c.cfg.MaxTokens, "stream": true,
	})
	if err != nil {
		return "", err
	}
	resp, err := c.provider.Chat(ctx, body, "text/event-stream, application/json")
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
