package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/storage"
)

// What Bindery mails besides reset links (docs/accounts.md): invites and sign-in notices. Each
// message is a job of its own, enqueued with the change that calls for it, so that a crash loses
// none and a retry mails one person again at most.

// inviteMailArgs mails one person an organization's invite.
type inviteMailArgs struct {
	OrganizationID string `json:"organizationId"`
	InviterID      string `json:"inviterId"`
	UserID         string `json:"userId"`
}

func (inviteMailArgs) Kind() string { return "invite_mail" }

// signInNoticeArgs tells a person that their account signed in from a new browser.
type signInNoticeArgs struct {
	UserID    string `json:"userId"`
	SessionID string `json:"sessionId"`
	Method    string `json:"method"`
	UserAgent string `json:"userAgent"`
	Address   string `json:"address"`
	At        string `json:"at"`
}

func (signInNoticeArgs) Kind() string { return "signin_notice" }

func init() {
	addJobKinds(func(r *App, reg *jobs.Registry) {
		jobs.Add(reg, r.workInviteMail)
		jobs.Add(reg, r.workSignInNotice)
	})
}

// inviteMails is InviteUsers' notify: a message for each person added, when the server mails.
func (r *App) inviteMails(orgID, inviterID string) func(added []string) []storage.JobArgs {
	if r.Mail == nil {
		return nil
	}
	return func(added []string) []storage.JobArgs {
		out := make([]storage.JobArgs, len(added))
		for i, id := range added {
			out[i] = inviteMailArgs{OrganizationID: orgID, InviterID: inviterID, UserID: id}
		}
		return out
	}
}

