package model

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestEnumNamesRoundTrip(t *testing.T) {
	for _, tt := range []struct{ value, gql string }{
		{"admin", "ADMIN"}, {"internalDocs", "INTERNAL_DOCS"}, {"free_2024", "FREE_2024"},
		{"nonProfit", "NON_PROFIT"}, {"joinedAt", "JOINED_AT"}, {"notapplicable", "NOTAPPLICABLE"},
		{"require_one_of_specific_reviewers", "REQUIRE_ONE_OF_SPECIFIC_REVIEWERS"},
	} {
		if got := gqlName(tt.value); got != tt.gql {
			t.Errorf("gqlName(%q) = %q, want %q", tt.value, got, tt.gql)
		}
	}
	var r MemberRole
	if err := r.UnmarshalGQL("REVIEW"); err != nil || r != MemberRoleReview {
		t.Errorf("UnmarshalGQL(REVIEW) = %q, %v", r, err)
	}
	if err := r.UnmarshalGQL("review"); err == nil {
		t.Error("UnmarshalGQL accepted the lower-case contract value")
	}
	var buf bytes.Buffer
	OrganizationUseCase("audienceControlledSite").MarshalGQL(&buf)
	if buf.String() != `"AUDIENCE_CONTROLLED_SITE"` {
		t.Errorf("MarshalGQL = %s", buf.String())
	}
}

func TestValidEmail(t *testing.T) {
	for email, want := range map[string]bool{
		"a@acme.test": true, "first.last+tag@sub.acme.io": true,
		"": false, "acme.test": false, "a@b": false, "Name <a@acme.test>": false, "a@acme..test": false, "a @acme.test": false,
	} {
		if got := ValidEmail(email); got != want {
			t.Errorf("ValidEmail(%q) = %v, want %v", email, got, want)
		}
	}
}

func TestInviteEmailAcceptsBothForms(t *testing.T) {
	var in InviteUsersInput
	if err := json.Unmarshal([]byte(`{"emails":["a@acme.test",{"email":"b@acme.test","role":null}],"role":"edit"}`), &in); err != nil {
		t.Fatal(err)
	}
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	if r := in.RoleOf(in.Emails[0]); r == nil || *r != MemberRoleEdit {
		t.Errorf("bare address role = %v, want the request's edit", r)
	}
	if r := in.RoleOf(in.Emails[1]); r != nil {
		t.Errorf("explicit null role = %v, want guest", *r)
	}
}

func TestMergeRulesEncodeRulesOnlyForRulesType(t *testing.T) {
	for _, tt := range []struct {
		in   MergeRules
		want string
	}{
		{MergeRules{Type: MergeRulesNone}, `{"type":"none"}`},
		{MergeRules{Type: MergeRulesRules}, `{"type":"rules","rules":[]}`},
	} {
		got, _ := json.Marshal(tt.in)
		if string(got) != tt.want {
			t.Errorf("Marshal(%+v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestDocumentValidate(t *testing.T) {
	for doc, ok := range map[string]bool{
		`{"object":"document","data":{},"nodes":[]}`:                                                                  true,
		`{"object":"document","data":{"schemaVersion":1},"nodes":[{"object":"block","type":"paragraph","nodes":[]}]}`: true,
		`null`:                             false,
		`{"object":"document","nodes":[]}`: false,
		`{"object":"document","data":[],"nodes":[]}`:                  false,
		`{"object":"document","data":{}}`:                             false,
		`{"object":"document","data":{},"nodes":[{"object":"text"}]}`: false,
	} {
		if err := Document(doc).Validate("d"); (err == nil) != ok {
			t.Errorf("Validate(%s) = %v, want ok=%v", doc, err, ok)
		}
	}
	var d Document
	if err := d.UnmarshalGQL(map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any(nil)}); err != nil || d.Validate("d") != nil {
		t.Errorf("GraphQL literal with nodes: [] = %s, %v", d, d.Validate("d"))
	}
}
