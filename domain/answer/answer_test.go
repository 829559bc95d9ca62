package answer_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/aiprovider"
	"github.com/bindery/bindery/domain/answer"
	"github.com/bindery/bindery/domain/answer/answertest"
)

var pages = []answer.Page{
	{SpaceID: "s1", RevisionID: "r1", PageID: "p1", Title: "Tokens", URL: "https://docs.example/tokens",
		Markdown: "Intro.\n\n## Create a token {#create}\n\nRun bindery admin token create to create an API token.\n\n## Revoke {#revoke}\n\nRevoke with bindery admin token revoke.\n"},
	{SpaceID: "s1", RevisionID: "r1", PageID: "p2", Title: "Install", URL: "https://docs.example/install",
		Markdown: "Download the binary and run it.\n"},
}

func retrieveAll(ctx context.Context, q string, limit int) ([]answer.Page, error) { return pages, nil }

func client(t *testing.T, fake *answertest.Server) *answer.Client {
	p, err := aiprovider.New(aiprovider.Config{URL: fake.URL + "/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	return answer.New(p, answer.Config{Timeout: 5 * time.Second})
}

func TestAskCitesRetrievedPassagesOnly(t *testing.T) {
	fake := answertest.New(t)
	fake.Reply = func(user string) string {
		if !strings.Contains(user, "[1] Tokens › Create a token") {
			t.Errorf("prompt does not number the token section first:\n%s", user)
		}
		return "Run the create command [1]. Ignore [9]. Downloads are simple [3]."
	}
	got, err := client(t, fake).Ask(context.Background(), answer.Question{Text: "How do I create a token?"}, retrieveAll, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Found || len(got.Sources) != 2 {
		t.Fatalf("answer = %+v, want two sources", got)
	}
	if s := got.Sources[0]; s.PageID != "p1" || len(s.Sections) != 1 || s.Sections[0] != "create" {
		t.Errorf("first source = %+v, want p1#create", s)
	}
	want := "Run the create command [1](https://docs.example/tokens#create). Ignore . Downloads are simple [2](https://docs.example/install)."
	if got.Markdown != want {
		t.Errorf("Markdown = %q, want %q", got.Markdown, want)
	}
}

func TestAskRefusesWithoutPassages(t *testing.T) {
	fake := answertest.New(t)
	none := func(ctx context.Context, q string, limit int) ([]answer.Page, error) { return nil, nil }
	got, err := client(t, fake).Ask(context.Background(), answer.Question{Text: "What is the meaning of life?"}, none, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Found || got.Markdown != answer.NothingFound || len(got.Sources) != 0 {
		t.Errorf("answer = %+v, want nothing found", got)
	}
	if n := len(fake.Prompts()); n != 0 {
		t.Errorf("the model was asked %d times with nothing retrieved", n)
	}
}

func TestAskRefusesWhenTheModelCitesNothing(t *testing.T) {
	for _, reply := range []string{"NOT_FOUND", "I think it is 42.", "See [7]."} {
		fake := answertest.New(t)
		fake.Reply = func(string) string { return reply }
		got, err := client(t, fake).Ask(context.Background(), answer.Question{Text: "token?"}, retrieveAll, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got.Found || got.Markdown != answer.NothingFound {
			t.Errorf("reply %q: answer = %+v, want nothing found", reply, got)
		}
	}
}

func TestAskStreams(t *testing.T) {
	for _, noStream := range []bool{false, true} {
		fake := answertest.New(t)
		fake.NoStream = noStream
		fake.Reply = func(string) string { return "Use the admin command to create one [1]." }
		var seen []string
		got, err := client(t, fake).Ask(context.Background(), answer.Question{Text: "create token"}, retrieveAll, func(a *answer.Answer) { seen = append(seen, a.Markdown) })
		if err != nil {
			t.Fatal(err)
		}
		if noStream && len(seen) < 1 || !noStream && len(seen) < 3 {
			t.Errorf("noStream=%v: %d partial answers, want more", noStream, len(seen))
		}
		if seen[len(seen)-1] != got.Markdown {
			t.Errorf("last partial %q is not the answer %q", seen[len(seen)-1], got.Markdown)
		}
	}
}

func TestAskNeverStreamsTheRefusalSentinel(t *testing.T) {
	fake := answertest.New(t)
	fake.Reply = func(string) string { return "NOT_FOUND" }
	_, err := client(t, fake).Ask(context.Background(), answer.Question{Text: "x token"}, retrieveAll, func(a *answer.Answer) {
		if strings.Contains(a.Markdown, "NOT") {
			t.Errorf("partial answer %q shows the sentinel", a.Markdown)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestAskCancelled(t *testing.T) {
	fake := answertest.New(t)
	fake.Block = true
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := client(t, fake).Ask(ctx, answer.Question{Text: "token"}, retrieveAll, nil)
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Ask did not end when cancelled")
	}
	select {
	case <-fake.Cancelled():
	case <-time.After(3 * time.Second):
		t.Fatal("the provider's request was not cancelled")
	}
}

func TestAskValidates(t *testing.T) {
	c := client(t, answertest.New(t))
	for _, q := range []answer.Question{{Text: " "}, {Text: strings.Repeat("a", 513)}, {Text: "a", Previous: make([]string, 11)}} {
		if _, err := c.Ask(context.Background(), q, retrieveAll, nil); err == nil {
			t.Errorf("question %.20q accepted", q.Text)
		}
	}
}

func TestRecommend(t *testing.T) {
	fake := answertest.New(t)
	fake.Reply = func(string) string {
		return "1. How do I create a token?\n- How do I install?\nnot a question\nHow do I create a token?"
	}
	var seen []string
	got, err := client(t, fake).Recommend(context.Background(), pages, func(q string) { seen = append(seen, q) })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "|") != "How do I create a token?|How do I install?" || len(seen) != 2 {
		t.Errorf("questions = %q (streamed %q)", got, seen)
	}
}
