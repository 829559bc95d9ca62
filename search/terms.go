package search

import (
	"context"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// termRow is a word that some page of an organization held when it was indexed. The
// vocabulary only grows (a word no page holds any more matches nothing, which is harmless): it
// is what the word being typed is completed from and what misspelt words are corrected to.
type termRow struct {
	bun.BaseModel `bun:"table:search_terms,alias:st"`

	OrganizationID string `bun:",pk"`
	Term           string `bun:",pk"`
}

// Vocabulary bounds: shorter words are not worth completing to, longer ones are not words.
const (
	minTermRunes = 2
	maxTermRunes = 40
)

// vocabulary adds the distinct words of texts to seen: Words, as queries are read, within the
// vocabulary's bounds.
func vocabulary(seen map[string]bool, texts ...string) {
	for _, t := range texts {
		for _, w := range Words(t) {
			if n := utf8.RuneCountInString(w); n >= minTermRunes && n <= maxTermRunes {
				seen[w] = true
			}
		}
	}
}

// addTerms records words in an organization's vocabulary, in batches, keeping those already there.
func addTerms(ctx context.Context, db bun.IDB, orgID string, words map[string]bool) error {
	rows := make([]*termRow, 0, indexBatch)
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		if _, err := db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
			return fmt.Errorf("add search terms: %w", err)
		}
		rows = rows[:0]
		return nil
	}
	for w := range words {
		rows = append(rows, &termRow{OrganizationID: orgID, Term: w})
		if len(rows) == indexBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// BackfillTerms fills the vocabulary from the pages indexed before it existed, an organization at
// a time.
func (ix *Index) BackfillTerms(ctx context.Context) error {
	var orgs []string
	if err := ix.rdb.NewSelect().TableExpr("search_pages").ColumnExpr("DISTINCT organization_id").Scan(ctx, &orgs); err != nil {
		return fmt.Errorf("backfill search terms: %w", err)
	}
	for _, org := range orgs {
		var pages []*indexRow
		if err := ix.rdb.NewSelect().Model(&pages).Column("title", "body").Where("organization_id = ?", org).Scan(ctx); err != nil {
			return fmt.Errorf("backfill search terms: %w", err)
		}
		words := map[string]bool{}
		for _, p := range pages {
			vocabulary(words, p.Title, p.Body)
		}
		if err := addTerms(ctx, ix.db, org, words); err != nil {
			return err
		}
	}
	return nil
}

// TermMatches is what an organization's vocabulary says of a query's words.
type TermMatches struct {
	Known       map[string]bool // the words some page held
	Completions []string        // words starting with the prefix asked for, in order
}

// MatchTerms looks words up in an organization's vocabulary, and lists up to limit words that
// start with prefix (none when prefix is ""). One statement, an index range per part.
func (ix *Index) MatchTerms(ctx context.Context, orgID string, words []string, prefix string, limit int) (TermMatches, error) {
	out := TermMatches{Known: map[string]bool{}}
	if len(words) == 0 && prefix == "" {
		return out, nil
	}
	var rows []struct {
		Term       string
		Completion bool
	}
	q := ix.rdb.NewSelect().Model((*termRow)(nil)).ColumnExpr("term, ? AS completion", false).
		Where("organization_id = ?", orgID).Where("term IN (?)", bun.List(append(words, ""))) // "" keeps the list non-empty
	if prefix != "" {
		// SQLite wants a compound SELECT's parts without their own ORDER BY and LIMIT.
		completions := ix.rdb.NewSelect().TableExpr("(?) AS c", ix.rdb.NewSelect().Model((*termRow)(nil)).Column("term").
			Where("organization_id = ?", orgID).Where("term > ? AND term < ?", prefix, prefix+"\U0010FFFF").
			Order("term").Limit(int64(limit))).ColumnExpr("c.term, ? AS completion", true)
		q = q.UnionAll(completions)
	}
	if err := q.Scan(ctx, &rows); err != nil {
		return out, fmt.Errorf("match search terms: %w", err)
	}
	for _, r := range rows {
		if r.Completion {
			out.Completions = append(out.Completions, r.Term)
		} else {
			out.Known[r.Term] = true
		}
	}
	slices.Sort(out.Completions)
	return out, nil
}

// TermsNear lists up to limit words of an organization's vocabulary that start with first and
// are minRunes to maxRunes long: the candidates a misspelt word is corrected from. One statement.
func (ix *Index) TermsNear(ctx context.Context, orgID, first string, minRunes, maxRunes, limit int) ([]string, error) {
	var terms []string
	err := ix.rdb.NewSelect().Model((*termRow)(nil)).Column("term").
		Where("organization_id = ?", orgID).Where("term >= ? AND term < ?", first, first+"\U0010FFFF").
		Where("length(term) BETWEEN ? AND ?", minRunes, maxRunes).Limit(int64(limit)).Scan(ctx, &terms)
	if err != nil {
		return nil, fmt.Errorf("search terms near %q: %w", first, err)
	}
	return terms, nil
}
