package translator_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/aiprovider"
	"github.com/bindery/bindery/domain/translator"
	"github.com/bindery/bindery/domain/translator/translatortest"
)

const key = "sk-secret-key-123"

func client(t *testing.T, url string, mod func(*translator.Config)) *translator.Client {
	t.Helper()
	cfg := translator.Config{Backoff: time.Millisecond, MaxBackoff: 20 * time.Millisecond, Timeout: time.Second}
	if mod != nil {
		mod(&cfg)
	}
	p, err := aiprovider.New(aiprovider.Config{URL: url + "/v1", Model: "fake-model", APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	return translator.New(p, cfg)
}

func TestTranslateSpeaksChatCompletions(t *testing.T) {
	srv := translatortest.New(t)
	c := client(t, srv.URL, nil)
	got, err := c.Translate(context.Background(), translator.Request{
		SourceLanguage: "en", TargetLanguage: "fr", Instructions: "Be formal.",
		Glossary: []translator.Term{{Source: "Widget", Target: "Bidule"}},
		Texts:    []string{"Hello", "A Widget here"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"[fr] Hello", "[fr] A Bidule here"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("texts = %q, want %q", got, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Authorization != "Bearer "+key || r.Model != "fake-model" || r.Target != "fr" || r.Source != "en" {
		t.Errorf("request = %+v", r)
	}
	if !strings.Contains(r.System, `"Widget" → "Bidule"`) || !strings.Contains(r.System, "Be formal.") {
		t.Errorf("system prompt lacks the glossary or the instructions: %s", r.System)
	}
}

func TestTranslateRetriesThenSucceeds(t *testing.T) {
	srv := translatortest.New(t)
	srv.Respond = func(n int, _ translatortest.Received) translatortest.Reply {
		switch n {
		case 1:
			return translatortest.Reply{Status: 429, Body: `{"error":{"message":"slow down"}}`, Header: map[string]string{"Retry-After": "0"}}
		case 2:
			return translatortest.Reply{Status: 503, Body: `{"error":{"message":"overloaded"}}`}
		case 3:
			return translatortest.Reply{Status: 200, Body: translatortest.CompletionBody("Sure! Here you go: not json")}
		case 4:
			return translatortest.Reply{Status: 200, Body: translatortest.CompletionBody(`{"texts":["only one"]}`)}
		}
		return translatortest.Reply{}
	}
	c := client(t, srv.URL, func(c *translator.Config) { c.Attempts = 5 })
	got, err := c.Translate(context.Background(), translator.Request{TargetLanguage: "de", Texts: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "[de] a" || len(srv.Requests()) != 5 {
		t.Errorf("got %q after %d requests", got, len(srv.Requests()))
	}
}

func TestTranslateFencedJSONIsRead(t *testing.T) {
	srv := translatortest.New(t)
	srv.Respond = func(int, translatortest.Received) translatortest.Reply {
		return translatortest.Reply{Status: 200, Body: translatortest.CompletionBody("```json\n{\"texts\": [\"Bonjour\"]}\n```")}
	}
	got, err := client(t, srv.URL, nil).Translate(context.Background(), translator.Request{TargetLanguage: "fr", Texts: []string{"Hello"}})
	if err != nil || len(got) != 1 || got[0] != "Bonjour" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestTranslateErrorsAreFinalAndKeyFree(t *testing.T) {
	tests := []struct {
		name     string
		reply    translatortest.Reply
		requests int
		want     string
	}{
		{"client error is not retried", translatortest.Reply{Status: 401, Body: `{"error":{"message":"bad key ` + key + `"}}`}, 1, "answered 401: bad key [redacted]"},
		{"server errors exhaust the attempts", translatortest.Reply{Status: 500, Body: `oops`}, 3, "answered 500 (after 3 attempts)"},
		{"malformed answers exhaust the attempts", translatortest.Reply{Status: 200, Body: `{"choices":[]}`}, 3, "malformed answer"},
		{"wrong count", translatortest.Reply{Status: 200, Body: translatortest.CompletionBody(`{"texts":[]}`)}, 3, "sent 0 texts for 1"},
		{"slow answers time out", translatortest.Reply{Delay: 300 * time.Millisecond}, 3, "did not answer within 100ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := translatortest.New(t)
			srv.Respond = func(int, translatortest.Received) translatortest.Reply { return tt.reply }
			c := client(t, srv.URL, func(c *translator.Config) { c.Attempts = 3; c.Timeout = 100 * time.Millisecond })
			_, err := c.Translate(context.Background(), translator.Request{TargetLanguage: "fr", Texts: []string{"x"}})
			var pe *translator.Error
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if strings.Contains(err.Error(), key) {
				t.Errorf("the error shows the key: %v", err)
			}
			if n := len(srv.Requests()); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
		})
	}
}

func TestTranslateBoundsConcurrencyAndSplitsLongPages(t *testing.T) {
	srv := translatortest.New(t)
	srv.Respond = func(int, translatortest.Received) translatortest.Reply {
		return translatortest.Reply{Delay: 20 * time.Millisecond}
	}
	c := client(t, srv.URL, func(c *translator.Config) { c.Concurrency = 2; c.MaxBatchChars = 10 })
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := c.Translate(context.Background(), translator.Request{TargetLanguage: "fr", Texts: []string{"0123456", "789", "abcdef"}})
			if err != nil || len(got) != 3 || got[2] != "[fr] abcdef" {
				t.Errorf("got %q, %v", got, err)
			}
		}()
	}
	wg.Wait()
	if m := srv.MaxInFlight(); m > 2 {
		t.Errorf("%d requests in flight at once, want at most 2", m)
	}
	if n := len(srv.Requests()); n != 12 {
		t.Errorf("%d requests, want 12 (each page split in two)", n)
	}
}

func TestTranslateStopsWithTheContext(t *testing.T) {
	srv := translatortest.New(t)
	srv.Respond = func(int, translatortest.Received) translatortest.Reply {
		return translatortest.Reply{Status: http.StatusServiceUnavailable}
	}
	c := client(t, srv.URL, func(c *translator.Config) { c.Backoff = time.Hour; c.MaxBackoff = time.Hour })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Translate(ctx, translator.Request{TargetLanguage: "fr", Texts: []string{"x"}}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
}

func TestProviderChecksConfig(t *testing.T) {
	for _, cfg := range []aiprovider.Config{{}, {URL: "ftp://x", Model: "m"}, {URL: "http://x"}} {
		if _, err := aiprovider.New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}
