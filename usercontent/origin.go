package usercontent

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Origin is a host of its own for user content (--files-origin). A browser isolates origins: a
// file that somehow ran script there could read nothing of the origin that holds visitors' and
// users' cookies, the API and the sites. So when an operator sets one, every file is answered
// from it, and it answers nothing else.
//
// Files the API lists are fetched there with the caller's token, as on the main origin. Files of
// published sites are read by visitors whose credentials (share keys, visitor tokens) are cookies
// of the main origin, which the files origin never sees: the main origin checks the visitor and
// redirects to a link to the file on the files origin, signed and short-lived, that proves it.
type Origin struct {
	base string // scheme://host[:port], no trailing slash
	host string // host[:port] as requests name it
	key  []byte // signs file links (HMAC-SHA256)
}

// LinkLifetime is how long a signed link to a file stays valid: long enough for a browser to
// follow the redirect and load the file, short enough that a copied link soon stops working.
const LinkLifetime = 10 * time.Minute

// NewOrigin reads an origin URL (https://usercontent.example) and the server's secret, which
// derives the key signing file links (every server of a deployment shares it).
func NewOrigin(rawURL, secret string) (*Origin, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.User != nil {
		return nil, fmt.Errorf("--files-origin %q: want an origin such as https://usercontent.example (a scheme and a host, no path)", rawURL)
	}
	if secret == "" {
		return nil, errors.New("--files-origin needs --secret-key (BINDERY_SECRET_KEY): it signs the links that let visitors of published sites load files from that origin")
	}
	key := sha256.Sum256([]byte("bindery file links\x00" + secret))
	return &Origin{base: u.Scheme + "://" + u.Host, host: strings.ToLower(u.Host), key: key[:]}, nil
}

// URL is the origin's base URL, scheme://host[:port].
func (o *Origin) URL() string { return o.base }

// Serves reports whether a request was addressed to the files origin (its Host header).
func (o *Origin) Serves(r *http.Request) bool {
	host := strings.ToLower(r.Host)
	if host == o.host {
		return true
	}
	// A default port may be left out or spelt out.
	if h, port, err := net.SplitHostPort(host); err == nil && (port == "80" || port == "443") {
		return h == o.host
	}
	return false
}

// SignedFileURL is a link on the files origin to one file version, valid until now+LinkLifetime.
func (o *Origin) SignedFileURL(versionID, name string, now time.Time) string {
	expires := strconv.FormatInt(now.Add(LinkLifetime).Unix(), 10)
	q := url.Values{"expires": {expires}, "signature": {o.sign(versionID, expires)}}
	return o.base + "/files/" + url.PathEscape(versionID) + "/" + url.PathEscape(name) + "?" + q.Encode()
}

// IsSigned reports whether a request carries a signature, valid or not: such a request is
// answered by its signature alone.
func IsSigned(r *http.Request) bool { return r.URL.Query().Has("signature") }

// Verify reports whether a request for versionID carries a valid, unexpired signature.
func (o *Origin) Verify(r *http.Request, versionID string, now time.Time) bool {
	q := r.URL.Query()
	expires := q.Get("expires")
	at, err := strconv.ParseInt(expires, 10, 64)
	if err != nil || now.Unix() > at {
		return false
	}
	got, err := base64.RawURLEncoding.DecodeString(q.Get("signature"))
	if err != nil {
		return false
	}
	want, _ := base64.RawURLEncoding.DecodeString(o.sign(versionID, expires))
	return hmac.Equal(got, want)
}

func (o *Origin) sign(versionID, expires string) string {
	m := hmac.New(sha256.New, o.key)
	m.Write([]byte("file\x00" + versionID + "\x00" + expires))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
