package rest_test

import (
	"encoding/json"
	"flag"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/aiprovider"
	"github.com/bindery/bindery/domain/answer"
	"github.com/bindery/bindery/domain/embedding"
)

// askQuality turns on TestAskQuality, which measures Ask over the search question set.
var askQuality = flag.Bool("ask-quality", false, "measure Ask's answers over testdata/search_questions.json (slow; see docs/ask.md)")

// TestAskQuality asks every question of the search question set (testdata/search_questions.json,
// over the Go standard library's package documentation) through Ask and reports how often the
// answer's first source is a page that answers (top-1), how often any source is (cited), and
// how often nothing was found, for retrieval by words alone and with embeddings merged in.
//
// With BINDERY_ASK_QUALITY_URL (and _MODEL, _EMBEDDING_MODEL, _API_KEY) it measures the
// operator's model. Without it, the provider is the deterministic fake (answertest): its chat
// model always cites the first passage, so top-1 then measures retrieval (the page ranked
// first after fusion), not a model's choice; its embeddings are bags of hashed words with a few
// synonyms, a stand-in for a real embedding model's meaning.
//
//	go test ./rest -run TestAskQuality -ask-quality -v
func TestAskQuality(t *testing.T) {
	if !*askQuality {
		t.Skip("run with -ask-quality")
	}
	pages, err := goDocCorpus()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("testdata/search_questions.json")
	if err != nil {
		t.Fatal(err)
	}
	var set questionSet
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	eachDB(t, func(t *testing.T, e *env) {
		fake := e.withAnswers()
		cfg := aiprovider.Config{URL: fake.URL + "/v1", Model: "fake", EmbeddingModel: "fake-embed"}
		provider := "the deterministic fake (answertest)"
		if u := os.Getenv("BINDERY_ASK_QUALITY_URL"); u != "" {
			cfg = aiprovider.Config{URL: u, Model: os.Getenv("BINDERY_ASK_QUALITY_MODEL"),
				EmbeddingModel: os.Getenv("BINDERY_ASK_QUALITY_EMBEDDING_MODEL"), APIKey: os.Getenv("BINDERY_ASK_QUALITY_API_KEY")}
			provider = aiprovider.Redact(u) + " (" + cfg.Model + ", embeddings: " + cfg.EmbeddingModel + ")"
		}
		p, err := aiprovider.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		e.res.Answers = answer.New(p, answer.Config{Timeout: 5 * time.Minute})

		orgID, admin := e.org("Go", "admin@quality.test")
		spaceID := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Standard library"}`).want(201).object()["id"].(string)
		for _, pg := range pages {
			e.createPage(admin.Token, target(spaceID, ""), map[string]any{"title": pg.Title, "markdown": pg.Markdown})
		}
		titles := map[string]string{} // page id → title
		var tree struct{ Pages []treePage }
		e.call(admin.Token, "GET", "/spaces/"+spaceID+"/content", nil).want(200).decode(&tree)
		for _, pg := range tree.Pages {
			titles[pg.ID] = pg.Title
		}

		measure := func(label string) {
			top, cited, none := 0, 0, 0
			for _, q := range set.Questions {
				var got restAnswer
				e.call(admin.Token, "POST", "/orgs/"+orgID+"/ask?format=markdown", map[string]any{"query": q.Query}).want(200).decode(&got)
				var srcs []string
				for _, s := range got.Answer.Sources {
					srcs = append(srcs, titles[s.Page])
				}
				switch {
				case len(srcs) == 0:
					none++
				case slices.Contains(q.Want, srcs[0]):
					top++
					cited++
				case slices.ContainsFunc(srcs, func(s string) bool { return slices.Contains(q.Want, s) }):
					cited++
				}
			}
			n := float64(len(set.Questions))
			t.Logf("%s, %s: top source right %.2f, a right page cited %.2f, nothing found %.2f (%d questions, %d pages; provider %s)",
				t.Name(), label, float64(top)/n, float64(cited)/n, float64(none)/n, len(set.Questions), len(pages), provider)
		}
		measure("words only")
		if cfg.EmbeddingModel != "" {
			e.res.Embeddings = embedding.New(p)
			e.embedAll()
			measure("words and embeddings")
		}
	})
}

// treePage is a page of a space's content tree, with its children.
type treePage struct {
	ID, Title string
	Pages     []treePage
}
