// Package domain is Bindery's application: the rules every door (GraphQL, REST, the reader, the
// CLI) applies the same way.
package domain

import "context"

// Want names something a caller may read of the objects an operation returns, beyond their own
// fields. An operation fills or counts only what is wanted, and tells the request's loaders what
// each returned object is about to load, so that each level below a list leaves as one batch
// (docs/design/request-state.md). A want never changes what is returned, only what it costs.
type Want int

const (
	WantTotal                Want = iota // a list's total count
	WantSpaceCounters                    // spaces' comment and change request counters
	WantCommentReplies                   // each comment's page of replies
	WantMemberTeams                      // each member's team memberships
	WantMemberSpaces                     // each member's accessible spaces
	WantSpaceContent                     // each listed space's current revision
	WantChangeRequestContent             // each listed change request's revision
	WantRevisionPages                    // those revisions' pages
	WantPageContent                      // those pages' markdown or document
	WantReusableContentText              // a revision's reusable contents' markdown or document
)

// Selection answers, for the operation being run with ctx, whether its caller wants w. A door
// whose callers choose what they read (GraphQL's selections) installs one with WithSelection.
type Selection func(ctx context.Context, w Want) bool

type selectionKey struct{}

// WithSelection returns ctx in which Wants asks s.
func WithSelection(ctx context.Context, s Selection) context.Context {
	return context.WithValue(ctx, selectionKey{}, s)
}

// Wants reports whether the caller of the operation run with ctx wants w. Without a selection
// the caller reads whole shapes, as a REST answer does: totals, counters and replies, and no
// nested content (a REST shape embeds none).
func Wants(ctx context.Context, w Want) bool {
	if s, ok := ctx.Value(selectionKey{}).(Selection); ok {
		return s(ctx, w)
	}
	return WholeShape(w)
}

// WholeShape reports whether a caller that reads whole shapes wants w.
func WholeShape(w Want) bool {
	return w == WantTotal || w == WantSpaceCounters || w == WantCommentReplies
}
