package signin_test

import (
	"bufio"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/signin"
)

// smtpServer is an in-process SMTP server that keeps every message it receives.
type smtpServer struct {
	addr     string
	messages chan smtpMessage
}

type smtpMessage struct{ from, to, data string }

func startSMTP(t *testing.T) *smtpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	s := &smtpServer{addr: ln.Addr().String(), messages: make(chan smtpMessage, 10)}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(conn)
		}
	}()
	return s
}

func (s *smtpServer) serve(conn net.Conn) {
	defer conn.Close()
	r, w := bufio.NewReader(conn), bufio.NewWriter(conn)
	reply := func(line string) { w.WriteString(line + "\r\n"); w.Flush() } //nolint:errcheck
	reply("220 test ESMTP")
	var msg smtpMessage
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "HELO"):
			reply("250 test")
		case strings.HasPrefix(cmd, "MAIL FROM:"):
			msg.from = strings.Trim(strings.TrimSpace(line)[10:], "<>")
			reply("250 OK")
		case strings.HasPrefix(cmd, "RCPT TO:"):
			msg.to = strings.Trim(strings.TrimSpace(line)[8:], "<>")
			reply("250 OK")
		case cmd == "DATA":
			reply("354 go on")
			var data strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				data.WriteString(l)
			}
			msg.data = data.String()
			s.messages <- msg
			msg = smtpMessage{}
			reply("250 queued")
		case cmd == "QUIT":
			reply("221 bye")
			return
		default:
			reply("250 OK")
		}
	}
}

func TestResetLinkByEmail(t *testing.T) {
	eachDBWith(t, account.Config{}, func(t *testing.T, s *site, o *signin.Options) {
		s.mailbox = startSMTP(t)
		m, err := signin.NewMailer("smtp://" + s.mailbox.addr + "?from=bindery@example.com")
		if err != nil {
			t.Fatal(err)
		}
		o.Mailer = m
	}, func(t *testing.T, s *site) {
		mailbox := s.mailbox
		known, body := s.call("POST", "/auth/reset-request", `{"email":"Ada@example.com"}`)
		unknown, body2 := s.call("POST", "/auth/reset-request", `{"email":"nobody@example.com"}`)
		if known.StatusCode != http.StatusAccepted || unknown.StatusCode != http.StatusAccepted || body != body2 {
			t.Fatalf("answers: %d %s / %d %s, want the same 202", known.StatusCode, body, unknown.StatusCode, body2)
		}
		var msg smtpMessage
		select {
		case msg = <-mailbox.messages:
		case <-time.After(10 * time.Second):
			t.Fatal("no e-mail arrived")
		}
		if msg.to != "ada@example.com" || msg.from != "bindery@example.com" || !strings.Contains(msg.data, "Subject: Reset your Bindery password") {
			t.Fatalf("message: %+v", msg)
		}
		select {
		case extra := <-mailbox.messages:
			t.Fatalf("a message to an unknown address was sent: %+v", extra)
		case <-time.After(200 * time.Millisecond):
		}
		link := regexp.MustCompile(`http://\S+/auth/reset\?token=\S+`).FindString(msg.data)
		u, err := url.Parse(link)
		if err != nil || link == "" {
			t.Fatalf("no link in %q", msg.data)
		}
		resp, page := s.form("/auth/reset", url.Values{"token": {u.Query().Get("token")}, "password": {"the mailed new passphrase"}})
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Your password is set") {
			t.Fatalf("use the mailed link: %d %s", resp.StatusCode, page)
		}
		// Malformed and too frequent requests are refused.
		if resp, body := s.call("POST", "/auth/reset-request", `{"email":"not an address"}`); resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("malformed address: %d %s", resp.StatusCode, body)
		}
		var last *http.Response
		for i := 0; i < 6; i++ {
			last, _ = s.call("POST", "/auth/reset-request", `{"email":"someone@example.com"}`)
		}
		if last.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("sixth request for one address: %d, want 429", last.StatusCode)
		}
	})
}

func TestNewMailerRefusesBadURLs(t *testing.T) {
	for _, raw := range []string{"", "http://mail.example.com", "smtp://mail.example.com", "smtp://mail.example.com?from=not-an-address", "smtp:///?from=a@b.c"} {
		if _, err := signin.NewMailer(raw); err == nil {
			t.Errorf("NewMailer(%q) accepted it", raw)
		}
	}
	if _, err := signin.NewMailer("smtps://user:secret@mail.example.com?from=bindery@example.com"); err != nil {
		t.Errorf("a good URL: %v", err)
	}
}
