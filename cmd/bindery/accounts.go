package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/mailer"
	"github.com/bindery/bindery/signin"
	"github.com/bindery/bindery/storage"
	"github.com/urfave/cli/v3"
)

// browserSignIn builds the account service the graph uses and the /auth door over it.
func browserSignIn(ctx context.Context, res *domain.App, s serveConfig) (*signin.Handler, error) {
	a := s.Accounts
	cfg := account.Config{IdleTimeout: a.SessionIdle, Lifetime: a.SessionLifetime,
		AccountFailures: a.AccountFailures, AddressFailures: a.AddressFailures}
	if a.SMTPURL != "" {
		var err error
		if res.Mail, err = mailer.New(a.SMTPURL); err != nil {
			return nil, err
		}
		cfg.Notify = res.NoticeSignIn
	}
	res.Accounts = account.New(res.Store, res.Now, cfg)
	var trusted []string
	if res.Settings.AppURL != "" && res.Settings.AppURL != res.Settings.PublicURL {
		trusted = append(trusted, originOf(res.Settings.AppURL))
	}
	opts := signin.Options{PublicURL: res.Settings.PublicURL, TrustedOrigins: trusted, AppURL: res.Settings.AppURL, Invites: res, SAML: res}
	if a.OIDCIssuer != "" || a.OIDCClientID != "" {
		var err error
		opts.OIDC, err = signin.NewOIDC(ctx, signin.OIDCConfig{Issuer: a.OIDCIssuer, ClientID: a.OIDCClientID, ClientSecret: a.OIDCClientSecret, Name: a.OIDCName, Scopes: a.OIDCScopes})
		if err != nil {
			return nil, err
		}
		res.Settings.SingleSignOn = opts.OIDC.Name()
		slog.Info("single sign-on", "issuer", a.OIDCIssuer, "redirect_url", strings.TrimRight(res.Settings.PublicURL, "/")+"/auth/oidc/callback")
	}
	opts.Mailer = res.Mail
	passkeys, err := account.NewPasskeys(res.Accounts, res.Store, account.PasskeyConfig{PublicURL: res.Settings.PublicURL,
		RPID: a.PasskeyRPID, Origins: trusted})
	switch {
	case err == nil:
		opts.Passkeys = passkeys
	case a.PasskeyRPID != "":
		return nil, err
	default: // an IP address as public URL (the default): browsers refuse passkeys there
		slog.Warn("passkeys off: they need a public URL with a domain name (localhost works for development)", "err", err)
	}
	return signin.New(res.Accounts, opts)
}

// originOf is a URL's scheme and host: what a browser's Origin header names.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return raw // signin.New refuses it with the reason
	}
	return u.Scheme + "://" + u.Host
}

// linkURL is the address of a one-time link's page (/auth/setup, /auth/reset).
func linkURL(publicURL, page, token string) string {
	return strings.TrimRight(publicURL, "/") + "/auth/" + page + "?token=" + url.QueryEscape(token)
}

// passwordResetLink prints a reset link for a user: the way to a password without e-mail.
func passwordResetLink(ctx context.Context, cmd *cli.Command, c *config) error {
	res, closeStore, err := open(ctx, cmd, c)
	if err != nil {
		return err
	}
	defer closeStore()
	svc := account.New(res.Store, res.Now, account.Config{})
	token, u, err := svc.IssueLink(ctx, c.Admin.Email, storage.LinkReset)
	if err != nil {
		return err
	}
	link := linkURL(c.Admin.PublicURL, "reset", token)
	if c.JSON {
		return json.NewEncoder(os.Stdout).Encode(map[string]any{"user": map[string]string{"id": u.ID}, "url": link,
			"expiresIn": svc.Config().LinkLifetime.String()})
	}
	fmt.Printf("reset link for %s (one use, valid for %s):\n%s\n", u.Email, svc.Config().LinkLifetime, link)
	return nil
}
