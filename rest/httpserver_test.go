package rest_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/rest"
)

// startServer serves h on a loopback port with limits l and returns its address.
func startServer(t *testing.T, h http.Handler, l rest.ServerLimits) string {
	t.Helper()
	ln, err := rest.Listen("127.0.0.1:0", l)
	if err != nil {
		t.Fatal(err)
	}
	srv := rest.NewHTTPServer(h, l)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// closedWithin reports whether the server closes conn within d (reading whatever it answers).
func closedWithin(conn net.Conn, d time.Duration) bool {
	_ = conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, conn)
	return err == nil // EOF: the server closed; a timeout is an error
}

// Issue 12, finding 6: slow bodies and idle keep-alives are cut off, connections are capped,
// and a slow handler still answers (no ReadTimeout ending a request whose answer takes long).
func TestServerTimeouts(t *testing.T) {
	l := rest.DefaultServerLimits()
	// Timeouts long enough that a loaded machine finishes each step well within them; the
	// closures they cause are waited for (closedWithin), never assumed after a sleep.
	l.ReadHeaderTimeout, l.BodyTimeout, l.IdleTimeout = time.Second, time.Second, time.Second
	l.MaxConnections = 2
	holding := make(chan struct{}, 8) // a request to /hold has reached the handler
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			holding <- struct{}{}
		}
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			return
		}
		if r.URL.Path == "/slow" {
			time.Sleep(1500 * time.Millisecond) // longer than every timeout: still answered
		}
		io.WriteString(w, "ok")
	})
	addr := startServer(t, h, l)

	t.Run("slow body", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		io.WriteString(conn, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
		if !closedWithin(conn, 3*time.Second) {
			t.Error("a connection sending its body slowly stayed open")
		}
	})
	t.Run("slow headers", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		io.WriteString(conn, "GET /x HTTP/1.1\r\nHost: x\r\n")
		if !closedWithin(conn, 3*time.Second) {
			t.Error("a connection sending its headers slowly stayed open")
		}
	})
	t.Run("idle keep-alive", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		io.WriteString(conn, "GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("answer: %v %v", res, err)
		}
		if !closedWithin(conn, 3*time.Second) {
			t.Error("an idle keep-alive connection stayed open")
		}
	})
	t.Run("slow handler answers", func(t *testing.T) {
		res, err := http.Post("http://"+addr+"/slow", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if b, _ := io.ReadAll(res.Body); string(b) != "ok" {
			t.Errorf("answer %q", b)
		}
		http.DefaultClient.CloseIdleConnections() // the next subtest counts connections
	})
	t.Run("connection cap", func(t *testing.T) {
		var held []net.Conn
		for range 2 {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(c, "POST /hold HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n") // holds its slot
			held = append(held, c)
		}
		for range held { // both accepted and in the handler: the cap is reached (no guess at how long that takes)
			<-holding
		}
		third, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer third.Close()
		io.WriteString(third, "GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
		_ = third.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		if n, _ := third.Read(make([]byte, 1)); n > 0 {
			t.Error("a third connection was served while two were held")
		}
		for _, c := range held {
			c.Close()
		}
		_ = third.SetReadDeadline(time.Now().Add(3 * time.Second))
		if res, err := http.ReadResponse(bufio.NewReader(third), nil); err != nil || res.StatusCode != 200 {
			t.Errorf("third connection after the others closed: %v %v", res, err)
		}
	})
}
