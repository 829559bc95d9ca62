// Package aiprovider is the one OpenAI-compatible model server Bindery's AI features call
// (translations and Ask): where it is, which model, and the key. Hosted services and local model
// servers (Ollama, vLLM, llama.cpp's server) speak the protocol alike. The key goes only into the
// Authorization header: no error, log line or answer carries it.
package aiprovider

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// Config says where the model server is.
type Config struct {
	// URL is the server's OpenAI-compatible base URL (http://localhost:11434/v1), or its full
	// chat-completions endpoint (…/v1/chat/completions).
	URL string
	// Model is the chat model the server knows (llama3.1, Qwen/Qwen2.5-7B-Instruct, gpt-4o-mini).
	Model string
	// EmbeddingModel is the embedding model the server knows (nomic-embed-text, bge-m3); empty
	// when none is configured.
	EmbeddingModel string
	// APIKey is sent as a bearer token when set. Local servers usually need none.
	APIKey string
	// HTTPClient is the client requests go through (default: a new http.Client).
	HTTPClient *http.Client
}

// Provider is a configured model server, safe for concurrent use.
type Provider struct {
	cfg        Config
	chat       string // the chat-completions endpoint
	embeddings string // the embeddings endpoint
}

// New checks cfg and returns the provider. Errors name the setting at fault.
func New(cfg Config) (*Provider, error) {
	u, err := url.Parse(cfg.URL)
	if cfg.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("AI provider: the URL must be an http(s) URL")
	}
	if cfg.Model == "" {
		return nil, errors.New("AI provider: a model name is required")
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	base := strings.TrimSuffix(strings.TrimRight(cfg.URL, "/"), "/chat/completions")
	return &Provider{cfg: cfg, chat: base + "/chat/completions", embeddings: base + "/embeddings"}, nil
}

// Model is the chat model requests ask for.
func (p *Provider) Model() string { return p.cfg.Model }

// EmbeddingModel is the embedding model, empty when none is configured.
func (p *Provider) EmbeddingModel() string { return p.cfg.EmbeddingModel }

// URL is the provider's address fit for logs (Redact).
func (p *Provider) URL() string { return Redact(p.cfg.URL) }

// Chat posts a chat-completions request body (JSON) and returns the provider's response, whatever
// its status; accept names the answers the caller reads (application/json, text/event-stream).
// Errors: those of the HTTP client (the context's among them).
func (p *Provider) Chat(ctx context.Context, body []byte, accept string) (*http.Response, error) {
	return p.post(ctx, p.chat, body, accept)
}

func (p *Provider) post(ctx context.Context, endpoint string, body []byte, accept string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	if p.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.cfg.APIKey)
	}
	return p.cfg.HTTPClient.Do(req)
}

// Embed posts an embeddings request body (JSON) and returns the provider's response, whatever its
// status. Errors: those of the HTTP client (the context's among them).
func (p *Provider) Embed(ctx context.Context, body []byte) (*http.Response, error) {
	return p.post(ctx, p.embeddings, body, "application/json")
}

// Redact is a URL fit for logs: without any user or password it holds.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User = nil
	return u.String()
}

// Secret is the API key, for callers that must keep it out of what they show (a provider's
// error text may echo the request).
func (p *Provider) Secret() string { return p.cfg.APIKey }
