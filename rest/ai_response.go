package rest

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"unicode/utf8"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/answer"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"
	"github.com/go-chi/chi/v5"
)

// streamAIResponseInSite (docs/ask.md, "Conversations") answers a conversation's last message
// from the site as published, as the contract's AIStreamResponse events: response_start, the
// search step (response_tool_call), the answer's blocks as they are written (response_document)
// and response_finish. The conversation is carried by the client: a responseId holds the
// questions asked so far, so any server answers the next message.

// aiResponseInput is the operation's body.
type aiResponseInput struct {
	PreviousResponseID string            `json:"previousResponseId"`
	Input              []aiMessageInput  `json:"input"`
	Model              string            `json:"model"`
	Tools              []json.RawMessage `json:"tools"`
	ToolCall           json.RawMessage   `json:"toolCall"`
}

type aiMessageInput struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// Bounds of a conversation message (the contract's) and of the questions a responseId keeps.
const (
	maxAIMessage     = 2048
	maxConversation  = answer.MaxPrevious
	maxResponseIDLen = 64 << 10
)

// question reads the conversation: the earlier questions (the previous response's, then the
// input's) and the last one. Errors: Invalid.
func (in aiResponseInput) question() (answer.Question, error) {
	if len(in.Tools) > 0 || len(in.ToolCall) > 0 && string(in.ToolCall) != "null" {
		return answer.Question{}, apperr.Invalidf("tools", "client-side tools are not supported by this server")
	}
	if in.Model != "" && !slices.Contains([]string{"fast", "reasoning-low", "reasoning-medium", "reasoning-high"}, in.Model) {
		return answer.Question{}, apperr.Invalidf("model", "must be fast, reasoning-low, reasoning-medium or reasoning-high")
	}
	if len(in.Input) == 0 {
		return answer.Question{}, apperr.Invalidf("input", "must hold at least one message")
	}
	var asked []string
	if in.PreviousResponseID != "" {
		var err error
		if asked, err = conversationOf(in.PreviousResponseID); err != nil {
			return answer.Question{}, err
		}
	}
	for _, m := range in.Input {
		var text string
		if m.Role != "user" {
			return answer.Question{}, apperr.Invalidf("input.role", `must be "user"`)
		}
		if err := json.Unmarshal(m.Content, &text); err != nil {
			return answer.Question{}, apperr.Invalidf("input.content", "must be text: documents are not supported by this server")
		}
		if utf8.RuneCountInString(text) > maxAIMessage {
			return answer.Question{}, apperr.Invalidf("input.content", "must be at most %d characters", maxAIMessage)
		}
		asked = append(asked, text)
	}
	previous := asked[:len(asked)-1]
	if len(previous) > maxConversation {
		previous = previous[len(previous)-maxConversation:]
	}
	return answer.Question{Text: asked[len(asked)-1], Previous: previous, Max: maxAIMessage}, nil
}

// responseID is the conversation so far, for the next message to continue from.
func responseID(q answer.Question) string {
	b, _ := json.Marshal(append(slices.Clone(q.Previous), q.Text))
	return base64.RawURLEncoding.EncodeToString(b)
}

// conversationOf reads a responseId back. Errors: Invalid.
func conversationOf(id string) ([]string, error) {
	var asked []string
	b, err := base64.RawURLEncoding.DecodeString(id)
	if err != nil || len(id) > maxResponseIDLen || json.Unmarshal(b, &asked) != nil || len(asked) > maxConversation+1 {
		return nil, apperr.Invalidf("previousResponseId", "is not a response of this server")
	}
	return asked, nil
}

func newMessageID() string {
	b := make([]byte, 10)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// streamAIResponseInSite answers POST /orgs/{organizationId}/sites/{siteId}/ai/response.
func (a *api) streamAIResponseInSite(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in aiResponseInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	q, err := in.question()
	if err != nil {
		return 0, nil, err
	}
	if err := q.Validate(); err != nil {
		return 0, nil, err
	}
	s := &eventStream{w: w}
	msg := newMessageID()
	start := func() {
		if !s.started {
			s.send(map[string]any{"type": "response_start", "messageId": msg})
		}
	}
	var sent []document.Node // the answer's blocks as last sent
	blocks := func(md string) {
		nodes := document.Contract(document.FromMarkdown(md, nil)).Nodes
		event := func(op string, b []document.Node) {
			s.send(map[string]any{"type": "response_document", "messageId": msg, "stepIndex": 1, "operation": op, "blocks": b})
		}
		switch {
		case len(sent) == 0 && len(nodes) > 0:
			event("insert", nodes)
		case len(nodes) < len(sent): // the answer was replaced (a refusal): all of it anew
			event("update", nodes)
		case len(nodes) > 0:
			last := len(sent) - 1
			if was, now := mustJSON(sent[last]), mustJSON(nodes[last]); was != now {
				event("update", nodes[last:last+1])
			}
			if len(nodes) > len(sent) {
				event("insert", nodes[len(sent):])
			}
		}
		sent = nodes
	}
	var last *answer.Answer
	final, err := a.res.AskInSite(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"), q, domain.SiteAskScope{Mode: "all"},
		func(pages []answer.Page) {
			start()
			results := []map[string]string{}
			for _, p := range pages {
				results = append(results, map[string]string{"spaceId": p.SpaceID, "pageId": p.PageID, "revisionId": p.RevisionID, "title": p.Title})
			}
			s.send(map[string]any{"type": "response_tool_call", "messageId": msg, "stepIndex": 0,
				"toolCall": map[string]any{"tool": "search", "query": q.Text, "results": results}})
		},
		func(ans *answer.Answer) {
			start()
			last = ans
			blocks(ans.Markdown)
		})
	if err == nil {
		start()
		if final != last {
			blocks(final.Markdown)
		}
		s.send(map[string]any{"type": "response_finish", "messageId": msg, "responseId": responseID(q)})
	}
	return s.end(r, err)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
