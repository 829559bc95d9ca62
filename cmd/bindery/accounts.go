package main

import (
	"net/url"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/signin"
)

// browserSignIn builds the account service the graph uses and the /auth door over it.
func browserSignIn(res *graph.Resolver, s serveConfig) (*signin.Handler, error) {
	a := s.Accounts
	res.Accounts = account.New(res.Store, res.Now, account.Config{IdleTimeout: a.SessionIdle, Lifetime: a.SessionLifetime,
		AccountFailures: a.AccountFailures, AddressFailures: a.AddressFailures})
	var trusted []string
	if res.Settings.AppURL != "" && res.Settings.AppURL != res.Settings.PublicURL {
		trusted = append(trusted, originOf(res.Settings.AppURL))
	}
	return signin.New(res.Accounts, signin.Options{PublicURL: res.Settings.PublicURL, TrustedOrigins: trusted,
		AppURL: res.Settings.AppURL, Invites: res})
}

// originOf is a URL's scheme and host: what a browser's Origin header names.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return raw // signin.New refuses it with the reason
	}
	return u.Scheme + "://" + u.Host
}
