package domain

import (
	"context"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/answer"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Ratings of answers (docs/ask.md): a reader of a published site says whether an answer of the
// Ask panel helped; the site's admins and editors see the counts (AskRatings).

// maxRatedSources bounds the cited pages a rating records.
const maxRatedSources = 10

// AskRatingInput is a reader's rating of an answer: the question, whether it helped, and the
// URLs of the pages it cited.
type AskRatingInput struct {
	Question string   `json:"question"`
	Helpful  *bool    `json:"helpful"`
	Sources  []string `json:"sources"`
}

// Validate checks a rating's bounds. Errors: Invalid.
func (in AskRatingInput) Validate() error {
	switch {
	case strings.TrimSpace(in.Question) == "":
		return apperr.Invalidf("question", "is required")
	case utf8.RuneCountInString(in.Question) > answer.MaxQuestion:
		return apperr.Invalidf("question", "must be at most %d characters", answer.MaxQuestion)
	case in.Helpful == nil:
		return apperr.Invalidf("helpful", "is required")
	case len(in.Sources) > maxRatedSources:
		return apperr.Invalidf("sources", "at most %d", maxRatedSources)
	}
	for _, s := range in.Sources {
		if len(s) > 2048 {
			return apperr.Invalidf("sources", "each at most 2048 characters")
		}
	}
	return nil
}

// RateAnswer records a visitor's rating of an answer on a published site they read (the reader's
// Ask panel). Errors: Invalid (also without an AI provider: there are no answers to rate).
func (r *App) RateAnswer(ctx context.Context, ps *PublishedSite, in AskRatingInput) error {
	if _, err := r.answers(); err != nil {
		return err
	}
	if err := in.Validate(); err != nil {
		return err
	}
	var kept []string
	for _, s := range in.Sources {
		if strings.HasPrefix(s, ps.URL) { // pages of this site only
			kept = append(kept, s)
		}
	}
	raw, _ := json.Marshal(append([]string{}, kept...))
	return r.Store.CreateAskRating(ctx, &storage.AskRating{OrganizationID: ps.orgID, SiteID: ps.ID, Question: in.Question,
		Helpful: *in.Helpful, Sources: string(raw), CreatedAt: r.Now()})
}

// AskRatings counts the ratings of a site's answers over the last days (at most 365; default
// 30), for the site's editors. Errors: Invalid, NotFound, Forbidden.
func (r *App) AskRatings(ctx context.Context, site *model.Site, days *int) (*model.AskRatingSummary, error) {
	n := 30
	if days != nil {
		n = *days
	}
	if n < 1 || n > 365 {
		return nil, apperr.Invalidf("days", "must be 1 to 365")
	}
	if _, err := r.editableSite(ctx, site.OrganizationID, site.ID); err != nil {
		return nil, err
	}
	up, down, err := r.Store.AskRatingCounts(ctx, site.OrganizationID, site.ID, r.Now().Add(-time.Duration(n)*24*time.Hour))
	if err != nil {
		return nil, err
	}
	return &model.AskRatingSummary{Days: n, Helpful: up, Unhelpful: down}, nil
}
