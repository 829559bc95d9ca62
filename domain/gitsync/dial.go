package gitsync

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// The address check (CheckReachable) runs on names before a job connects; the HTTP transport
// checks again on every connection it opens, after resolution, so a name that resolves to a
// private address at connect time (DNS rebinding) or a redirect to one is refused too.

type allowLocalKey struct{}

// WithAllowLocal marks ctx as allowed (or not) to reach local and private addresses.
func WithAllowLocal(ctx context.Context, allow bool) context.Context {
	return context.WithValue(ctx, allowLocalKey{}, allow)
}

func allowLocal(ctx context.Context) bool {
	allow, _ := ctx.Value(allowLocalKey{}).(bool)
	return allow
}

var installHTTP sync.Once

// guardTransports installs, once, the HTTP(S) client go-git uses for every remote.
func guardTransports() {
	installHTTP.Do(func() {
		transport := &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         guardedDial,
			TLSClientConfig:     &tls.Config{MinVersion: tls.VersionTLS12},
			TLSHandshakeTimeout: 30 * time.Second,
			IdleConnTimeout:     90 * time.Second,
		}
		c := githttp.NewClient(&http.Client{Transport: transport})
		client.InstallProtocol("https", c)
		client.InstallProtocol("http", c)
	})
}

func guardedDial(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 30 * time.Second}
	if !allowLocal(ctx) {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !publicAddr(ap.Addr()) {
				return ErrLocalRemote
			}
			return nil
		}
	}
	return d.DialContext(ctx, network, addr)
}
