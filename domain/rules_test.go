package domain

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
	"github.com/golang-jwt/jwt/v5"
)

// Direct tests of the graph's security and data rules, without a database or HTTP: each case is
// one that a deliberate break of the rule turns red (bench/results/2026-11-28-deliberate-breaks.md).

func TestVerifyVisitorToken(t *testing.T) {
	key := []byte(newSigningKey())
	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	sign := func(method jwt.SigningMethod, k any, claims jwt.MapClaims) string {
		t.Helper()
		s, err := jwt.NewWithClaims(method, claims).SignedString(k)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	exp := func(d time.Duration) int64 { return now.Add(d).Unix() }
	tests := []struct {
		name  string
		token string
		ok    bool
	}{
		{"valid", sign(jwt.SigningMethodHS256, key, jwt.MapClaims{"exp": exp(time.Hour), "plan": "pro"}), true},
		{"expired within the leeway", sign(jwt.SigningMethodHS256, key, jwt.MapClaims{"exp": exp(-20 * time.Second)}), true},
		{"expired", sign(jwt.SigningMethodHS256, key, jwt.MapClaims{"exp": exp(-time.Minute)}), false},
		{"no expiry", sign(jwt.SigningMethodHS256, key, jwt.MapClaims{"plan": "pro"}), false},
		{"not yet valid", sign(jwt.SigningMethodHS256, key, jwt.MapClaims{"exp": exp(time.Hour), "nbf": exp(time.Minute)}), false},
		{"another site's key", sign(jwt.SigningMethodHS256, []byte(newSigningKey()), jwt.MapClaims{"exp": exp(time.Hour)}), false},
		{"HS512 with the right key", sign(jwt.SigningMethodHS512, key, jwt.MapClaims{"exp": exp(time.Hour)}), false},
		{"alg none", sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, jwt.MapClaims{"exp": exp(time.Hour)}), false},
		{"not a token", "not.a.token", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			claims, err := verifyVisitorToken(key, tt.token, now)
			if (err == nil) != tt.ok {
				t.Fatalf("verifyVisitorToken: claims %v, err %v; want accepted %v", claims, err, tt.ok)
			}
			if tt.ok && tt.name == "valid" && claims["plan"] != "pro" {
				t.Errorf("claims = %v, want plan pro", claims)
			}
		})
	}
}

func TestValidateIdempotencyKey(t *testing.T) {
	tests := []struct {
		key string
		ok  bool
	}{
		{"a", true},
		{"order 42: retry", true}, // a space is printable
		{strings.Repeat("k", MaxIdempotencyKeyLength), true},
		{strings.Repeat("k", MaxIdempotencyKeyLength+1), false},
		{"", false},
		{"tab\there", false},
		{"new\nline", false},
		{"del\x7f", false},
		{"clé", false}, // printable, but not ASCII
	}
	for _, tt := range tests {
		err := ValidateIdempotencyKey(tt.key)
		if (err == nil) != tt.ok {
			t.Errorf("ValidateIdempotencyKey(%q) = %v, want accepted %v", tt.key, err, tt.ok)
		}
		if err != nil && apperr.KindOf(err) != apperr.Invalid {
			t.Errorf("ValidateIdempotencyKey(%q) kind = %s, want INVALID", tt.key, apperr.KindOf(err))
		}
	}
}

