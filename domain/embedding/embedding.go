// Package embedding retrieves by meaning (docs/ask.md): pages are cut into chunks at their
// headings, each chunk is turned into a vector by the operator's model server (its
// OpenAI-compatible /embeddings endpoint), and a question's vector is compared with the chunks'
// (cosine similarity). The semantic ranking is merged with the lexical one by reciprocal rank
// fusion. Vectors are unit length, so cosine similarity is a dot product.
package embedding

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/aiprovider"
	"github.com/bindery/bindery/domain/document"
)

// Bounds of what is embedded.
const (
	MaxChunkRunes = 2000 // one chunk's text (its page and section titles included)
	MaxChunks     = 64   // chunks of one page
	batch         = 32   // inputs of one request
	maxResponse   = 64 << 20
)

// Client embeds texts through a provider's embedding model, safe for concurrent use.
type Client struct {
	provider *aiprovider.Provider
}

// New returns a client of provider's embedding model, or nil when it has none.
func New(provider *aiprovider.Provider) *Client {
	if provider == nil || provider.EmbeddingModel() == "" {
		return nil
	}
	return &Client{provider: provider}
}

// Model is the embedding model; vectors of different models are never compared.
func (c *Client) Model() string { return c.provider.EmbeddingModel() }

// Error is a failure of the model server, worded for logs and answers: it never holds the key
// nor the provider's own error text.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Embed returns one unit vector per text, in order, a request per 32 texts. Errors: *Error, or
// the context's error.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += batch {
		part := texts[start:min(start+batch, len(texts))]
		vecs, err := c.embed(ctx, part)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (c *Client) embed(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(map[string]any{"model": c.Model(), "input": texts})
	if err != nil {
		return nil, err
	}
	resp, err := c.provider.Embed(ctx, body)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &Error{Msg: "the AI provider could not be reached for embeddings"}
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, &Error{Msg: fmt.Sprintf("the AI provider answered %d to an embeddings request", resp.StatusCode)}
	}
	var got struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxResponse)).Decode(&got); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &Error{Msg: "the AI provider's embeddings could not be read"}
	}
	out := make([][]float32, len(texts))
	for i, d := range got.Data {
		at := d.Index
		if at < 0 || at >= len(texts) || out[at] != nil {
			at = i // servers that leave index out answer in order
		}
		if at >= len(texts) || len(d.Embedding) == 0 {
			return nil, &Error{Msg: "the AI provider's embeddings do not match the request"}
		}
		out[at] = normalize(d.Embedding)
	}
	for _, v := range out {
		if v == nil || len(v) != len(out[0]) {
			return nil, &Error{Msg: "the AI provider's embeddings do not match the request"}
		}
	}
	return out, nil
}

func normalize(v []float32) []float32 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return v
	}
	n := float32(1 / math.Sqrt(sum))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * n
	}
	return out
}

// Chunk is a part of a page to embed: a section (the text before the first heading has no
// anchor).
type Chunk struct {
	Anchor string
	Text   string
}

// Chunks cuts a page's markdown at its headings. Conditional blocks ({% if %}) are left out:
// what only some visitors read never ranks a page. Each chunk's text starts with the page's
// title and the section's, and is at most MaxChunkRunes; a page has at most MaxChunks.
func Chunks(title, markdown string) []Chunk {
	md := document.KeepConditional(markdown, func(string) bool { return false })
	var out []Chunk
	for _, s := range document.Sections(md) {
		text := strings.Join(strings.Fields(s.Text), " ")
		if text == "" && s.Title == "" {
			continue
		}
		head := title
		if s.Title != "" {
			head += " › " + s.Title
		}
		out = append(out, Chunk{Anchor: s.Anchor, Text: truncate(head+"\n"+text, MaxChunkRunes)})
		if len(out) == MaxChunks {
			break
		}
	}
	if len(out) == 0 {
		out = append(out, Chunk{Text: truncate(title, MaxChunkRunes)})
	}
	return out
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}

// Encode is a vector's stored form: little-endian float32s, base64.
func Encode(v []float32) string {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.LittleEndian, v)
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// Decode reads what Encode wrote; a damaged value is nil.
func Decode(s string) []float32 {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(raw)%4 != 0 {
		return nil
	}
	v := make([]float32, len(raw)/4)
	if binary.Read(bytes.NewReader(raw), binary.LittleEndian, v) != nil {
		return nil
	}
	return v
}

// Similarity is the cosine similarity of unit vectors; vectors of different lengths are not
// similar at all.
func Similarity(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return -1
	}
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	return dot
}

// fusionK damps the weight of the first ranks (the usual 60 of reciprocal rank fusion).
const fusionK = 60

// Fuse merges rankings (keys, best first) by reciprocal rank fusion: a key's score is the sum of
// 1/(60+rank) over the rankings that hold it. Ties keep the first ranking's order.
func Fuse(rankings ...[]string) []string {
	score := map[string]float64{}
	var order []string
	for _, list := range rankings {
		for i, k := range list {
			if _, seen := score[k]; !seen {
				order = append(order, k)
			}
			score[k] += 1 / float64(fusionK+i+1)
		}
	}
	out := append([]string(nil), order...)
	// A stable insertion sort: lists here are short (tens of keys).
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && score[out[j]] > score[out[j-1]]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
