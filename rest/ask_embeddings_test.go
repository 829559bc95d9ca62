package rest_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bindery/bindery/domain/aiprovider"
	"github.com/bindery/bindery/domain/answer"
	"github.com/bindery/bindery/domain/answer/answertest"
	"github.com/bindery/bindery/domain/embedding"
)

// withEmbeddings gives the server a fake AI provider with an embedding model: its vectors place
// synonyms together (answertest.Vector).
func (e *env) withEmbeddings() *answertest.Server {
	e.t.Helper()
	fake := e.withAnswers()
	p, err := aiprovider.New(aiprovider.Config{URL: fake.URL + "/v1", Model: "fake", EmbeddingModel: "fake-embed"})
	if err != nil {
		e.t.Fatal(err)
	}
	e.res.Embeddings = embedding.New(p)
	return fake
}

// embedAll queues the spaces that changed and runs their embedding jobs; it returns how many
// spaces were queued.
func (e *env) embedAll() int {
	e.t.Helper()
	n, err := e.res.QueueEmbeddings(e.t.Context())
	if err != nil {
		e.t.Fatalf("queue embeddings: %v", err)
	}
	e.runJobs()
	return n
}

func TestEmbeddingsOnlyChangedPagesAreEmbeddedAgain(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newAskOrg(e)
		other := e.createPage(o.admin.Token, target(o.guides, ""), map[string]any{"title": "Webhooks", "markdown": "Webhooks tell your server about changes.\n\n## Signatures\n\nEach delivery is signed.\n"})
		fake := e.withEmbeddings()
		if n := e.embedAll(); n != 2 {
			t.Errorf("first sweep queued %d spaces, want 2", n)
		}
		first := fake.Embedded()
		titles := map[string]int{}
		for _, in := range first {
			titles[strings.SplitN(strings.SplitN(in, "\n", 2)[0], " › ", 2)[0]]++
		}
		if titles["API tokens"] == 0 || titles["Webhooks"] == 0 || titles["API token launch codes"] == 0 {
			t.Fatalf("first embeddings = %q", first)
		}
		if n := e.embedAll(); n != 0 || len(fake.Embedded()) != len(first) {
			t.Errorf("nothing changed: %d spaces queued, %d more inputs embedded", n, len(fake.Embedded())-len(first))
		}

		// One page edited: its chunks alone are embedded again, in its space alone.
		e.updatePage(o.admin.Token, target(o.guides, ""), other, map[string]any{"markdown": "Webhooks tell your server about changes.\n\n## Retries\n\nFailed deliveries are retried.\n"}).ok(nil)
		if n := e.embedAll(); n != 1 {
			t.Errorf("after an edit %d spaces were queued, want 1", n)
		}
		again := fake.Embedded()[len(first):]
		if len(again) == 0 {
			t.Fatal("the edited page was not embedded again")
		}
		for _, in := range again {
			if !strings.HasPrefix(in, "Webhooks") {
				t.Errorf("embedded again though unchanged: %q", in)
			}
		}
		if !strings.Contains(strings.Join(again, "\n"), "Retries") {
			t.Errorf("the new text was not embedded: %q", again)
		}
	})
}

func TestAskFindsByMeaningWhatTheAskerMayRead(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newAskOrg(e)
		fake := e.withEmbeddings()
		// No word of the question is in any page: lexical search alone finds nothing.
		const question = `{"query":"Where do I invalidate my credential?"}`
		var got restAnswer
		e.call(o.guest.Token, "POST", "/orgs/"+o.org+"/ask?format=markdown", question).want(200).decode(&got)
		if got.Answer.Answer.Markdown != answer.NothingFound {
			t.Fatalf("before embedding: %+v, want nothing found", got.Answer)
		}
		e.embedAll()
		e.call(o.guest.Token, "POST", "/orgs/"+o.org+"/ask?format=markdown", question).want(200).decode(&got)
		if s := got.Answer.Sources; len(s) == 0 || s[0].Page != o.tokensPage || len(s[0].Sections) != 1 || s[0].Sections[0] != "revoke-a-token" {
			t.Fatalf("sources = %+v, want the API tokens page's section found by meaning first", s)
		}
		// GraphQL asks the same way.
		var g struct {
			Organization struct {
				Ask struct {
					Found   bool
					Sources []struct{ PageID string }
				}
			}
		}
		e.gql(o.guest.Token, `query($o: ID!) { organization(id: $o) { ask(query: "Where do I invalidate my credential?") { found sources { pageId } } } }`,
			map[string]any{"o": o.org}).ok(&g)
		if a := g.Organization.Ask; !a.Found || len(a.Sources) == 0 || a.Sources[0].PageID != o.tokensPage {
			t.Errorf("GraphQL answer = %+v", a)
		}
		for _, p := range fake.Prompts() {
			if strings.Contains(p, "swordfish") {
				t.Fatalf("a page the guest may not read reached the model:\n%s", p)
			}
		}
		// The closed space's page is near the question too: the admin gets it, the guest never.
		const near = `{"query":"Which launch codes invalidate a credential?"}`
		before := len(fake.Prompts())
		e.call(o.guest.Token, "POST", "/orgs/"+o.org+"/ask?format=markdown", near).want(200).decode(&got)
		for _, p := range fake.Prompts()[before:] {
			if strings.Contains(p, "swordfish") {
				t.Fatalf("a page the guest may not read was retrieved by meaning:\n%s", p)
			}
		}
		e.call(o.admin.Token, "POST", "/orgs/"+o.org+"/ask?format=markdown", near).want(200).decode(&got)
		if last := fake.Prompts()[len(fake.Prompts())-1]; !strings.Contains(last, "swordfish") {
			t.Errorf("the admin's prompt lacks the closed page they may read:\n%s", last)
		}

		// A vector computed from content since changed is not used: the page's old meaning no
		// longer retrieves it until it is embedded again.
		e.updatePage(o.admin.Token, target(o.guides, ""), o.tokensPage, map[string]any{"markdown": "Nothing here anymore."}).ok(nil)
		e.call(o.guest.Token, "POST", "/orgs/"+o.org+"/ask?format=markdown", question).want(200).decode(&got)
		if got.Answer.Answer.Markdown != answer.NothingFound {
			t.Errorf("a stale vector retrieved a page: %+v", got.Answer)
		}
	})
}

// With embeddings, an answer costs the lexical retrieval's statements and one more (the
// vectors), however many spaces and pages are in reach.
func TestAskWithEmbeddingsStatements(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Count", "admin@count.test")
		e.withEmbeddings()
		count := func() int64 {
			var n atomic.Int64
			e.callCounted(admin.Token, "POST", "/orgs/"+orgID+"/ask", `{"query":"how do credentials work"}`, &n).want(200)
			return n.Load()
		}
		add := func(n int) {
			for i := range n {
				sp := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Space"}`).want(201).object()["id"].(string)
				e.createPage(admin.Token, target(sp, ""), map[string]any{"title": fmt.Sprintf("Tokens %d", i), "markdown": "## Tokens\n\nTokens work like keys.\n\n## Scopes\n\nScopes narrow a token."})
			}
			e.embedAll()
		}
		add(2)
		count() // the first request of a token also records its use
		few := count()
		add(10)
		count()
		if many := count(); many > few {
			t.Errorf("statements: %d with 2 spaces, %d with 12", few, many)
		}
	})
}
