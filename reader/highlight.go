package reader

import (
	"math"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"
)

// The code blocks' backgrounds (reader.css: --soft in the light and the dark theme), against
// which every highlighted token must stay readable.
var (
	lightCodeBackground = chroma.MustParseColour("#f6f8fa")
	darkCodeBackground  = chroma.MustParseColour("#151b23")
)

// minContrast is WCAG's AA contrast for body text.
const minContrast = 4.5

// chromaCSS is the code highlighting's style sheet: GitHub's light and dark styles, each applying
// in its own theme only (a token the dark style leaves at its default colour must not keep the
// light style's: dark punctuation on a dark background), their colours made readable on the
// code blocks' backgrounds.
func chromaCSS() string {
	var light, dark strings.Builder
	_ = codeFormatter.WriteCSS(&light, readable(styles.Get("github"), lightCodeBackground))
	_ = codeFormatter.WriteCSS(&dark, readable(styles.Get("github-dark"), darkCodeBackground))
	// By the visitor's system, unless the site or the visitor chose a theme (data-theme).
	return "@media not all and (prefers-color-scheme: dark) {\n" + scopeCSS(light.String(), `:root:not([data-theme="dark"])`) +
		"}\n@media (prefers-color-scheme: dark) {\n" + scopeCSS(dark.String(), `:root:not([data-theme="light"])`) + "}\n" +
		scopeCSS(light.String(), `:root[data-theme="light"]`) + scopeCSS(dark.String(), `:root[data-theme="dark"]`)
}

// scopeCSS prefixes every rule of chroma's style sheet (one a line, after a comment naming the
// token type) with scope, in :where() so that the reader's own rules keep their precedence.
func scopeCSS(css, scope string) string {
	lines := strings.Split(css, "\n")
	for i, l := range lines {
		at := 0
		if j := strings.Index(l, "*/ "); j >= 0 {
			at = j + 3
		}
		if at < len(l) && strings.Contains(l[at:], "{") {
			lines[i] = l[:at] + ":where(" + scope + ") " + l[at:]
		}
	}
	return strings.Join(lines, "\n")
}

// readable returns style with every token colour moved toward black or white until it reaches
// minContrast against its own background, or else the code block's.
func readable(style *chroma.Style, block chroma.Colour) *chroma.Style {
	own := style.Get(chroma.Background).Background
	b := style.Builder()
	// Every type, the ones chroma derives from the background (line numbers) included.
	for tt := range chroma.StandardTypes {
		e := style.Get(tt)
		if !e.Colour.IsSet() {
			continue
		}
		against := block
		if e.Background.IsSet() && e.Background != own {
			against = e.Background // a token with a background of its own (an error, a diff line)
		}
		e.Colour = legible(e.Colour, against)
		b.AddEntry(tt, e)
	}
	out, err := b.Build()
	if err != nil {
		return style
	}
	return out
}

// legible is c, or c mixed with black (on a light background) or white (on a dark one) in the
// smallest step that reaches minContrast.
func legible(c, bg chroma.Colour) chroma.Colour {
	toward := 0.0
	if luminance(bg) < 0.5 {
		toward = 255
	}
	for step := 0.0; step <= 1; step += 0.05 {
		mix := func(v uint8) uint8 { return uint8(math.Round(float64(v) + (toward-float64(v))*step)) }
		m := chroma.NewColour(mix(c.Red()), mix(c.Green()), mix(c.Blue()))
		if contrast(m, bg) >= minContrast {
			return m
		}
	}
	return chroma.NewColour(uint8(toward), uint8(toward), uint8(toward))
}

// contrast is WCAG's contrast ratio of two colours.
func contrast(a, b chroma.Colour) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

// luminance is WCAG's relative luminance of a colour.
func luminance(c chroma.Colour) float64 {
	channel := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*channel(c.Red()) + 0.7152*channel(c.Green()) + 0.0722*channel(c.Blue())
}
