// Package mailer sends Bindery's e-mail (one-time links, invites, sign-in notices) through the
// operator's SMTP server.
package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"strings"
	"time"
)

// Mailer sends plain-text messages through an SMTP server.
type Mailer struct {
	addr     string // host:port
	host     string
	implicit bool // smtps://: TLS from the first byte; smtp:// upgrades with STARTTLS when offered
	auth     smtp.Auth
	from     string
}

// New reads an SMTP URL: smtp://[user:password@]host[:587][?from=address], or smtps://
// for TLS from the start (port 465). Errors: a malformed URL or sender.
func New(raw string) (*Mailer, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return nil, errors.New("the SMTP URL must look like smtp://user:password@host:587?from=bindery@example.com (or smtps://…)")
	}
	m := &Mailer{host: u.Hostname(), implicit: u.Scheme == "smtps"}
	port := u.Port()
	if port == "" {
		port = map[bool]string{true: "465", false: "587"}[m.implicit]
	}
	m.addr = net.JoinHostPort(m.host, port)
	if u.User != nil {
		password, _ := u.User.Password()
		m.auth = smtp.PlainAuth("", u.User.Username(), password, m.host)
	}
	m.from = u.Query().Get("from")
	if m.from == "" {
		return nil, errors.New("the SMTP URL needs the sender: ?from=bindery@example.com")
	}
	if a, err := mail.ParseAddress(m.from); err != nil || a.Address != m.from {
		return nil, fmt.Errorf("the SMTP sender %q is not an e-mail address", m.from)
	}
	return m, nil
}

// Send writes one plain-text message to one recipient.
func (m *Mailer) Send(ctx context.Context, to, subject, body string) error {
	if a, err := mail.ParseAddress(to); err != nil || a.Address != to {
		return fmt.Errorf("send mail: %q is not an e-mail address", to)
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	var conn net.Conn
	var err error
	if m.implicit {
		conn, err = (&tls.Dialer{NetDialer: dialer, Config: &tls.Config{ServerName: m.host}}).DialContext(ctx, "tcp", m.addr)
	} else {
		conn, err = dialer.DialContext(ctx, "tcp", m.addr)
	}
	if err != nil {
		return fmt.Errorf("send mail: %w", err)
	}
	defer conn.Close()
	if deadline, ok := ctx.Deadline(); ok {
		conn.SetDeadline(deadline) //nolint:errcheck
	} else {
		conn.SetDeadline(time.Now().Add(30 * time.Second)) //nolint:errcheck
	}
	c, err := smtp.NewClient(conn, m.host)
	if err != nil {
		return fmt.Errorf("send mail: %w", err)
	}
	defer c.Close()
	if ok, _ := c.Extension("STARTTLS"); ok && !m.implicit {
		if err := c.StartTLS(&tls.Config{ServerName: m.host}); err != nil {
			return fmt.Errorf("send mail: STARTTLS: %w", err)
		}
	}
	if m.auth != nil {
		if err := c.Auth(m.auth); err != nil {
			return fmt.Errorf("send mail: %w", err)
		}
	}
	if err := c.Mail(m.from); err != nil {
		return fmt.Errorf("send mail: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("send mail: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("send mail: %w", err)
	}
	msg := "From: Bindery <" + m.from + ">\r\nTo: <" + to + ">\r\nSubject: " + mime(subject) + "\r\nDate: " + time.Now().UTC().Format(time.RFC1123Z) +
		"\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\nAuto-Submitted: auto-generated\r\n\r\n" +
		strings.ReplaceAll(body, "\n", "\r\n")
	if _, err := w.Write([]byte(msg)); err != nil {
		return fmt.Errorf("send mail: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("send mail: %w", err)
	}
	return c.Quit()
}

// mime keeps a header value on one line.
func mime(s string) string { return strings.NewReplacer("\r", " ", "\n", " ").Replace(s) }
