package embedding

import (
	"slices"
	"strings"
	"testing"
)

func TestFuse(t *testing.T) {
	tests := []struct {
		name     string
		rankings [][]string
		want     []string
	}{
		{"one ranking keeps its order", [][]string{{"a", "b", "c"}}, []string{"a", "b", "c"}},
		{"agreement wins", [][]string{{"a", "b", "c"}, {"c", "b", "x"}}, []string{"c", "b", "a", "x"}},
		{"ties keep the first ranking's order", [][]string{{"a", "b"}, {"b", "a"}}, []string{"a", "b"}},
		{"a key of one ranking only is kept", [][]string{{}, {"z"}}, []string{"z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Fuse(tt.rankings...); !slices.Equal(got, tt.want) {
				t.Errorf("Fuse = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestChunks(t *testing.T) {
	md := "Intro text.\n\n## Install {#setup}\n\nRun it.\n\n{% if visitor.claims.beta %}\nBeta only secret.\n{% endif %}\n\n## Empty\n"
	got := Chunks("Guide", md)
	if len(got) != 3 || got[0].Anchor != "" || got[1].Anchor != "setup" || !strings.HasPrefix(got[1].Text, "Guide › Install\nRun it.") {
		t.Fatalf("Chunks = %+v", got)
	}
	for _, c := range got {
		if strings.Contains(c.Text, "Beta only") {
			t.Errorf("a conditional block was embedded: %q", c.Text)
		}
	}
	if got := Chunks("Only a title", ""); len(got) != 1 || got[0].Text != "Only a title" {
		t.Errorf("Chunks of an empty page = %+v", got)
	}
	long := Chunks("T", strings.Repeat("word ", 1000))
	if n := len([]rune(long[0].Text)); n != MaxChunkRunes {
		t.Errorf("a long chunk has %d runes, want %d", n, MaxChunkRunes)
	}
}

func TestEncodeDecodeSimilarity(t *testing.T) {
	v := normalize([]float32{3, 4})
	back := Decode(Encode(v))
	if !slices.Equal(v, back) {
		t.Fatalf("Decode(Encode(%v)) = %v", v, back)
	}
	if s := Similarity(v, back); s < 0.9999 || s > 1.0001 {
		t.Errorf("Similarity with itself = %v", s)
	}
	if s := Similarity(v, []float32{1}); s != -1 {
		t.Errorf("Similarity of different lengths = %v, want -1", s)
	}
	if Decode("not base64!") != nil {
		t.Error("Decode of damaged text is not nil")
	}
}