func (r *App) workInviteMail(ctx context.Context, job *jobs.Job[inviteMailArgs]) error {
	a := job.Args
	org, err := r.Store.FindOrganizationByID(ctx, a.OrganizationID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil // deleted since: nothing to join
	}
	if err != nil {
		return err
	}
	if _, err := r.Store.FindMembership(ctx, org.ID, a.UserID); errors.Is(err, storage.ErrNotFound) {
		return nil // removed since
	} else if err != nil {
		return err
	}
	u, err := r.Store.FindUserByID(ctx, a.UserID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	inviter := "An administrator"
	if who, err := r.Store.FindUserByID(ctx, a.InviterID); err == nil && who.DisplayName != "" {
		inviter = who.DisplayName
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s invited you to the organization %s on Bindery.\n\n", inviter, org.Title)
	_, err = r.Store.PasswordHash(ctx, u.ID)
	switch {
	case errors.Is(err, storage.ErrNotFound) && !u.EmailVerified:
		// A new account: the link lets them choose a password (and proves the address).
		token, _, err := r.accounts().IssueLink(ctx, u.Email, storage.LinkSetup)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "Choose your password to join (the link works once, for %s):\n\n    %s/auth/setup?token=%s\n\n",
			lifetimeWords(r.accounts().Config().LinkLifetime.Hours()), strings.TrimRight(r.Settings.PublicURL, "/"), token)
		b.WriteString("If it has expired, ask for a new one with \"Forgot your password?\" on the sign-in page.\n")
	case err != nil && !errors.Is(err, storage.ErrNotFound):
		return err
	default:
		fmt.Fprintf(&b, "Sign in as %s to open it:\n\n    %s/o/%s/\n", u.Email, r.Settings.AppURL, org.ID)
	}
	b.WriteString("\nIf you did not expect this invitation, you can ignore this message.\n")
	return r.Mail.Send(ctx, u.Email, "You are invited to "+org.Title+" on Bindery", b.String())
}

func lifetimeWords(hours float64) string {
	if hours >= 48 && int(hours)%24 == 0 {
		return fmt.Sprintf("%d days", int(hours)/24)
	}
	return fmt.Sprintf("%g hours", hours)
}

// NoticeSignIn is account.Config's Notify: it enqueues the notice of a sign-in from a new
// browser, when the server mails.
func (r *App) NoticeSignIn(ctx context.Context, n account.SignInNotice) error {
	if r.Mail == nil {
		return nil
	}
	_, err := r.Store.InsertJob(ctx, signInNoticeArgs{UserID: n.UserID, SessionID: n.SessionID, Method: n.Method,
		UserAgent: n.UserAgent, Address: n.Address, At: n.At.UTC().Format("2006-01-02 15:04 MST")}, nil)
	return err
}

func (r *App) workSignInNotice(ctx context.Context, job *jobs.Job[signInNoticeArgs]) error {
	a := job.Args
	u, err := r.Store.FindUserByID(ctx, a.UserID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	browser := a.UserAgent
	if browser == "" {
		browser = "an unnamed browser"
	}
	body := fmt.Sprintf("Your Bindery account %s signed in from a new browser.\n\n    When:    %s\n    How:     %s\n    Browser: %s\n    Address: %s\n\n"+
		"If this was you, there is nothing to do. If not, change your password and end the sessions you do not recognise\n"+
		"(your sessions are listed in the app, and an administrator can sign you out everywhere): %s/auth/reset-request\n",
		u.Email, a.At, a.Method, browser, a.Address, strings.TrimRight(r.Settings.PublicURL, "/"))
	return r.Mail.Send(ctx, u.Email, "New sign-in to your Bindery account", body)
}

// webhookDisabledMailArgs tells a webhook's owners that it was disabled after failing: without
// To, the job finds them and enqueues a message for each.
type webhookDisabledMailArgs struct {
	OrganizationID string `json:"organizationId"`
	WebhookID      string `json:"webhookId"`
	To             string `json:"to,omitempty"`
}

func (webhookDisabledMailArgs) Kind() string { return "webhook_disabled_mail" }

func init() {
	addJobKinds(func(r *App, reg *jobs.Registry) { jobs.Add(reg, r.workWebhookDisabledMail) })
}

// workWebhookDisabledMail mails the webhook's creator, while they are a member of its
// organization, else its admins: the endpoint is disabled until someone enables it again.
func (r *App) workWebhookDisabledMail(ctx context.Context, job *jobs.Job[webhookDisabledMailArgs]) error {
	a := job.Args
	w, err := r.Store.FindWebhook(ctx, a.OrganizationID, a.WebhookID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil // deleted since
	}
	if err != nil {
		return err
	}
	if w.Enabled {
		return nil // enabled again since
	}
	org, err := r.Store.FindOrganizationByID(ctx, a.OrganizationID)
	if err != nil {
		return err
	}
	if a.To != "" {
		return r.mailWebhookDisabled(ctx, org, w, a.To)
	}
	var to []string
	if w.CreatedBy != nil {
		if m, err := r.Store.FindMembership(ctx, org.ID, *w.CreatedBy); err == nil && m.User != nil {
			to = []string{m.User.Email}
		} else if !errors.Is(err, storage.ErrNotFound) && err != nil {
			return err
		}
	}
	if len(to) == 0 {
		if to, err = r.Store.AdminEmails(ctx, org.ID); err != nil {
			return err
		}
	}
	each := make([]storage.JobArgs, len(to))
	for i, addr := range to {
		each[i] = webhookDisabledMailArgs{OrganizationID: a.OrganizationID, WebhookID: a.WebhookID, To: addr}
	}
	return r.Store.InsertJobs(ctx, each, nil)
}

func (r *App) mailWebhookDisabled(ctx context.Context, org *storage.Organization, w *storage.Webhook, to string) error {
	reason := "it kept failing"
	if w.DisabledReason != nil {
		reason = *w.DisabledReason
	}
	body := fmt.Sprintf("A webhook of the organization %s no longer receives events: it was %s.\n\n    Endpoint: %s\n    Webhook:  %s\n\n"+
		"Its delivery log shows the answers it gave. Once the endpoint answers again, enable the webhook\n"+
		"(PATCH %s/v1/orgs/%s/webhooks/%s with {\"enabled\": true}, or updateWebhook in GraphQL):\n"+
		"the events it missed while disabled are not sent.\n",
		org.Title, reason, w.URL, w.ID, strings.TrimRight(r.Settings.PublicURL, "/"), org.ID, w.ID)
	return r.Mail.Send(ctx, to, "A webhook of "+org.Title+" was disabled", body)
}
