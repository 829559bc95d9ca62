package account_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

const goodPassword = "a long and unusual passphrase"

// fixture is a service over a fresh store with a clock the test moves, and one user with a
// password.
type fixture struct {
	svc   *account.Service
	store *storage.Store
	now   time.Time
	user  *storage.User
}

func eachDB(t *testing.T, cfg account.Config, fn func(t *testing.T, f *fixture)) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		f := &fixture{store: s, now: storagetest.T0}
		f.svc = account.New(s, func() time.Time { return f.now }, cfg)
		u, err := s.CreateUser(context.Background(), storage.NewUser{DisplayName: "Ada", Email: "ada@example.com"}, f.now)
		if err != nil {
			t.Fatal(err)
		}
		f.user = u
		if err := f.svc.SetPassword(context.Background(), u.ID, goodPassword); err != nil {
			t.Fatal(err)
		}
		fn(t, f)
	})
}

func kind(err error) apperr.Kind {
	if err == nil {
		return ""
	}
	return apperr.KindOf(err)
}

func TestCheckPassword(t *testing.T) {
	tests := []struct {
		name, password string
		ok             bool
	}{
		{"long enough", "plum tractor lantern", true},
		{"too short", "Xy7$kq2!", false},
		{"common", "Password1234", false},
		{"one character repeated", "aaaaaaaaaaaaaaaa", false},
		{"the e-mail itself", "ada@example.com", false},
		{"the e-mail's name and little more", "ada.lovelace1", true},
		{"too long", strings.Repeat("x1", 200), false},
		{"not UTF-8", "abcdefghijkl\xff", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := account.CheckPassword(tt.password, "ada@example.com")
			if (err == nil) != tt.ok {
				t.Fatalf("CheckPassword(%q) = %v, want ok=%v", tt.password, err, tt.ok)
			}
			if err != nil && kind(err) != apperr.Invalid {
				t.Fatalf("kind = %s, want INVALID", kind(err))
			}
		})
	}
}

func TestHashPassword(t *testing.T) {
	h := account.HashPassword("secret words here")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash = %q, want an argon2id PHC string", h)
	}
	if h == account.HashPassword("secret words here") {
		t.Fatal("two hashes of one password are equal: the salt is not fresh")
	}
	for _, tt := range []struct {
		password string
		want     bool
	}{{"secret words here", true}, {"secret words herE", false}, {"", false}} {
		if ok, err := account.VerifyPassword(tt.password, h); ok != tt.want || err != nil {
			t.Errorf("VerifyPassword(%q) = %v, %v; want %v", tt.password, ok, err, tt.want)
		}
	}
	for _, bad := range []string{"", "$argon2i$v=19$m=1,t=1,p=1$AA$AA", "$argon2id$v=19$m=99999999,t=1,p=1$AA$AA", "plain"} {
		if ok, err := account.VerifyPassword("x", bad); ok || err == nil {
			t.Errorf("VerifyPassword against %q = %v, %v; want an error", bad, ok, err)
		}
	}
}

func TestSignIn(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		c := account.Client{Address: "192.0.2.1", UserAgent: "test"}
		in, err := f.svc.SignIn(ctx, "ADA@example.com ", goodPassword, c)
		if err != nil {
			t.Fatalf("SignIn: %v", err)
		}
		if !strings.HasPrefix(in.Token, storage.SessionPrefix) || in.User.ID != f.user.ID {
			t.Fatalf("SignIn = %+v", in)
		}
		actor, se, err := f.svc.Authenticate(ctx, in.Token)
		if err != nil || actor.UserID != f.user.ID || se.ID != in.Session.ID {
			t.Fatalf("Authenticate = %+v, %+v, %v", actor, se, err)
		}

		// Wrong password, unknown e-mail, a user with no password: one answer.
		if _, err := f.store.CreateUser(ctx, storage.NewUser{DisplayName: "No", Email: "nopass@example.com"}, f.now); err != nil {
			t.Fatal(err)
		}
		var msgs []string
		for _, try := range [][2]string{{"ada@example.com", "wrong password here"}, {"nobody@example.com", goodPassword}, {"nopass@example.com", goodPassword}} {
			_, err := f.svc.SignIn(ctx, try[0], try[1], c)
			if kind(err) != apperr.Unauthenticated {
				t.Fatalf("SignIn(%s) = %v, want UNAUTHENTICATED", try[0], err)
			}
			msgs = append(msgs, err.Error())
		}
		if msgs[0] != msgs[1] || msgs[1] != msgs[2] {
			t.Fatalf("answers differ: %q", msgs)
		}
		for _, bad := range [][2]string{{"", goodPassword}, {"ada@example.com", ""}, {strings.Repeat("a", 300) + "@x.io", goodPassword}, {"ada@example.com", strings.Repeat("p", 2000)}} {
			if _, err := f.svc.SignIn(ctx, bad[0], bad[1], c); kind(err) != apperr.Invalid {
				t.Fatalf("SignIn(malformed) = %v, want INVALID", err)
			}
		}
	})
}

