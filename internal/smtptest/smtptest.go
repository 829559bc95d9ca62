// Package smtptest is an in-process SMTP server for tests of what Bindery mails.
package smtptest

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"
)

// Server is an in-process SMTP server that keeps every message it receives, for tests.
type Server struct {
	Addr     string
	Messages chan Message
}

// Message is one message the server received: envelope sender and recipient, and the data.
type Message struct{ From, To, Data string }

func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	s := &Server{Addr: ln.Addr().String(), Messages: make(chan Message, 10)}
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

func (s *Server) serve(conn net.Conn) {
	defer conn.Close()
	r, w := bufio.NewReader(conn), bufio.NewWriter(conn)
	reply := func(line string) { w.WriteString(line + "\r\n"); w.Flush() } //nolint:errcheck
	reply("220 test ESMTP")
	var msg Message
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
			msg.From = strings.Trim(strings.TrimSpace(line)[10:], "<>")
			reply("250 OK")
		case strings.HasPrefix(cmd, "RCPT TO:"):
			msg.To = strings.Trim(strings.TrimSpace(line)[8:], "<>")
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
			msg.Data = data.String()
			s.Messages <- msg
			msg = Message{}
			reply("250 queued")
		case cmd == "QUIT":
			reply("221 bye")
			return
		default:
			reply("250 OK")
		}
	}
}

// Next returns the next message, failing the test when none arrives within 10 seconds.
func (s *Server) Next(t testing.TB) Message {
	t.Helper()
	select {
	case m := <-s.Messages:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no e-mail arrived")
		return Message{}
	}
}

// None fails the test when a message arrives within wait.
func (s *Server) None(t testing.TB, wait time.Duration) {
	t.Helper()
	select {
	case m := <-s.Messages:
		t.Fatalf("unexpected e-mail to %s: %s", m.To, m.Data)
	case <-time.After(wait):
	}
}
