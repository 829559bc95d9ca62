// Package safefetch fetches a URL given by a user without letting it reach what the server can
// reach and the user cannot: only https (unless allowed), never a loopback, private,
// link-local, multicast or unspecified address, checked on the address actually dialled (after
// DNS resolution, so a name that resolves to 127.0.0.1 is refused too), on every redirect, with
// size and time limits.
package safefetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// Policy says what a fetch may reach. The zero value is the safe default.
type Policy struct {
	// AllowHTTP allows plain http URLs (default: https only).
	AllowHTTP bool
	// AllowPrivate allows loopback, private and link-local addresses (an operator's choice, e.g.
	// for specs served inside their network; tests use it with a local server).
	AllowPrivate bool
	// AllowPrefixes allows these networks only, private or not (an operator's narrower choice:
	// one internal host rather than every private address).
	AllowPrefixes []netip.Prefix
	// MaxBytes bounds the body (default 5 MiB); Timeout the whole fetch (default 20 s);
	// MaxRedirects the redirects followed (default 5).
	MaxBytes     int64
	Timeout      time.Duration
	MaxRedirects int
}

// Error is a refused or failed fetch. Timeout tells a deadline apart from other failures.
type Error struct {
	Msg     string
	Timeout bool
}

func (e *Error) Error() string { return e.Msg }

// ErrForbiddenAddress is why a dial was refused.
var ErrForbiddenAddress = errors.New("address not allowed")

func (p Policy) withDefaults() Policy {
	if p.MaxBytes <= 0 {
		p.MaxBytes = 5 << 20
	}
	if p.Timeout <= 0 {
		p.Timeout = 20 * time.Second
	}
	if p.MaxRedirects <= 0 {
		p.MaxRedirects = 5
	}
	return p
}

// allowedAddr reports whether a fetch may connect to ip.
func (p Policy) allowedAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, pre := range p.AllowPrefixes {
		if pre.Contains(ip) {
			return true
		}
	}
	if p.AllowPrivate {
		return ip.IsValid() && !ip.IsUnspecified()
	}
	return ip.IsValid() && ip.IsGlobalUnicast() && !ip.IsPrivate() && !ip.IsLoopback() &&
		!ip.IsLinkLocalUnicast() && !ip.IsMulticast() && !ip.IsUnspecified() && !cgnat.Contains(ip)
}

// cgnat is the shared address space (RFC 6598), private in all but name.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

func (p Policy) checkURL(u *url.URL) error {
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && p.AllowHTTP:
	default:
		return &Error{Msg: fmt.Sprintf("the URL must use https (got %q)", u.Scheme)}
	}
	if u.User != nil {
		return &Error{Msg: "the URL must not carry credentials"}
	}
	if u.Hostname() == "" {
		return &Error{Msg: "the URL has no host"}
	}
	return nil
}

// Client returns an HTTP client that applies the policy: its dialer checks every address it
// connects to (net.Dialer.Control runs after name resolution, once per address tried), and its
// redirects are checked like the first URL.
func (p Policy) Client() *http.Client {
	p = p.withDefaults()
	dialer := &net.Dialer{
		Timeout: 10 * time.Second,
		Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !p.allowedAddr(ap.Addr()) {
				return fmt.Errorf("%w: %s", ErrForbiddenAddress, address)
			}
			return nil
		},
	}
	transport := &http.Transport{
		Proxy:                  nil, // a proxy would dial for us, unchecked
		DialContext:            dialer.DialContext,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  p.Timeout,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{
		Transport: transport,
		Timeout:   p.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > p.MaxRedirects {
				return &Error{Msg: fmt.Sprintf("more than %d redirects", p.MaxRedirects)}
			}
			return p.checkURL(req.URL)
		},
	}
}

// FetchTimeout is how long one fetch may take (the policy's Timeout, or its default); callers
// that fetch several files as one (a document and its references) bound the whole by it too.
func (p Policy) FetchTimeout() time.Duration { return p.withDefaults().Timeout }

// Check validates a URL before anything is stored or queued. Errors: *Error.
func (p Policy) Check(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() {
		return &Error{Msg: "not an absolute URL"}
	}
	return p.checkURL(u)
}

// Get fetches raw and returns its body. Errors: *Error.
func (p Policy) Get(ctx context.Context, raw string) ([]byte, error) {
	p = p.withDefaults()
	if err := p.Check(raw); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return nil, &Error{Msg: "not a valid URL"}
	}
	req.Header.Set("Accept", "application/json, application/yaml, text/yaml, */*")
	resp, err := p.Client().Do(req)
	if err != nil {
		return nil, describe(ctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &Error{Msg: fmt.Sprintf("the server answered %s", resp.Status)}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, p.MaxBytes+1))
	if err != nil {
		return nil, describe(ctx, err)
	}
	if int64(len(body)) > p.MaxBytes {
		return nil, &Error{Msg: fmt.Sprintf("the document is larger than %d bytes", p.MaxBytes)}
	}
	return body, nil
}

// describe turns a transport error into a message that names the cause without echoing
// anything the server said.
func describe(ctx context.Context, err error) error {
	var fe *Error
	switch {
	case errors.As(err, &fe):
		return fe
	case errors.Is(err, ErrForbiddenAddress):
		return &Error{Msg: "the URL resolves to an address that may not be fetched (loopback, private or link-local)"}
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return &Error{Msg: "the fetch timed out", Timeout: true}
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &Error{Msg: "the fetch timed out", Timeout: true}
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return &Error{Msg: "the host name does not resolve"}
	}
	return &Error{Msg: "the fetch failed: " + err.Error()}
}
