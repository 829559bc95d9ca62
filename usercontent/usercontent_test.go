package usercontent

import (
	"net/http"
	"testing"
)

func TestOnlyPassiveTypesAreInline(t *testing.T) {
	for typ, want := range map[string]bool{
		"image/png": true, "image/jpeg": true, "image/webp": true, "video/mp4": true, "audio/mpeg": true,
		"text/plain; charset=utf-8": true, "TEXT/PLAIN": true,
		"image/svg+xml": false, "text/html": false, "text/html; charset=utf-8": false, "application/pdf": false,
		"text/xml": false, "application/xhtml+xml": false, "application/javascript": false, "text/css": false,
		"application/octet-stream": false, "": false, "image/png; x=\"": false, "text/plain\r\nX: y": false,
	} {
		if got := Inline(typ); got != want {
			t.Errorf("Inline(%q) = %v, want %v", typ, got, want)
		}
	}
}

func TestMalformedTypesAreNeverEchoed(t *testing.T) {
	for stored, want := range map[string]string{
		"image/png":                    "image/png",
		"text/plain; charset=utf-8":    "text/plain; charset=utf-8",
		"text/html\r\nSet-Cookie: a=b": "application/octet-stream",
		"nonsense":                     "application/octet-stream",
		"":                             "application/octet-stream",
	} {
		if got := ContentType(stored); got != want {
			t.Errorf("ContentType(%q) = %q, want %q", stored, got, want)
		}
	}
}

func TestHeadersAlwaysCarryADisposition(t *testing.T) {
	for _, tt := range []struct{ name, typ, disposition, filename string }{
		{"cat.png", "image/png", "inline", "filename=cat.png"},
		{"page.html", "text/html", "attachment", "filename=page.html"},
		{"naïve résumé.pdf", "application/pdf", "attachment", "filename*=utf-8''na%C3%AFve%20r%C3%A9sum%C3%A9.pdf"},
		{"bad\x00name.svg", "image/svg+xml", "attachment", "filename*=utf-8''bad%00name.svg"}, // encoded, never raw
	} {
		h := http.Header{}
		SetHeaders(h, tt.name, tt.typ)
		if d, want := h.Get("Content-Disposition"), tt.disposition+"; "+tt.filename; d != want {
			t.Errorf("%s: Content-Disposition %q, want %q", tt.name, d, want)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Content-Security-Policy") != CSP {
			t.Errorf("%s: headers %v", tt.name, h)
		}
	}
}
