package main

import (
	"context"
	"testing"

	"github.com/urfave/cli/v3"
)

// TestAIProviderFlags: one provider setting, read under its own names and under the translation
// flags' older names (flags and environment alike).
func TestAIProviderFlags(t *testing.T) {
	parse := func(args ...string) aiConfig {
		t.Helper()
		c := &config{}
		cmd := &cli.Command{Name: "serve", Flags: c.serveFlags(), Action: func(context.Context, *cli.Command) error { return nil }}
		if err := cmd.Run(context.Background(), append([]string{"serve"}, args...)); err != nil {
			t.Fatal(err)
		}
		return c.Serve.AI
	}
	if got := parse("--ai-url", "http://localhost:11434/v1", "--ai-model", "qwen", "--ai-embedding-model", "nomic", "--ai-api-key", "k"); got.URL != "http://localhost:11434/v1" ||
		got.Model != "qwen" || got.EmbeddingModel != "nomic" || got.APIKey != "k" {
		t.Errorf("--ai-*: %+v", got)
	}
	if got := parse("--translate-url", "http://old/v1", "--translate-model", "m", "--translate-api-key", "k2"); got.URL != "http://old/v1" || got.Model != "m" || got.APIKey != "k2" {
		t.Errorf("--translate-*: %+v", got)
	}
	t.Setenv("BINDERY_TRANSLATE_URL", "http://env-old/v1")
	t.Setenv("BINDERY_AI_MODEL", "env-model")
	if got := parse(); got.URL != "http://env-old/v1" || got.Model != "env-model" {
		t.Errorf("environment: %+v", got)
	}
}
