package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
	"github.com/expr-lang/expr"
)

// Merge rules decide when a change request may be merged. A space's rules apply, or, when they
// are "inherit", its organization's. A merge that breaks a rule is refused with Conflict naming
// the rule: the request is well formed, the change request's state is what refuses it.

// effectiveMergeRules are the rules that apply to a space's change requests.
func (r *App) effectiveMergeRules(ctx context.Context, space *storage.Space) (model.MergeRules, error) {
	var rules model.MergeRules
	if err := json.Unmarshal([]byte(space.MergeRules), &rules); err == nil && rules.Type != model.MergeRulesInherit && rules.Type != "" {
		return rules, nil
	}
	org, err := r.Store.FindOrganizationByID(ctx, space.OrganizationID)
	if err != nil {
		return rules, err
	}
	if err := json.Unmarshal([]byte(org.MergeRules), &rules); err != nil || rules.Type == "" {
		rules = model.MergeRules{Type: model.MergeRulesNone}
	}
	return rules, nil
}

// mergeState is what the rules are checked against: the change request, its current verdicts
// (each reviewer's latest review at its current revision; the author's own do not count), and
// who is asked to review.
type mergeState struct {
	space     *storage.Space
	cr        *storage.ChangeRequest
	verdicts  map[string]string // reviewer → approved or changes-requested
	requested []string
}

func (s *mergeState) approved(user string) bool {
	return s.verdicts[user] == string(model.ReviewApproved)
}

func (s *mergeState) count(status model.ReviewStatus) int {
	n := 0
	for _, v := range s.verdicts {
		if v == string(status) {
			n++
		}
	}
	return n
}

// checkMergeRules refuses a merge by actor that breaks a rule, naming the first one broken.
// Errors: Conflict.
func (r *App) checkMergeRules(ctx context.Context, space *storage.Space, cr *storage.ChangeRequest, actor string) error {
	rules, err := r.effectiveMergeRules(ctx, space)
	if err != nil || rules.Type != model.MergeRulesRules || len(rules.Rules) == 0 {
		return err
	}
	for _, rule := range rules.Rules {
		if rule.Rule == model.MergeRuleAllowBypass && slices.Contains(rule.Users, actor) {
			return nil // trusted to merge whatever the other rules say
		}
	}
	state, err := r.mergeStateOf(ctx, space, cr)
	if err != nil {
		return err
	}
	for _, rule := range rules.Rules {
		if why := state.breaks(rule); why != "" {
			return apperr.Conflictf("merge rule %s is not met: %s", rule.Rule, why)
		}
	}
	return nil
}

func (r *App) mergeStateOf(ctx context.Context, space *storage.Space, cr *storage.ChangeRequest) (*mergeState, error) {
	reviews, err := r.Store.ReviewsOf(ctx, cr.ID)
	if err != nil {
		return nil, err
	}
	reviewers, err := r.Store.ReviewersOf(ctx, cr.ID)
	if err != nil {
		return nil, err
	}
	s := &mergeState{space: space, cr: cr, verdicts: map[string]string{}}
	for _, rv := range reviews { // oldest first: a later review replaces an earlier one
		if rv.RevisionID == cr.RevisionID && rv.ReviewerID != cr.CreatedBy {
			s.verdicts[rv.ReviewerID] = rv.Status
		}
	}
	for _, rr := range reviewers {
		s.requested = append(s.requested, rr.UserID)
	}
	return s, nil
}

// breaks says why the state breaks a rule, or "" when it keeps it.
func (s *mergeState) breaks(rule *model.MergeRule) string {
	switch rule.Rule {
	case model.MergeRuleRequireSpecificReviewers:
		if missing := s.notApproved(rule.Users); len(missing) > 0 {
			return "waiting for approval from " + strings.Join(missing, ", ")
		}
	case model.MergeRuleRequireOneOfSpecificReviewers:
		if len(s.notApproved(rule.Users)) == len(rule.Users) {
			return "one of " + strings.Join(rule.Users, ", ") + " must approve"
		}
	case "require_at_least_one_review":
		if s.count(model.ReviewApproved) == 0 {
			return "no approval at the current revision"
		}
	case "require_all_reviews_approved":
		if n := s.count(model.ReviewChangesRequested); n > 0 {
			return fmt.Sprintf("%d reviewer(s) requested changes", n)
		}
		if missing := s.notApproved(s.requested); len(missing) > 0 {
			return "waiting for approval from " + strings.Join(missing, ", ")
		}
	case "require_agent_review":
		return "Bindery has no review agent to approve this change request"
	case "require_up_to_date_change_request":
		if s.cr.BaseSeq < s.space.RevisionSeq {
			return "the space has changed since: update the change request first"
		}
	case "require_change_request_subject":
		if strings.TrimSpace(s.cr.Subject) == "" {
			return "the change request has no subject"
		}
	case "require_change_request_description":
		if s.cr.Description == nil || documentText(*s.cr.Description) == "" {
			return "the change request has no description"
		}
	case model.MergeRuleCustom:
		if !s.customHolds(deref(rule.Expression)) {
			return "the expression " + deref(rule.Expression) + " is not true"
		}
	}
	return ""
}

// notApproved lists the users who have not approved, the change request's author excepted (an
// author cannot approve their own change).
func (s *mergeState) notApproved(users []string) []string {
	var out []string
	for _, u := range users {
		if u != s.cr.CreatedBy && !s.approved(u) {
			out = append(out, u)
		}
	}
	return out
}

// customHolds evaluates a custom rule over the change request; an expression that does not
// compile or evaluate to true does not hold.
func (s *mergeState) customHolds(expression string) bool {
	var approvedBy []string
	for u, v := range s.verdicts {
		if v == string(model.ReviewApproved) {
			approvedBy = append(approvedBy, u)
		}
	}
	slices.Sort(approvedBy)
	env := map[string]any{"changeRequest": map[string]any{
		"subject": s.cr.Subject, "number": s.cr.Number, "createdBy": s.cr.CreatedBy, "status": s.cr.Status,
		"outdated": s.cr.BaseSeq < s.space.RevisionSeq, "approvedBy": approvedBy, "requestedReviewers": s.requested,
		"approvals": s.count(model.ReviewApproved), "changesRequested": s.count(model.ReviewChangesRequested),
	}}
	out, err := expr.Eval(expression, env)
	holds, ok := out.(bool)
	return err == nil && ok && holds
}
