package domain

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/bindery/bindery/domain/embedding"
	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/search"
	"github.com/bindery/bindery/storage"
)

// Retrieval by meaning (docs/ask.md), when an embedding model is configured: a periodic sweep
// queues an embedding job for each space whose current revision was not queued yet, and the job
// embeds again only the pages whose content changed since their vectors were computed (a
// page's content id changes exactly when its content does), and drops the vectors of removed
// pages. Ask ranks the chunks of the spaces in reach by cosine similarity to the question and
// merges that ranking with search's by reciprocal rank fusion. A vector is used only while its
// page's current content is the content it was computed from, so a page removed or changed
// since is never retrieved through a stale vector.

// embedSpaceArgs embeds the changed pages of a space.
type embedSpaceArgs struct {
	SpaceID string `json:"spaceId"`
}

func (embedSpaceArgs) Kind() string { return "embed_space" }

// embedSweepArgs queues embedding jobs for the spaces that changed.
type embedSweepArgs struct{}

func (embedSweepArgs) Kind() string { return "embed_sweep" }

// EmbeddingSweepInterval is how often changed spaces are queued for embedding: a page edited is
// found by meaning at most about this long after (by its words at once).
const EmbeddingSweepInterval = time.Minute

// embedSweepBatch bounds the spaces one sweep queues; the next sweep takes the rest.
const embedSweepBatch = 500

func init() {
	addJobKinds(func(r *App, reg *jobs.Registry) {
		jobs.Add(reg, func(ctx context.Context, job *jobs.Job[embedSpaceArgs]) error {
			_, err := r.EmbedSpace(ctx, job.Args.SpaceID)
			return err
		}, jobs.Timeout(15*time.Minute), jobs.GiveUp(func(ctx context.Context, job *jobs.Job[embedSpaceArgs], err error) {
			slog.WarnContext(ctx, "embedding a space gave up; the next sweep queues it again", "space", job.Args.SpaceID, "err", err)
			_ = r.Store.ForgetQueuedEmbeddings(ctx, job.Args.SpaceID)
		}))
		jobs.Add(reg, func(ctx context.Context, _ *jobs.Job[embedSweepArgs]) error {
			_, err := r.QueueEmbeddings(ctx)
			return err
		})
		jobs.Every(reg, EmbeddingSweepInterval, embedSweepArgs{})
	})
}

// QueueEmbeddings queues an embedding job for each space whose current revision (or the
// embedding model) changed since it was last queued; it returns how many. Nothing without an
// embedding model.
func (r *App) QueueEmbeddings(ctx context.Context) (int, error) {
	if r.Embeddings == nil {
		return 0, nil
	}
	return r.Store.QueueEmbeddings(ctx, r.Embeddings.Model(), embedSweepBatch, func(spaceID string) storage.JobArgs {
		return embedSpaceArgs{SpaceID: spaceID}
	})
}

