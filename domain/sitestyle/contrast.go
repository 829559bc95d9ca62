package sitestyle

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Readable text needs a contrast ratio of at least 4.5:1 with its background (WCAG 2.x, level AA
// for normal text). A site picks its colors freely; the reader draws with these adjusted ones.
const MinContrast = 4.5

// RGB is a color of the sRGB space.
type RGB struct{ R, G, B uint8 }

// ParseColor reads #rgb or #rrggbb (the contract's Color).
func ParseColor(s string) (RGB, bool) {
	s = strings.TrimPrefix(s, "#")
	if len(s) == 3 {
		s = string([]byte{s[0], s[0], s[1], s[1], s[2], s[2]})
	}
	if len(s) != 6 {
		return RGB{}, false
	}
	n, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		return RGB{}, false
	}
	return RGB{uint8(n >> 16), uint8(n >> 8), uint8(n)}, true
}

// Hex is c as #rrggbb.
func (c RGB) Hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// luminance is c's relative luminance (WCAG).
func (c RGB) luminance() float64 {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// Contrast is the contrast ratio of two colors, from 1 (none) to 21 (black on white).
func Contrast(a, b RGB) float64 {
	la, lb := a.luminance(), b.luminance()
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// mix is c moved toward t by f (0: c, 1: t).
func mix(c, t RGB, f float64) RGB {
	m := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + (float64(b)-float64(a))*f)) }
	return RGB{m(c.R, t.R), m(c.G, t.G), m(c.B, t.B)}
}

// Readable is fg as close to its hue as can be while readable on bg: fg itself when it already
// contrasts enough, else fg darkened (on a light background) or lightened (on a dark one) by the
// smallest step that reaches MinContrast. Black or white always does, so it never fails.
func Readable(fg, bg RGB) RGB {
	if Contrast(fg, bg) >= MinContrast {
		return fg
	}
	toward := RGB{0, 0, 0}
	if bg.luminance() < 0.18 {
		toward = RGB{255, 255, 255}
	}
	for step := 1; step <= 20; step++ {
		if c := mix(fg, toward, float64(step)/20); Contrast(c, bg) >= MinContrast {
			return c
		}
	}
	return toward
}

// OnColor is the text color drawn on a filled background (a primary button, a banner): white or
// near-black, whichever contrasts more.
func OnColor(bg RGB) RGB {
	white, ink := RGB{255, 255, 255}, RGB{17, 17, 17}
	if Contrast(white, bg) >= Contrast(ink, bg) {
		return white
	}
	return ink
}
