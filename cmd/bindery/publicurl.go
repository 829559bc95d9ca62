package main

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// publicURLFor is the API's external base URL: the --public-url flag when given (checked to be an
// absolute http(s) URL), else one derived from the listen address. A listen address with an empty
// or unspecified host (":8080", "0.0.0.0:8080", "[::]:8080") listens everywhere but is no address
// a client can use, so the derived URL names the loopback address instead; derived reports that
// the host was replaced, so that serve can say so in its log.
func publicURLFor(flag, addr string) (u string, derived bool, err error) {
	if flag != "" {
		p, err := url.Parse(flag)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return "", false, fmt.Errorf("--public-url %q: want an absolute http:// or https:// URL", flag)
		}
		return strings.TrimRight(flag, "/"), false, nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", false, fmt.Errorf("--addr %q: want HOST:PORT or :PORT", addr)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return "http://" + net.JoinHostPort("127.0.0.1", port), true, nil
	}
	return "http://" + net.JoinHostPort(host, port), false, nil
}
