// Package usercontent is the one policy for answering with bytes a user uploaded, wherever they
// are served (the API's file route, published sites' file route, any later one).
//
// Uploaded bytes are the uploader's, served on an origin that also serves every organization's
// sites and, through them, visitors' cookies. So a browser must never run them: only a short
// allow-list of passive types (raster images, audio, video, plain text) is ever shown inline;
// everything else is downloaded as an attachment; every answer carries nosniff (the browser keeps
// the type we send) and a sandboxing CSP (nothing runs even when shown). SVG, HTML, XML and PDF,
// which can all hold script, are attachments. An <img src> still displays an SVG attachment:
// Content-Disposition only governs navigation, and images never run script.
//
// The type served is the stored one, which uploads take from the bytes (storage/blob sniffs them):
// a declared type is kept only for bytes the sniffer cannot name, and is harmless here, since a
// type outside the allow-list is an attachment whatever it claims.
package usercontent

import (
	"mime"
	"net/http"
	"strings"
)

// CSP is the Content-Security-Policy of every answer with user content: a sandbox (no script, no
// same-origin access, no forms), nothing loaded, except what showing an image or a media file
// itself needs (Firefox applies img-src and media-src to a document that is an image).
const CSP = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'"

// inlineImages are the raster image types browsers show without running anything.
var inlineImages = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true, "image/avif": true,
	"image/bmp": true, "image/x-icon": true, "image/vnd.microsoft.icon": true, "image/apng": true,
}

// Inline reports whether a content type is passive enough to show inline: raster images, audio,
// video and plain text. Anything else, or anything unparseable, is not.
func Inline(contentType string) bool {
	mediaType, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	switch {
	case inlineImages[mediaType], mediaType == "text/plain":
		return true
	case strings.HasPrefix(mediaType, "audio/"), strings.HasPrefix(mediaType, "video/"):
		return true
	}
	return false
}

// ContentType is the type to send for a stored one: the stored type when it is a well-formed
// media type, else
// application/octet-stream (a malformed type is never echoed into a header).
func ContentType(stored string) string {
	mediaType, params, err := mime.ParseMediaType(stored)
	if err != nil || !strings.Contains(mediaType, "/") { // a media type is type/subtype
		return "application/octet-stream"
	}
	if t := mime.FormatMediaType(mediaType, params); t != "" {
		return t
	}
	return "application/octet-stream"
}

// SetHeaders sets the headers of an answer carrying a user's file named name of the stored type:
// its type, nosniff, the sandboxing CSP, and a disposition that is inline only for the allow-list.
func SetHeaders(h http.Header, name, storedType string) {
	contentType := ContentType(storedType)
	disposition := "attachment"
	if Inline(contentType) {
		disposition = "inline"
	}
	h.Set("Content-Type", contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", CSP)
	// A name FormatMediaType cannot encode gives "": the disposition then goes without it, never
	// missing (a missing disposition is inline).
	value := mime.FormatMediaType(disposition, map[string]string{"filename": name})
	if value == "" {
		value = disposition
	}
	h.Set("Content-Disposition", value)
}
