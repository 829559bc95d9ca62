// Package gitsync reads and writes GitBook's Git Sync layout and talks to Git remotes (go-git).
// It knows nothing of spaces, storage or permissions: domain/gitsync.go turns what it reads into a
// revision and a revision into what it writes.
package gitsync

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
)

// Remote is a repository address split into its public part and its credentials.
type Remote struct {
	// URL is the address without credentials: safe to store, log and show.
	URL string
	// Username and Password are the basic-auth credentials the URL carried (empty when none).
	Username, Password string
	// Local is true for file:// URLs.
	Local bool
	host  string
}

// HasCredentials reports whether the URL carried credentials.
func (r Remote) HasCredentials() bool { return r.Username != "" || r.Password != "" }

// ErrInvalidURL is wrapped by every refusal of ParseRemote; its message never holds credentials.
var ErrInvalidURL = errors.New("invalid repository URL")

// ParseRemote splits a repository URL (https://, http://, ssh://, git@host:path or file://) into
// its public address and credentials.
func ParseRemote(raw string) (Remote, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return Remote{}, fmt.Errorf("%w: empty", ErrInvalidURL)
	}
	if !strings.Contains(raw, "://") {
		// scp-like ssh: user@host:path
		at, colon := strings.Index(raw, "@"), strings.Index(raw, ":")
		if at > 0 && colon > at+1 && colon < len(raw)-1 {
			return Remote{URL: raw, host: raw[at+1 : colon]}, nil
		}
		return Remote{}, fmt.Errorf("%w: use an https://, ssh:// or file:// URL", ErrInvalidURL)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return Remote{}, fmt.Errorf("%w: cannot be parsed", ErrInvalidURL)
	}
	var r Remote
	if u.User != nil {
		r.Username = u.User.Username()
		r.Password, _ = u.User.Password()
		u.User = nil
	}
	switch u.Scheme {
	case "https", "http", "ssh", "git":
		if u.Hostname() == "" {
			return Remote{}, fmt.Errorf("%w: no host", ErrInvalidURL)
		}
		r.host = u.Hostname()
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return Remote{}, fmt.Errorf("%w: a file:// URL names no host", ErrInvalidURL)
		}
		r.Local = true
	default:
		return Remote{}, fmt.Errorf("%w: scheme %q is not supported", ErrInvalidURL, u.Scheme)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return Remote{}, fmt.Errorf("%w: no query or fragment", ErrInvalidURL)
	}
	r.URL = u.String()
	return r, nil
}

// ErrLocalRemote: the address is on this machine or a private network, which the operator has not
// allowed.
var ErrLocalRemote = errors.New("repository URLs on local, private or link-local addresses (and file:// URLs) are refused; the operator allows them with --git-allow-local")

// CheckReachable refuses, unless allowLocal, file:// URLs and hosts that are (or resolve to)
// loopback, private, link-local, unspecified or multicast addresses.
func CheckReachable(ctx context.Context, r Remote, allowLocal bool) error {
	if allowLocal {
		return nil
	}
	if r.Local {
		return ErrLocalRemote
	}
	if ip, err := netip.ParseAddr(strings.Trim(r.host, "[]")); err == nil {
		if !publicAddr(ip) {
			return ErrLocalRemote
		}
		return nil
	}
	if strings.EqualFold(r.host, "localhost") || strings.HasSuffix(strings.ToLower(r.host), ".localhost") {
		return ErrLocalRemote
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", r.host)
	if err != nil {
		return fmt.Errorf("resolve %s: host not found", r.host)
	}
	for _, ip := range addrs {
		if !publicAddr(ip) {
			return ErrLocalRemote
		}
	}
	return nil
}

// publicAddr reports whether ip is a globally routable unicast address.
func publicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsValid() && !ip.IsLoopback() && !ip.IsPrivate() && !ip.IsLinkLocalUnicast() &&
		!ip.IsLinkLocalMulticast() && !ip.IsUnspecified() && !ip.IsMulticast() && !ip.IsInterfaceLocalMulticast() &&
		!netip.MustParsePrefix("100.64.0.0/10").Contains(ip) // carrier-grade NAT
}

// Sealer encrypts credentials at rest with a key derived from the server's secret (AES-256-GCM).
type Sealer struct{ aead cipher.AEAD }

// NewSealer derives the encryption key from secret. An empty secret gives nil: no credentials
// can be kept.
func NewSealer(secret string) *Sealer { return NewSealerFor("bindery git credentials", secret) }

// NewSealerFor derives an encryption key for one purpose from secret, so that what one purpose
// sealed cannot be opened as another's. An empty secret gives nil.
func NewSealerFor(purpose, secret string) *Sealer {
	if secret == "" {
		return nil
	}
	key := sha256.Sum256([]byte(purpose + "\x00" + secret))
	block, _ := aes.NewCipher(key[:])
	aead, _ := cipher.NewGCM(block)
	return &Sealer{aead: aead}
}

// Seal encrypts plaintext; the result is base64 text.
func (s *Sealer) Seal(plaintext string) string {
	nonce := make([]byte, s.aead.NonceSize())
	_, _ = rand.Read(nonce)
	return base64.StdEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(plaintext), nil))
}

// Open decrypts what Seal made with the same secret.
func (s *Sealer) Open(sealed string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(sealed)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return "", errors.New("stored credentials are damaged")
	}
	plain, err := s.aead.Open(nil, raw[:s.aead.NonceSize()], raw[s.aead.NonceSize():], nil)
	if err != nil {
		return "", errors.New("stored credentials cannot be decrypted (was the server's secret key changed?)")
	}
	return string(plain), nil
}
