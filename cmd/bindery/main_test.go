package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

// stdoutMu serialises tests that capture os.Stdout.
var stdoutMu sync.Mutex

// run executes the CLI with args and returns what it printed.
func run(t *testing.T, ctx context.Context, args ...string) (string, error) {
	t.Helper()
	stdoutMu.Lock()
	defer stdoutMu.Unlock()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	cmd := app()
	cmd.ErrWriter = io.Discard // usage text on mistakes
	runErr := cmd.Run(ctx, append([]string{"bindery"}, args...))
	os.Stdout = saved
	w.Close()
	out, _ := io.ReadAll(r)
	return string(out), runErr
}

func TestAdminCommands(t *testing.T) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			db := storagetest.DSN(t, d)
			ctx := context.Background()
			// A fresh SQLite file gets every migration (PostgreSQL test databases are cloned from a
			// migrated template); the second run finds nothing pending and says so.
			if out, err := run(t, ctx, "migrate", "--database", db); err != nil || !(strings.HasPrefix(out, "applied ") || strings.Contains(out, "no pending migrations")) {
				t.Fatalf("migrate: %q, %v", out, err)
			}
			if out, err := run(t, ctx, "migrate", "--database", db); err != nil || out != "database is up to date: no pending migrations\n" {
				t.Fatalf("second migrate: %q, %v", out, err)
			}
			out, err := run(t, ctx, "admin", "bootstrap", "--database", db, "--org-title", "Acme", "--email", "boss@acme.test", "--name", "Boss", "--json")
			if err != nil {
				t.Fatalf("bootstrap: %v", err)
			}
			var boot struct {
				Organization struct{ ID string }
				User         struct{ ID string }
				Token        string
			}
			if err := json.Unmarshal([]byte(out), &boot); err != nil || boot.Organization.ID == "" || boot.User.ID == "" || !strings.HasPrefix(boot.Token, "bdy_") {
				t.Fatalf("bootstrap printed %q (%v)", out, err)
			}
			out, err = run(t, ctx, "admin", "user", "create", "--database", db, "--email", "ed@acme.test", "--org", boot.Organization.ID, "--role", "edit", "--json")
			var user struct {
				User  struct{ ID string }
				Token string
			}
			if err != nil || json.Unmarshal([]byte(out), &user) != nil || user.User.ID == "" || user.Token == "" {
				t.Fatalf("user create printed %q (%v)", out, err)
			}
			out, err = run(t, ctx, "admin", "token", "create", "--database", db, "--email", "ed@acme.test", "--expires", "720h", "--json")
			var tok struct {
				User  struct{ ID string }
				Token string
			}
			if err != nil || json.Unmarshal([]byte(out), &tok) != nil || tok.User.ID != user.User.ID || tok.Token == user.Token {
				t.Fatalf("token create printed %q (%v)", out, err)
			}

			s, err := storage.Open(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			m, err := s.FindMembership(ctx, boot.Organization.ID, user.User.ID)
			if err != nil || m.Role == nil || *m.Role != "edit" {
				t.Errorf("membership of the created user = %+v, %v", m, err)
			}
			exp, err := s.FindUserByToken(ctx, tok.Token, time.Now().Add(719*time.Hour))
			if err != nil || exp.ID != user.User.ID {
				t.Errorf("token before expiry: %v", err)
			}
			if _, err := s.FindUserByToken(ctx, tok.Token, time.Now().Add(721*time.Hour)); err == nil {
				t.Error("token still valid after --expires")
			}

			for _, bad := range [][]string{
				{"admin", "bootstrap", "--database", db, "--org-title", "X", "--email", "x@acme.test"},
				{"admin", "user", "create", "--database", db, "--email", "ed@acme.test"},
				{"admin", "user", "create", "--database", db, "--email", "z@acme.test", "--org", boot.Organization.ID, "--role", "owner"},
				{"admin", "user", "create", "--database", db, "--email", "z@acme.test", "--org", "missing"},
				{"admin", "token", "create", "--database", db, "--email", "nobody@acme.test"},
			} {
				if _, err := run(t, ctx, bad...); err == nil {
					t.Errorf("%v succeeded, want an error", bad)
				}
			}
		})
	}
}

func TestServeBootstrapsAndShutsDownGracefully(t *testing.T) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			db := storagetest.DSN(t, d)
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := ln.Addr().String()
			ln.Close()

			ctx, cancel := context.WithCancel(context.Background())
			var (
				out  string
				done = make(chan error, 1)
			)
			go func() {
				var err error
				out, err = run(t, ctx, "serve", "--addr", addr, "--database", db)
				done <- err
			}()
			base := "http://" + addr
			waitFor(t, base+"/healthz")
			if res, err := http.Get(base + "/readyz"); err != nil || res.StatusCode != http.StatusOK {
				t.Errorf("readyz: %v %v", res, err)
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("serve returned %v after SIGTERM-like cancel", err)
			}
			// The first start printed a token and a working curl line.
			token := ""
			for _, f := range strings.Fields(out) {
				if strings.HasPrefix(f, "bdy_") {
					token = f
					break
				}
			}
			if token == "" || !strings.Contains(out, "curl -H \"Authorization: Bearer "+token+"\" "+base+"/v1/orgs") {
				t.Fatalf("first start output lacks the token and curl example:\n%s", out)
			}
			s, err := storage.Open(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if u, err := s.FindUserByToken(context.Background(), token, time.Now()); err != nil || u.Email != "admin@bindery.local" {
				t.Errorf("printed token does not authenticate the admin: %v", err)
			}
			// A second start finds users and prints no token.
			ctx2, cancel2 := context.WithCancel(context.Background())
			go func() {
				var err error
				out, err = run(t, ctx2, "serve", "--addr", addr, "--database", db)
				done <- err
			}()
			waitFor(t, base+"/healthz")
			cancel2()
			if err := <-done; err != nil || strings.Contains(out, "bdy_") {
				t.Errorf("second start: err %v, printed %q", err, out)
			}
		})
	}
}

func waitFor(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if res, err := http.Get(url); err == nil {
			res.Body.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never answered", url)
}
