package safefetch

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// serve starts a plain-http test server on addr (a loopback address).
func serve(t *testing.T, addr string, h http.Handler) string {
	t.Helper()
	l, err := net.Listen("tcp", addr+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	s := httptest.NewUnstartedServer(h)
	s.Listener = l
	s.Start()
	t.Cleanup(s.Close)
	return s.URL
}

func TestLoopbackIsRefusedUnlessAllowed(t *testing.T) {
	url := serve(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("openapi: 3.0.0")) }))
	if _, err := (Policy{AllowHTTP: true}).Get(context.Background(), url); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("loopback fetch: err %v, want refused", err)
	}
	body, err := (Policy{AllowHTTP: true, AllowPrivate: true}).Get(context.Background(), url)
	if err != nil || string(body) != "openapi: 3.0.0" {
		t.Fatalf("allowed fetch: %q, %v", body, err)
	}
}

func TestHTTPSOnlyByDefault(t *testing.T) {
	for _, u := range []string{"http://example.com/spec.yaml", "ftp://example.com/x", "file:///etc/passwd", "https://user:pw@example.com/", "/relative"} {
		if err := (Policy{}).Check(u); err == nil {
			t.Errorf("%s: accepted", u)
		}
	}
	if err := (Policy{}).Check("https://example.com/spec.yaml"); err != nil {
		t.Errorf("https: %v", err)
	}
}

// A redirect is checked like the first URL: an allowed host that redirects to a loopback
// address it may not reach is refused, unless private addresses are allowed.
func TestRedirectToLoopbackIsRefused(t *testing.T) {
	target := serve(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("secret")) }))
	start := serve(t, "127.0.0.1", http.RedirectHandler(target+"/internal", http.StatusFound))
	only := Policy{AllowHTTP: true, AllowPrefixes: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	if body, err := only.Get(context.Background(), start); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("redirect to 127.0.0.2: body %q, err %v; want refused", body, err)
	}
	body, err := (Policy{AllowHTTP: true, AllowPrivate: true}).Get(context.Background(), start)
	if err != nil || string(body) != "secret" {
		t.Fatalf("allowed redirect: %q, %v", body, err)
	}
	// Without AllowHTTP even the first, plain-http hop is refused.
	if _, err := (Policy{AllowPrivate: true}).Get(context.Background(), start); err == nil {
		t.Fatal("http start accepted without AllowHTTP")
	}
}

// A name that resolves to a loopback address is refused on the address dialled.
func TestNameResolvingToLoopbackIsRefused(t *testing.T) {
	url := serve(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("x")) }))
	named := strings.Replace(url, "127.0.0.1", "localhost", 1)
	if _, err := (Policy{AllowHTTP: true}).Get(context.Background(), named); err == nil {
		t.Fatal("localhost accepted")
	}
}

func TestLimits(t *testing.T) {
	url := serve(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-r.Context().Done() // answers only after the client gave up: a timeout whatever the load
			return
		}
		w.Write(make([]byte, 2048))
	}))
	// The size limit is checked with a timeout a loaded machine stays within.
	big := Policy{AllowHTTP: true, AllowPrivate: true, MaxBytes: 1024, Timeout: 30 * time.Second}
	if _, err := big.Get(context.Background(), url+"/big"); err == nil || !strings.Contains(err.Error(), "larger") {
		t.Errorf("big body: %v", err)
	}
	p := Policy{AllowHTTP: true, AllowPrivate: true, MaxBytes: 1024, Timeout: 100 * time.Millisecond}
	_, err := p.Get(context.Background(), url+"/slow")
	if fe, ok := err.(*Error); !ok || !fe.Timeout {
		t.Errorf("slow server: %v, want a timeout", err)
	}
	redirects := serve(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, r.URL.Path+"x", http.StatusFound) }))
	if _, err := (Policy{AllowHTTP: true, AllowPrivate: true}).Get(context.Background(), redirects+"/"); err == nil || !strings.Contains(err.Error(), "redirects") {
		t.Errorf("redirect loop: %v", err)
	}
}