// A session id set before sign-in (fixation) is ended by it: the new id differs, the old is dead.
func TestSignInRotatesSession(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		first, err := f.svc.SignIn(ctx, "ada@example.com", goodPassword, account.Client{Address: "a"})
		if err != nil {
			t.Fatal(err)
		}
		second, err := f.svc.SignIn(ctx, "ada@example.com", goodPassword, account.Client{Address: "a", Session: first.Token})
		if err != nil {
			t.Fatal(err)
		}
		if second.Token == first.Token || second.Session.ID == first.Session.ID {
			t.Fatal("sign-in kept the presented session id")
		}
		if _, _, err := f.svc.Authenticate(ctx, first.Token); kind(err) != apperr.Unauthenticated {
			t.Fatalf("presented session after sign-in: %v, want UNAUTHENTICATED", err)
		}
	})
}

func TestSignInFailureLimits(t *testing.T) {
	cfg := account.Config{AccountFailures: 3, AddressFailures: 5, FailureWindow: time.Minute}
	eachDB(t, cfg, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		for i := 0; i < 3; i++ {
			if _, err := f.svc.SignIn(ctx, "ada@example.com", "wrong password!", account.Client{Address: "a"}); kind(err) != apperr.Unauthenticated {
				t.Fatalf("failure %d: %v", i, err)
			}
		}
		// The account is locked for the window, from any address, even with the right password.
		var tooMany *account.TooManyAttempts
		if _, err := f.svc.SignIn(ctx, "ada@example.com", goodPassword, account.Client{Address: "b"}); !errors.As(err, &tooMany) {
			t.Fatalf("right password past the account's limit: %v, want TooManyAttempts", err)
		}
		// Per address: failures on many accounts from one address.
		for i := 0; i < 2; i++ {
			f.svc.SignIn(ctx, "someone@example.com", "wrong password!", account.Client{Address: "a"}) //nolint:errcheck
		}
		if _, err := f.svc.SignIn(ctx, "other@example.com", "wrong password!", account.Client{Address: "a"}); !errors.As(err, &tooMany) {
			t.Fatalf("past the address's limit: %v, want TooManyAttempts", err)
		}
		f.now = f.now.Add(time.Minute)
		if _, err := f.svc.SignIn(ctx, "ada@example.com", goodPassword, account.Client{Address: "a"}); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})
}

func TestSessionExpiry(t *testing.T) {
	cfg := account.Config{IdleTimeout: time.Hour, Lifetime: 3 * time.Hour}
	eachDB(t, cfg, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		in, err := f.svc.SignIn(ctx, "ada@example.com", goodPassword, account.Client{Address: "a"})
		if err != nil {
			t.Fatal(err)
		}
		// Used every 50 minutes, it stays open until its absolute end.
		for i := 0; i < 3; i++ {
			f.now = f.now.Add(50 * time.Minute)
			if _, _, err := f.svc.Authenticate(ctx, in.Token); err != nil {
				t.Fatalf("after %d×50 min: %v", i+1, err)
			}
		}
		f.now = f.now.Add(40 * time.Minute) // 3h10 after sign-in
		if _, _, err := f.svc.Authenticate(ctx, in.Token); kind(err) != apperr.Unauthenticated {
			t.Fatalf("past the lifetime: %v", err)
		}
		in, err = f.svc.SignIn(ctx, "ada@example.com", goodPassword, account.Client{Address: "a"})
		if err != nil {
			t.Fatal(err)
		}
		f.now = f.now.Add(61 * time.Minute)
		if _, _, err := f.svc.Authenticate(ctx, in.Token); kind(err) != apperr.Unauthenticated {
			t.Fatalf("idle past the timeout: %v", err)
		}
		if list, _ := f.svc.Sessions(ctx, f.user.ID); len(list) != 0 {
			t.Fatalf("expired sessions are still listed: %d", len(list))
		}
	})
}

func TestSignOutAndEndSessions(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		a, _ := f.svc.SignIn(ctx, "ada@example.com", goodPassword, account.Client{Address: "a"})
		b, _ := f.svc.SignIn(ctx, "ada@example.com", goodPassword, account.Client{Address: "b"})
		if err := f.svc.SignOut(ctx, a.Token); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.Authenticate(ctx, a.Token); kind(err) != apperr.Unauthenticated {
			t.Fatalf("cookie replayed after sign-out: %v", err)
		}
		if err := f.svc.SignOut(ctx, a.Token); err != nil {
			t.Fatalf("signing out twice: %v", err)
		}
		other, err := f.store.CreateUser(ctx, storage.NewUser{DisplayName: "Eve", Email: "eve@example.com"}, f.now)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.svc.EndSession(ctx, other.ID, b.Session.ID); kind(err) != apperr.NotFound {
			t.Fatalf("ending another user's session: %v, want NOT_FOUND", err)
		}
		if err := f.svc.EndSession(ctx, f.user.ID, b.Session.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.Authenticate(ctx, b.Token); kind(err) != apperr.Unauthenticated {
			t.Fatalf("ended session: %v", err)
		}
		for _, forged := range []string{"", "bdys_", "bdys_notarealsessionidatall", "bdy_token", strings.Repeat("bdys_", 50)} {
			if _, _, err := f.svc.Authenticate(ctx, forged); kind(err) != apperr.Unauthenticated {
				t.Fatalf("forged %q: %v", forged, err)
			}
		}
	})
}

