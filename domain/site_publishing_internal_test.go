package domain

import (
	"errors"
	"testing"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
)

// A site's adaptive schema declares the claims its conditions may read: signed ones at the top,
// unsigned ones under unsigned.
func TestConditionsReadDeclaredClaims(t *testing.T) {
	declared := declaredClaims(map[string]any{"type": "object", "properties": map[string]any{
		"plan":     map[string]any{"type": "string"},
		"unsigned": map[string]any{"type": "object", "properties": map[string]any{"beta": map[string]any{"type": "boolean"}}},
	}})
	for cond, ok := range map[string]bool{
		`visitor.claims.plan == "pro"`:                         true,
		`visitor.claims.unsigned.beta`:                         true,
		`visitor.claims.plan == "pro" && visitor.claims.team`:  false,
		`visitor.claims.unsigned.plan == "pro"`:                false,
		`!visitor.claims.unsigned.beta || visitor.claims.plan`: true,
	} {
		err := conditionDeclared("condition", cond, declared)
		if (err == nil) != ok || (err != nil && apperr.KindOf(err) != apperr.Invalid) {
			t.Errorf("%s: %v, want allowed %v", cond, err, ok)
		}
	}
}

func TestSiteSearchScope(t *testing.T) {
	ss, mode := "ss1", "current"
	all := "all"
	for _, tt := range []struct {
		in   model.SiteSearchInput
		want string // mode, or the refused field
	}{
		{model.SiteSearchInput{}, "default"},
		{model.SiteSearchInput{Scope: &model.SiteSearchScope{Mode: "all"}}, "all"},
		{model.SiteSearchInput{Scope: &model.SiteSearchScope{Mode: "specific"}}, "scope.siteSpaceIds"},
		{model.SiteSearchInput{Scope: &model.SiteSearchScope{Mode: "wide"}}, "scope.mode"},
		{model.SiteSearchInput{SiteSpaceIds: []string{"a"}}, "specific"},
		{model.SiteSearchInput{Mode: &mode, SiteSpaceID: &ss}, "default"},
		{model.SiteSearchInput{Mode: &mode}, "mode"},
		{model.SiteSearchInput{Mode: &all}, "all"},
	} {
		got, err := siteSearchScope(tt.in)
		var e *apperr.Error
		switch {
		case err != nil && errors.As(err, &e) && e.Field == tt.want:
		case err == nil && got.Mode == tt.want:
		default:
			t.Errorf("%+v: %+v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}
