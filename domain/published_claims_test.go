package domain

import "testing"

// GitBook addresses unsigned claims as visitor.claims.unsigned.<name>; Bindery also reads them
// at visitor.claims.<name>. Signed claims win.
func TestMergeClaimsUnsignedAddress(t *testing.T) {
	tests := []struct {
		name             string
		unsigned, signed map[string]any
		condition        string
		want             bool
	}{
		{"gitbook address", map[string]any{"plan": "pro"}, nil, `visitor.claims.unsigned.plan == "pro"`, true},
		{"bindery address", map[string]any{"plan": "pro"}, nil, `visitor.claims.plan == "pro"`, true},
		{"no unsigned claims", nil, nil, `visitor.claims.unsigned.plan == "pro"`, false},
		{"signed is not unsigned", nil, map[string]any{"plan": "pro"}, `visitor.claims.unsigned.plan == "pro"`, false},
		{"signed wins at the top", map[string]any{"plan": "free"}, map[string]any{"plan": "pro"}, `visitor.claims.plan == "pro"`, true},
		{"negated, without unsigned claims", nil, nil, `!visitor.claims.unsigned.example_attribute_A`, true},
		{"negated, with another unsigned claim", map[string]any{"plan": "pro"}, nil, `!visitor.claims.unsigned.example_attribute_A`, true},
		{"negated, with it", map[string]any{"example_attribute_A": true}, nil, `!visitor.claims.unsigned.example_attribute_A`, false},
		{"unsigned kept under unsigned", map[string]any{"plan": "free"}, map[string]any{"plan": "pro"}, `visitor.claims.unsigned.plan == "free"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			claims := mergeClaims(tt.unsigned, tt.signed)
			if got := conditionHolds(&tt.condition, claims); got != tt.want {
				t.Errorf("%s = %v, want %v (claims %v)", tt.condition, got, tt.want, claims)
			}
		})
	}
}
