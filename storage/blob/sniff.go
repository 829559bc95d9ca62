package blob

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"image"
	_ "image/gif"  // registers GIF for image.DecodeConfig
	_ "image/jpeg" // registers JPEG for image.DecodeConfig
	_ "image/png"  // registers PNG for image.DecodeConfig
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"

	_ "golang.org/x/image/webp" // registers WebP for image.DecodeConfig
)

const (
	sniffLen   = 512      // what http.DetectContentType looks at
	svgScanMax = 64 << 10 // how far into an XML document to look for its root element
	maxDim     = 1 << 30  // larger SVG dimensions are treated as unknown

	svgNamespace = "http://www.w3.org/2000/svg"
)

// describe sniffs the content type of a blob and, for images, reads their dimensions. head is
// the blob's first bytes (all of them when complete); what lies beyond is read through tail, opened
// only when a decoder needs more than head (a JPEG whose frame header follows long metadata).
// Errors just leave the dimensions at 0.
func describe(head []byte, complete bool, tail func() (io.ReadCloser, error)) (contentType string, width, height int) {
	contentType = http.DetectContentType(head[:min(len(head), sniffLen)])
	content := io.Reader(bytes.NewReader(head))
	if !complete {
		rest := &lazyReader{open: tail}
		defer rest.Close()
		content = io.MultiReader(content, rest)
	}
	base, _, _ := strings.Cut(contentType, ";")
	switch base {
	case "text/xml", "text/plain", "text/html":
		// An SVG document sniffs as one of these, depending on what precedes its root element.
		if ok, w, h := sniffSVG(io.LimitReader(content, svgScanMax)); ok {
			return "image/svg+xml", w, h
		}
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		if cfg, _, err := image.DecodeConfig(bufio.NewReader(content)); err == nil && cfg.Width > 0 && cfg.Height > 0 {
			return contentType, cfg.Width, cfg.Height
		}
	}
	return contentType, 0, 0
}

// sniffSVG reports whether r holds an XML document whose root element is <svg>, and the size given
// by that element's width and height attributes, or its viewBox (0 when neither says).
func sniffSVG(r io.Reader) (ok bool, width, height int) {
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		_, _ = br.Discard(3)
	}
	d := xml.NewDecoder(br)
	d.Strict = false
	// Only the ASCII attribute names and values of the root element matter, so any declared
	// single-byte-compatible encoding can be read as is.
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	for {
		tok, err := d.Token()
		if err != nil {
			return false, 0, 0
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != "svg" || (t.Name.Space != "" && t.Name.Space != svgNamespace) {
				return false, 0, 0
			}
			w, h := svgSize(t.Attr)
			return true, w, h
		case xml.CharData:
			if len(bytes.TrimSpace(t)) != 0 {
				return false, 0, 0 // text before the root element: not an XML document
			}
		}
	}
}

// svgSize works out an SVG's intrinsic size in CSS pixels from its root element's attributes.
func svgSize(attrs []xml.Attr) (width, height int) {
	var (
		w, h     float64
		wOK, hOK bool
		vbW, vbH float64
		vbOK     bool
	)
	for _, a := range attrs {
		if a.Name.Space != "" {
			continue
		}
		switch a.Name.Local {
		case "width":
			w, wOK = svgLength(a.Value)
		case "height":
			h, hOK = svgLength(a.Value)
		case "viewBox":
			vbW, vbH, vbOK = viewBox(a.Value)
		}
	}
	switch {
	case wOK && hOK:
	case wOK && vbOK:
		h, hOK = w*vbH/vbW, true
	case hOK && vbOK:
		w, wOK = h*vbW/vbH, true
	case vbOK:
		w, h, wOK, hOK = vbW, vbH, true, true
	}
	if !wOK || !hOK {
		return 0, 0
	}
	width, height = pixels(w), pixels(h)
	if width == 0 || height == 0 {
		return 0, 0
	}
	return width, height
}

// svgLength parses an absolute SVG length ("120", "120px", "1.5in", ...) into CSS pixels.
// Relative lengths (%, em, ...) are not known without a viewport and give ok == false.
func svgLength(s string) (px float64, ok bool) {
	s = strings.TrimSpace(s)
	units := map[string]float64{"": 1, "px": 1, "in": 96, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 96.0 / 72, "pc": 16}
	num := strings.TrimRightFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' })
	scale, known := units[strings.ToLower(s[len(num):])]
	if !known {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return 0, false
	}
	return v * scale, true
}

// viewBox parses "min-x min-y width height" (separated by whitespace and/or commas).
func viewBox(s string) (width, height float64, ok bool) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	if len(f) != 4 {
		return 0, 0, false
	}
	var v [4]float64
	for i, x := range f {
		n, err := strconv.ParseFloat(x, 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return 0, 0, false
		}
		v[i] = n
	}
	if v[2] <= 0 || v[3] <= 0 {
		return 0, 0, false
	}
	return v[2], v[3], true
}

func pixels(v float64) int {
	r := math.Round(v)
	if r < 1 || r > maxDim {
		return 0
	}
	return int(r)
}

// lazyReader opens its reader on the first Read.
type lazyReader struct {
	open func() (io.ReadCloser, error)
	r    io.ReadCloser
	err  error
}

func (l *lazyReader) Read(p []byte) (int, error) {
	if l.r == nil && l.err == nil {
		l.r, l.err = l.open()
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.r.Read(p)
}

func (l *lazyReader) Close() {
	if l.r != nil {
		_ = l.r.Close()
	}
}