// EmbedSpace embeds the pages of a space whose content changed since their vectors were
// computed (new pages included) and drops the vectors of pages removed; it returns how many
// pages it embedded. A space deleted since it was queued is left alone.
func (r *App) EmbedSpace(ctx context.Context, spaceID string) (int, error) {
	if r.Embeddings == nil {
		return 0, nil
	}
	model := r.Embeddings.Model()
	orgID, current, stored, err := r.Store.EmbeddingWork(ctx, spaceID, model)
	if err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return 0, nil
		}
		return 0, err
	}
	var changed []storage.EmbeddablePage
	var replaced, contentIDs []string
	live := map[string]bool{}
	for _, p := range current {
		live[p.PageID] = true
		if c, ok := stored[p.PageID]; ok && c == p.ContentID {
			continue
		}
		changed = append(changed, p)
		replaced = append(replaced, p.PageID)
		if p.ContentID != "" {
			contentIDs = append(contentIDs, p.ContentID)
		}
	}
	for pageID := range stored {
		if !live[pageID] {
			replaced = append(replaced, pageID)
		}
	}
	if len(replaced) == 0 {
		return 0, r.Store.ReplacePageEmbeddings(ctx, spaceID, model, nil, nil)
	}
	slices.Sort(replaced)
	bodies, err := r.Store.PageMarkdown(ctx, contentIDs)
	if err != nil {
		return 0, err
	}
	var rows []*storage.PageEmbedding
	var texts []string
	for _, p := range changed {
		for i, c := range embedding.Chunks(p.Title, bodies[p.ContentID]) {
			rows = append(rows, &storage.PageEmbedding{OrganizationID: orgID, SpaceID: spaceID, PageID: p.PageID, Chunk: i,
				ContentID: p.ContentID, Model: model, Anchor: c.Anchor})
			texts = append(texts, c.Text)
		}
	}
	vectors, err := r.Embeddings.Embed(ctx, texts)
	if err != nil {
		slog.WarnContext(ctx, "embedding a space failed", "space", spaceID, "err", err)
		return 0, err
	}
	for i, v := range vectors {
		rows[i].Vector = embedding.Encode(v)
	}
	if err := r.Store.ReplacePageEmbeddings(ctx, spaceID, model, replaced, rows); err != nil {
		return 0, err
	}
	return len(changed), nil
}

// semanticHits ranks the current pages of spaceIDs by the cosine similarity of their best chunk
// to query, best first, at most limit, with the anchor of each page's best chunk (by
// "space/page"): one embedding request and one statement. Without an embedding model, or when
// the provider fails (retrieval then stays lexical), none.
func (r *App) semanticHits(ctx context.Context, spaceIDs []string, query string, limit int) ([]*search.Hit, map[string]string) {
	if r.Embeddings == nil || len(spaceIDs) == 0 {
		return nil, nil
	}
	q, err := r.Embeddings.Embed(ctx, []string{query})
	if err != nil {
		slog.WarnContext(ctx, "embedding a question failed; retrieval is lexical", "err", err)
		return nil, nil
	}
	chunks, err := r.Store.ChunkVectors(ctx, spaceIDs, r.Embeddings.Model())
	if err != nil {
		slog.WarnContext(ctx, "reading vectors failed; retrieval is lexical", "err", err)
		return nil, nil
	}
	best := map[string]*search.Hit{}
	anchors := map[string]string{}
	var order []*search.Hit
	for _, c := range chunks {
		score := embedding.Similarity(q[0], embedding.Decode(c.Vector))
		key := c.SpaceID + "/" + c.PageID
		h := best[key]
		if h == nil {
			content := c.ContentID
			h = &search.Hit{SpaceID: c.SpaceID, PageID: c.PageID, ContentID: &content, Title: c.Title, Rank: score}
			best[key] = h
			anchors[key] = c.Anchor
			order = append(order, h)
		} else if score > h.Rank {
			h.Rank = score
			anchors[key] = c.Anchor
		}
	}
	slices.SortStableFunc(order, func(a, b *search.Hit) int {
		switch {
		case a.Rank > b.Rank:
			return -1
		case a.Rank < b.Rank:
			return 1
		}
		return 0
	})
	return order[:min(limit, len(order))], anchors
}

// fuseHits merges the lexical and the semantic rankings of pages by reciprocal rank fusion, at
// most limit.
func fuseHits(lexical, semantic []*search.Hit, limit int) []*search.Hit {
	if len(semantic) == 0 {
		return lexical[:min(limit, len(lexical))]
	}
	byKey := map[string]*search.Hit{}
	keys := func(hits []*search.Hit) []string {
		out := make([]string, len(hits))
		for i, h := range hits {
			out[i] = h.SpaceID + "/" + h.PageID
			if byKey[out[i]] == nil {
				byKey[out[i]] = h
			}
		}
		return out
	}
	lk, sk := keys(lexical), keys(semantic)
	fused := embedding.Fuse(lk, sk)
	out := make([]*search.Hit, 0, min(limit, len(fused)))
	for _, k := range fused[:min(limit, len(fused))] {
		out = append(out, byKey[k])
	}
	return out
}