// Keys are scoped per token: another token of the same user reads none of its answers.
func TestIdempotencyScope(t *testing.T) {
	if _, err := idempotencyScope(context.Background()); apperr.KindOf(err) != apperr.Unauthenticated {
		t.Errorf("no actor: err %v, want UNAUTHENTICATED", err)
	}
	scope := func(a *authz.Actor) string {
		t.Helper()
		s, err := idempotencyScope(authz.WithActor(context.Background(), a))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	one, other := scope(&authz.Actor{UserID: "u1", TokenID: "t1"}), scope(&authz.Actor{UserID: "u1", TokenID: "t2"})
	if one == other {
		t.Errorf("two tokens of one user share the scope %q", one)
	}
	if session := scope(&authz.Actor{UserID: "u1"}); session == one || session != "user:u1" {
		t.Errorf("a caller without a token has scope %q", session)
	}
}

func TestValidScopes(t *testing.T) {
	if _, err := validScopes("scopes", nil); apperr.KindOf(err) != apperr.Invalid {
		t.Errorf("no scope: %v, want INVALID", err)
	}
	if _, err := validScopes("scopes", []string{authz.ScopeRead, "admin"}); err == nil || !strings.Contains(err.Error(), `"admin"`) {
		t.Errorf("an unknown scope: %v, want it named", err)
	}
	got, err := validScopes("scopes", []string{authz.ScopeRead, authz.ScopeRead})
	if err != nil || len(got) != 1 || got[0] != authz.ScopeRead {
		t.Errorf("a repeated scope = %v, %v; want it once", got, err)
	}
}

func TestCanRead(t *testing.T) {
	role := func(r model.MemberRole) *model.MemberRole { return &r }
	for _, tt := range []struct {
		role *model.MemberRole
		want bool
	}{{nil, false}, {role(model.MemberRoleRead), true}, {role(model.MemberRoleAdmin), true}} {
		if got := canRead(tt.role); got != tt.want {
			t.Errorf("canRead(%v) = %v, want %v", tt.role, got, tt.want)
		}
	}
}

// The merge rules, against one change request's state: each rule is kept or broken, and the
// author's own approval never counts.
func TestMergeRuleBreaks(t *testing.T) {
	description := `{"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"text":"Why"}]}]}]}`
	state := func(verdicts map[string]string, requested ...string) *mergeState {
		return &mergeState{
			space:     &storage.Space{RevisionSeq: 4},
			cr:        &storage.ChangeRequest{Subject: "Fix", CreatedBy: "author", BaseSeq: 4, Number: 7, Status: "open", Description: &description},
			verdicts:  verdicts,
			requested: requested,
		}
	}
	approved, changes := string(model.ReviewApproved), string(model.ReviewChangesRequested)
	expr := func(s string) *string { return &s }
	rule := func(kind model.MergeRuleKind, users ...string) *model.MergeRule {
		return &model.MergeRule{Rule: kind, Users: users}
	}
	tests := []struct {
		name  string
		state *mergeState
		rule  *model.MergeRule
		keeps bool
	}{
		{"specific reviewers all approved", state(map[string]string{"ann": approved, "bob": approved}), rule(model.MergeRuleRequireSpecificReviewers, "ann", "bob"), true},
		{"specific reviewers: one missing", state(map[string]string{"ann": approved}), rule(model.MergeRuleRequireSpecificReviewers, "ann", "bob"), false},
		{"specific reviewers: changes requested", state(map[string]string{"ann": approved, "bob": changes}), rule(model.MergeRuleRequireSpecificReviewers, "ann", "bob"), false},
		{"specific reviewers: the author is not waited for", state(map[string]string{"ann": approved}), rule(model.MergeRuleRequireSpecificReviewers, "ann", "author"), true},
		{"one of: one approved", state(map[string]string{"bob": approved}), rule(model.MergeRuleRequireOneOfSpecificReviewers, "ann", "bob"), true},
		{"one of: none approved", state(map[string]string{"carl": approved}), rule(model.MergeRuleRequireOneOfSpecificReviewers, "ann", "bob"), false},
		{"at least one review", state(map[string]string{"carl": approved}), rule("require_at_least_one_review"), true},
		{"at least one review: none", state(map[string]string{"carl": changes}), rule("require_at_least_one_review"), false},
		{"all approved", state(map[string]string{"ann": approved}, "ann"), rule("require_all_reviews_approved"), true},
		{"all approved: a requested reviewer has not", state(map[string]string{"ann": approved}, "ann", "bob"), rule("require_all_reviews_approved"), false},
		{"all approved: someone requested changes", state(map[string]string{"ann": approved, "carl": changes}, "ann"), rule("require_all_reviews_approved"), false},
		{"agent review is never met", state(nil), rule("require_agent_review"), false},
		{"up to date", state(nil), rule("require_up_to_date_change_request"), true},
		{"subject", state(nil), rule("require_change_request_subject"), true},
		{"description", state(nil), rule("require_change_request_description"), true},
		{"custom true", state(map[string]string{"ann": approved}), &model.MergeRule{Rule: model.MergeRuleCustom, Expression: expr(`changeRequest.approvals >= 1 && "ann" in changeRequest.approvedBy`)}, true},
		{"custom false", state(nil), &model.MergeRule{Rule: model.MergeRuleCustom, Expression: expr(`changeRequest.approvals >= 1`)}, false},
		{"custom not boolean", state(nil), &model.MergeRule{Rule: model.MergeRuleCustom, Expression: expr(`changeRequest.number`)}, false},
		{"custom does not compile", state(nil), &model.MergeRule{Rule: model.MergeRuleCustom, Expression: expr(`changeRequest.(`)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			why := tt.state.breaks(tt.rule)
			if (why == "") != tt.keeps {
				t.Errorf("breaks(%s) = %q, want kept %v", tt.rule.Rule, why, tt.keeps)
			}
		})
	}

	// The same state made stale, without subject or description, breaks the rules about them.
	s := state(nil)
	s.space.RevisionSeq, s.cr.Subject, s.cr.Description = 5, "  ", nil
	for _, kind := range []model.MergeRuleKind{"require_up_to_date_change_request", "require_change_request_subject", "require_change_request_description"} {
		if s.breaks(rule(kind)) == "" {
			t.Errorf("%s kept by a change request that breaks it", kind)
		}
	}
	if !s.customHolds(`changeRequest.outdated`) {
		t.Error("custom rules do not see an outdated change request")
	}
}
