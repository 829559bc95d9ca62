package sitestyle

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDefaultsAreValid(t *testing.T) {
	if err := ValidateValue(Settings, Defaults()); err != nil {
		t.Fatalf("defaults: %v", err)
	}
}

func TestValidateRefuses(t *testing.T) {
	for _, tt := range []struct{ name, patch, field string }{
		{"bad color", `{"styling":{"primaryColor":{"light":"red","dark":"#000"}}}`, "styling.primaryColor.light"},
		{"unknown setting", `{"stylin":{}}`, "stylin"},
		{"bad enum", `{"styling":{"corners":"wavy"}}`, "styling.corners"},
		{"script logo", `{"header":{"logo":{"light":"javascript:alert(1)","dark":"https://x.test/l.png"}}}`, "header.logo.light"},
		{"long title", `{"title":"` + strings.Repeat("x", 200) + `"}`, "title"},
	} {
		var patch map[string]any
		if err := json.Unmarshal([]byte(tt.patch), &patch); err != nil {
			t.Fatal(err)
		}
		err := ValidateValue(Settings, Merge(Defaults(), patch))
		ie, ok := err.(*InvalidError)
		if !ok || ie.Field != tt.field {
			t.Errorf("%s: %v, want a refusal of %s", tt.name, err, tt.field)
		}
	}
}

func TestMergeOverride(t *testing.T) {
	site := Merge(Defaults(), map[string]any{"title": "Docs"})
	override := Merge(map[string]any{"title": "V2", "styling": map[string]any{"corners": "straight"}}, map[string]any{"title": nil})
	got := Merge(site, override)
	if got["title"] != "Docs" || got["styling"].(map[string]any)["corners"] != "straight" || got["styling"].(map[string]any)["theme"] != "clean" {
		t.Errorf("merged = %v", got)
	}
}

func TestReadableKeepsContrast(t *testing.T) {
	white, black := RGB{255, 255, 255}, RGB{0, 0, 0}
	for _, hex := range []string{"#ffff00", "#fff", "#000", "#346DDB", "#777777", "#00ff00", "#123"} {
		c, _ := ParseColor(hex)
		for _, bg := range []RGB{white, black, {24, 24, 27}} {
			if r := Readable(c, bg); Contrast(r, bg) < MinContrast {
				t.Errorf("Readable(%s on %s) = %s: contrast %.2f", hex, bg.Hex(), r.Hex(), Contrast(r, bg))
			}
		}
		if on := OnColor(c); Contrast(on, c) < 4.5 && Contrast(on, c) < Contrast(RGB{255, 255, 255}, c) {
			t.Errorf("OnColor(%s) = %s", hex, on.Hex())
		}
	}
	// A color that already reads well is kept.
	if c, _ := ParseColor("#1a4fb3"); Readable(c, white) != c {
		t.Errorf("a readable color was changed")
	}
}
