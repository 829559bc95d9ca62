package domain

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"

	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/storage"
)

// Recommended questions (docs/ask.md) are written by the model in a job and kept per scope: an
// organization's questions for one set of spaces in reach (members who read the same spaces
// share them; no one gets questions drawn from a space they may not read), a site's for its
// published site spaces. A request answers the questions kept; when the content they were drawn
// from has changed since (or there are none yet), it queues a job to draw them again, once
// however many requests ask, and answers the questions kept meanwhile (none at first).

// recommendArgs draws the questions of one scope from its spaces' current content.
type recommendArgs struct {
	Key      string   `json:"key"`
	OrgID    string   `json:"organizationId"`
	SpaceIDs []string `json:"spaceIds"`
	// Site: the scope is a site's, whose visitors without claims do not read conditional blocks
	// whose condition needs claims.
	Site bool `json:"site,omitempty"`
}

func (recommendArgs) Kind() string { return "recommend_questions" }

func init() {
	addJobKinds(func(r *App, reg *jobs.Registry) {
		jobs.Add(reg, r.workRecommend, jobs.GiveUp(func(ctx context.Context, job *jobs.Job[recommendArgs], err error) {
			slog.WarnContext(ctx, "recommended questions gave up", "scope", job.Args.Key, "err", err)
			_ = r.Store.ForgetPendingRecommendedQuestions(ctx, job.Args.Key)
		}))
	})
}

// recommendScope names a scope by its kind, owner and spaces, and fingerprints the revisions of
// its spaces.
func recommendScope(prefix string, spaces []*storage.Space) (key, fingerprint string) {
	ids := make([]string, len(spaces))
	revs := make([]string, len(spaces))
	for i, s := range spaces {
		ids[i] = s.ID
		revs[i] = s.ID + "=" + s.RevisionID
	}
	slices.Sort(ids)
	slices.Sort(revs)
	k := sha256.Sum256([]byte(strings.Join(ids, ",")))
	f := sha256.Sum256([]byte(strings.Join(revs, ",")))
	return prefix + ":" + hex.EncodeToString(k[:12]), hex.EncodeToString(f[:16])
}

// recommendedQuestions answers the questions kept for a scope (emitting each), queueing a job
// to draw them again when spaces changed since they were drawn. One statement when they are
// fresh. Errors: Invalid (no AI provider).
func (r *App) recommendedQuestions(ctx context.Context, orgID, prefix string, spaces []*storage.Space, site bool, emit func(string)) ([]string, error) {
	if _, err := r.answers(); err != nil {
		return nil, err
	}
	out := []string{}
	if len(spaces) == 0 {
		return out, nil
	}
	key, fingerprint := recommendScope(prefix, spaces)
	row, err := r.Store.FindRecommendedQuestions(ctx, key)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	if row != nil {
		_ = json.Unmarshal([]byte(row.Questions), &out)
	}
	if row == nil || row.Fingerprint != fingerprint {
		ids := make([]string, len(spaces))
		for i, s := range spaces {
			ids[i] = s.ID
		}
		args := recommendArgs{Key: key, OrgID: orgID, SpaceIDs: ids, Site: site}
		if _, err := r.Store.QueueRecommendedQuestions(ctx, key, orgID, fingerprint, args, r.Now()); err != nil {
			return nil, err
		}
	}
	if emit != nil {
		for _, q := range out {
			emit(q)
		}
	}
	return out, nil
}

// workRecommend draws a scope's questions from its spaces' current content and keeps them.
func (r *App) workRecommend(ctx context.Context, job *jobs.Job[recommendArgs]) error {
	c, err := r.answers()
	if err != nil {
		return jobs.Cancel(err)
	}
	spaces, err := r.Store.SpacesByIDs(ctx, job.Args.SpaceIDs)
	if err != nil {
		return err
	}
	_, fingerprint := recommendScope("", spaces)
	pages, err := r.openingPages(ctx, spaces, func(*storage.Space, *storage.PageVersion, string) string { return "" })
	if err != nil {
		return err
	}
	if job.Args.Site {
		claims := mergeClaims(nil, nil)
		for i := range pages {
			pages[i].Markdown = document.KeepConditional(pages[i].Markdown, func(c string) bool { return conditionHolds(&c, claims) })
		}
	}
	questions, err := c.Recommend(ctx, pages, nil)
	if err != nil {
		return err
	}
	raw, _ := json.Marshal(questions)
	return r.Store.SaveRecommendedQuestions(ctx, job.Args.Key, fingerprint, string(raw), r.Now())
}