func TestChangePassword(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		here, _ := f.svc.SignIn(ctx, "ada@example.com", goodPassword, account.Client{Address: "a"})
		there, _ := f.svc.SignIn(ctx, "ada@example.com", goodPassword, account.Client{Address: "b"})
		if err := f.svc.ChangePassword(ctx, f.user.ID, here.Session.ID, "not the password", "another fine passphrase", account.Client{}); kind(err) != apperr.Unauthenticated {
			t.Fatalf("wrong current password: %v", err)
		}
		if err := f.svc.ChangePassword(ctx, f.user.ID, here.Session.ID, goodPassword, "short", account.Client{}); kind(err) != apperr.Invalid {
			t.Fatalf("weak new password: %v", err)
		}
		if _, _, err := f.svc.Authenticate(ctx, there.Token); err != nil {
			t.Fatalf("a refused change ended a session: %v", err)
		}
		if err := f.svc.ChangePassword(ctx, f.user.ID, here.Session.ID, goodPassword, "another fine passphrase", account.Client{}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.Authenticate(ctx, here.Token); err != nil {
			t.Fatalf("the session that changed the password: %v", err)
		}
		if _, _, err := f.svc.Authenticate(ctx, there.Token); kind(err) != apperr.Unauthenticated {
			t.Fatalf("another session after a password change: %v", err)
		}
		if _, err := f.svc.SignIn(ctx, "ada@example.com", goodPassword, account.Client{}); kind(err) != apperr.Unauthenticated {
			t.Fatalf("old password: %v", err)
		}
		if _, err := f.svc.SignIn(ctx, "ada@example.com", "another fine passphrase", account.Client{}); err != nil {
			t.Fatalf("new password: %v", err)
		}
	})
}

func TestResetLink(t *testing.T) {
	eachDB(t, account.Config{LinkLifetime: time.Hour}, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		open, _ := f.svc.SignIn(ctx, "ada@example.com", goodPassword, account.Client{})
		token, _, err := f.svc.IssueLink(ctx, "ada@example.com", storage.LinkReset)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.IssueLink(ctx, "nobody@example.com", storage.LinkReset); kind(err) != apperr.NotFound {
			t.Fatalf("link for an unknown e-mail: %v", err)
		}
		for _, forged := range []string{"bdyl_forged", token + "x", "", strings.Replace(token, "bdyl_", "bdys_", 1)} {
			if _, err := f.svc.RedeemLink(ctx, forged, storage.LinkReset, "a brand new passphrase", account.Client{}); kind(err) != apperr.Invalid {
				t.Fatalf("forged link %q: %v", forged, err)
			}
		}
		if _, err := f.svc.RedeemLink(ctx, token, storage.LinkSetup, "a brand new passphrase", account.Client{}); kind(err) != apperr.Invalid {
			t.Fatalf("a reset link used as a set-up link: %v", err)
		}
		if _, err := f.svc.RedeemLink(ctx, token, storage.LinkReset, "short", account.Client{}); kind(err) != apperr.Invalid {
			t.Fatalf("weak password: %v", err)
		}
		in, err := f.svc.RedeemLink(ctx, token, storage.LinkReset, "a brand new passphrase", account.Client{})
		if err != nil {
			t.Fatalf("RedeemLink after a refused password: %v", err)
		}
		if _, _, err := f.svc.Authenticate(ctx, in.Token); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.Authenticate(ctx, open.Token); kind(err) != apperr.Unauthenticated {
			t.Fatalf("session from before the reset: %v", err)
		}
		if _, err := f.svc.RedeemLink(ctx, token, storage.LinkReset, "yet another passphrase", account.Client{}); kind(err) != apperr.Invalid {
			t.Fatalf("reused link: %v", err)
		}
		expired, _, _ := f.svc.IssueLink(ctx, "ada@example.com", storage.LinkReset)
		f.now = f.now.Add(time.Hour)
		if _, err := f.svc.RedeemLink(ctx, expired, storage.LinkReset, "yet another passphrase", account.Client{}); kind(err) != apperr.Invalid {
			t.Fatalf("expired link: %v", err)
		}
		if _, err := f.svc.SignIn(ctx, "ada@example.com", "a brand new passphrase", account.Client{}); err != nil {
			t.Fatalf("refused links changed the password: %v", err)
		}
	})
}
