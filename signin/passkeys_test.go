package signin_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/signin"
	"github.com/bindery/bindery/storage"
	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
)

// softKey is a software authenticator holding one discoverable ECDSA P-256 credential, answering
// the ceremonies as a browser with a platform authenticator would.
type softKey struct {
	t          *testing.T
	key        *ecdsa.PrivateKey
	id         []byte
	userHandle []byte
	count      uint32
	origin     string // what the "browser" puts in clientDataJSON
}

func newSoftKey(t *testing.T, origin string) *softKey {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	rand.Read(id)
	return &softKey{t: t, key: key, id: id, origin: origin}
}

var b64 = base64.RawURLEncoding.EncodeToString

// options reads the challenge, relying party id and user handle from a begin answer.
func options(t *testing.T, body string) (challenge, rpID string, userHandle []byte) {
	t.Helper()
	var o struct {
		PublicKey struct {
			Challenge string `json:"challenge"`
			RPID      string `json:"rpId"`
			RP        struct {
				ID string `json:"id"`
			} `json:"rp"`
			User struct {
				ID string `json:"id"`
			} `json:"user"`
		} `json:"publicKey"`
	}
	if err := json.Unmarshal([]byte(body), &o); err != nil || o.PublicKey.Challenge == "" {
		t.Fatalf("begin answer %s: %v", body, err)
	}
	rpID = o.PublicKey.RPID
	if rpID == "" {
		rpID = o.PublicKey.RP.ID
	}
	if o.PublicKey.User.ID != "" {
		var err error
		if userHandle, err = base64.RawURLEncoding.DecodeString(o.PublicKey.User.ID); err != nil {
			t.Fatal(err)
		}
	}
	return o.PublicKey.Challenge, rpID, userHandle
}

func (k *softKey) clientData(typ, challenge string) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": k.origin, "crossOrigin": false})
	return b
}

// authData is rpIdHash, flags (user present and verified, plus attested data when created) and the
// sign count, followed by the attested credential on creation.
func (k *softKey) authData(rpID string, attested []byte) []byte {
	h := sha256.Sum256([]byte(rpID))
	flags := byte(0x01 | 0x04)
	if attested != nil {
		flags |= 0x40
	}
	out := append(h[:], flags)
	out = binary.BigEndian.AppendUint32(out, k.count)
	return append(out, attested...)
}

// create answers navigator.credentials.create for the begin answer body.
func (k *softKey) create(body string) string {
	challenge, rpID, handle := options(k.t, body)
	k.userHandle = handle
	cose, err := webauthncbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1,
		-2: k.key.PublicKey.X.FillBytes(make([]byte, 32)), -3: k.key.PublicKey.Y.FillBytes(make([]byte, 32))})
	if err != nil {
		k.t.Fatal(err)
	}
	attested := append(make([]byte, 16), byte(len(k.id)>>8), byte(len(k.id)))
	attested = append(append(attested, k.id...), cose...)
	att, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": k.authData(rpID, attested)})
	if err != nil {
		k.t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"id": b64(k.id), "rawId": b64(k.id), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64(k.clientData("webauthn.create", challenge)),
			"attestationObject": b64(att), "transports": []string{"internal"}}})
	return string(b)
}

// get answers navigator.credentials.get for the begin answer body, signing with the key.
func (k *softKey) get(body string) string {
	challenge, rpID, _ := options(k.t, body)
	k.count++
	ad := k.authData(rpID, nil)
	cd := k.clientData("webauthn.get", challenge)
	h := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, ad...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.key, digest[:])
	if err != nil {
		k.t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"id": b64(k.id), "rawId": b64(k.id), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64(cd), "authenticatorData": b64(ad), "signature": b64(sig),
			"userHandle": b64(k.userHandle)}})
	return string(b)
}

// origin is the test server's origin under the name localhost.
func (s *site) origin() string { return strings.Replace(s.srv.URL, "127.0.0.1", "localhost", 1) }

func withPasskeys(t *testing.T, s *site, o *signin.Options) {
	// WebAuthn wants a domain, not an IP address: the test server is named localhost.
	p, err := account.NewPasskeys(s.accounts, s.res.Store, account.PasskeyConfig{PublicURL: s.origin()})
	if err != nil {
		t.Fatal(err)
	}
	o.Passkeys = p
}

// ceremonyCookie returns the passkey ceremony cookie a begin set ("name=value").
func ceremonyCookie(t *testing.T, resp *http.Response) string {
	t.Helper()
	for _, c := range resp.Cookies() {
		if strings.Contains(c.Name, "bindery_passkey") && c.Value != "" {
			return c.Name + "=" + c.Value
		}
	}
	t.Fatalf("no ceremony cookie in %v", resp.Header["Set-Cookie"])
	return ""
}

// register adds k as a passkey of the person signed in with session.
func (s *site) register(session string, k *softKey, name string) (*http.Response, string) {
	s.t.Helper()
	resp, body := s.call("POST", "/auth/passkeys/register/begin", "", "Cookie", session)
	if resp.StatusCode != http.StatusOK {
		s.t.Fatalf("register begin: %d %s", resp.StatusCode, body)
	}
	nb, _ := json.Marshal(name)
	return s.call("POST", "/auth/passkeys/register/finish", `{"name":`+string(nb)+`,"credential":`+k.create(body)+`}`,
		"Cookie", session+"; "+ceremonyCookie(s.t, resp))
}

// beginSignIn starts a passkey sign-in: the options and the ceremony cookie.
func (s *site) beginSignIn() (string, string) {
	s.t.Helper()
	resp, body := s.call("POST", "/auth/passkeys/sign-in/begin", "")
	if resp.StatusCode != http.StatusOK {
		s.t.Fatalf("sign-in begin: %d %s", resp.StatusCode, body)
	}
	return body, ceremonyCookie(s.t, resp)
}

func (s *site) finishSignIn(ceremony, assertion string) (*http.Response, string) {
	return s.call("POST", "/auth/passkeys/sign-in/finish", `{"credential":`+assertion+`}`, "Cookie", ceremony)
}

func (s *site) passkeys(userID string) []*storage.Passkey {
	s.t.Helper()
	keys, err := s.res.Store.ListPasskeys(context.Background(), userID)
	if err != nil {
		s.t.Fatal(err)
	}
	return keys
}

func TestPasskeyRegisterAndSignInWithoutPassword(t *testing.T) {
	eachDBWith(t, account.Config{}, withPasskeys, func(t *testing.T, s *site) {
		session := s.signIn()
		laptop, phone := newSoftKey(t, s.origin()), newSoftKey(t, s.origin())
		for _, k := range []struct {
			key  *softKey
			name string
		}{{laptop, "Laptop"}, {phone, "Phone"}} {
			if resp, body := s.register(session, k.key, k.name); resp.StatusCode != http.StatusCreated || !strings.Contains(body, `"name":"`+k.name+`"`) {
				t.Fatalf("register %s: %d %s", k.name, resp.StatusCode, body)
			}
		}
		resp, body := s.call("GET", "/auth/passkeys", "", "Cookie", session)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Laptop") || !strings.Contains(body, "Phone") {
			t.Fatalf("list: %d %s", resp.StatusCode, body)
		}

		// Signed out, with no e-mail given, the phone's passkey signs Ada in with a new session.
		s.call("POST", "/auth/sign-out", "", "Cookie", session)
		opts, ceremony := s.beginSignIn()
		resp, body = s.finishSignIn(ceremony+"; "+session, phone.get(opts))
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, s.creds.UserID) {
			t.Fatalf("passkey sign-in: %d %s", resp.StatusCode, body)
		}
		fresh := sessionCookie(t, resp)
		if fresh == session {
			t.Fatal("passkey sign-in kept the presented session id")
		}
		if set := strings.Join(resp.Header["Set-Cookie"], "\n"); !strings.Contains(set, "HttpOnly") || !strings.Contains(set, "SameSite=Lax") {
			t.Fatalf("session cookie flags: %s", set)
		}
		if resp, body := s.call("GET", "/auth/whoami", "", "Cookie", fresh); resp.StatusCode != http.StatusOK || !strings.Contains(body, "ada@example.com") {
			t.Fatalf("whoami after passkey sign-in: %d %s", resp.StatusCode, body)
		}
		for _, k := range s.passkeys(s.creds.UserID) {
			if k.Name == "Phone" && (k.LastUsedAt == nil || k.SignCount != 1) {
				t.Fatalf("phone passkey after use: last used %v, count %d", k.LastUsedAt, k.SignCount)
			}
		}

		// Rename, then remove.
		keys := s.passkeys(s.creds.UserID)
		if resp, body := s.call("PATCH", "/auth/passkeys/"+keys[0].ID, `{"name":"Work laptop"}`, "Cookie", fresh); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("rename: %d %s", resp.StatusCode, body)
		}
		if resp, body := s.call("DELETE", "/auth/passkeys/"+keys[1].ID, "", "Cookie", fresh); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("remove: %d %s", resp.StatusCode, body)
		}
		if keys := s.passkeys(s.creds.UserID); len(keys) != 1 || keys[0].Name != "Work laptop" {
			t.Fatalf("after rename and remove: %+v", keys)
		}
	})
}

func TestPasskeyRefusals(t *testing.T) {
	eachDBWith(t, account.Config{}, withPasskeys, func(t *testing.T, s *site) {
		ctx := context.Background()
		session := s.signIn()
		key := newSoftKey(t, s.origin())
		if resp, body := s.register(session, key, "Laptop"); resp.StatusCode != http.StatusCreated {
			t.Fatalf("register: %d %s", resp.StatusCode, body)
		}
		sessionsBefore, _ := s.accounts.Sessions(ctx, s.creds.UserID)
		refuse := func(what string, resp *http.Response, body string) {
			t.Helper()
			if resp.StatusCode < 400 || resp.StatusCode >= 500 || !strings.Contains(body, `"error"`) {
				t.Fatalf("%s: want a 4xx, got %d %s", what, resp.StatusCode, body)
			}
			for _, c := range resp.Cookies() {
				if c.Name == signin.PlainCookieName && c.Value != "" {
					t.Fatalf("%s: a session cookie was set", what)
				}
			}
		}

		// A replayed challenge: the ceremony is spent by the first finish.
		opts, ceremony := s.beginSignIn()
		assertion := key.get(opts)
		if resp, body := s.finishSignIn(ceremony, assertion); resp.StatusCode != http.StatusOK {
			t.Fatalf("first finish: %d %s", resp.StatusCode, body)
		}
		resp, body := s.finishSignIn(ceremony, assertion)
		refuse("replayed ceremony", resp, body)
		resp, body = s.finishSignIn(ceremony, key.get(opts))
		refuse("replayed challenge, fresh signature", resp, body)
		// No ceremony at all, or a forged one.
		resp, body = s.finishSignIn("bindery_passkey=bdyc_forged", key.get(opts))
		refuse("forged ceremony", resp, body)

		// A wrong origin in clientDataJSON.
		evil := *key
		evil.origin = "https://evil.example"
		opts, ceremony = s.beginSignIn()
		resp, body = s.finishSignIn(ceremony, evil.get(opts))
		refuse("wrong origin", resp, body)
		key.count = evil.count

		// Another user's credential: Bob's key claiming Ada's user handle, and Ada's key claiming
		// Bob's.
		bob, err := s.res.Store.CreateUser(ctx, storage.NewUser{DisplayName: "Bob", Email: "bob@example.com"}, s.now)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.accounts.SetPassword(ctx, bob.ID, password+" bob"); err != nil {
			t.Fatal(err)
		}
		resp, body = s.call("POST", "/auth/sign-in", `{"email":"bob@example.com","password":"`+password+` bob"}`)
		bobSession := sessionCookie(t, resp)
		bobKey := newSoftKey(t, s.origin())
		if resp, body := s.register(bobSession, bobKey, "Bob's"); resp.StatusCode != http.StatusCreated {
			t.Fatalf("register Bob's: %d %s", resp.StatusCode, body)
		}
		forged := *bobKey
		forged.userHandle = []byte(s.creds.UserID)
		opts, ceremony = s.beginSignIn()
		resp, body = s.finishSignIn(ceremony, forged.get(opts))
		refuse("Bob's credential under Ada's handle", resp, body)
		// Ada's key id but Bob's private key: the signature does not verify.
		stolen := *bobKey
		stolen.id, stolen.userHandle = key.id, key.userHandle
		opts, ceremony = s.beginSignIn()
		resp, body = s.finishSignIn(ceremony, stolen.get(opts))
		refuse("Ada's credential id signed by another key", resp, body)
		// Bob cannot rename or remove Ada's passkey, nor see it.
		adaKey := s.passkeys(s.creds.UserID)[0]
		resp, body = s.call("PATCH", "/auth/passkeys/"+adaKey.ID, `{"name":"mine"}`, "Cookie", bobSession)
		refuse("rename another's", resp, body)
		resp, body = s.call("DELETE", "/auth/passkeys/"+adaKey.ID, "", "Cookie", bobSession)
		refuse("remove another's", resp, body)
		if _, body := s.call("GET", "/auth/passkeys", "", "Cookie", bobSession); strings.Contains(body, adaKey.ID) {
			t.Fatalf("Bob's list shows Ada's passkey: %s", body)
		}
		// Registering Ada's credential id again, from Bob's account, is a conflict.
		resp, body = s.register(bobSession, key, "copy")
		refuse("a credential registered twice", resp, body)
		// A registration finish needs the registration's own ceremony.
		_, signInCeremony := s.beginSignIn()
		resp, body = s.call("POST", "/auth/passkeys/register/finish", `{"name":"x","credential":`+newSoftKey(t, s.origin()).create(opts)+`}`,
			"Cookie", session+"; "+signInCeremony)
		refuse("registration with a sign-in ceremony", resp, body)
		// Registration needs a session.
		resp, body = s.call("POST", "/auth/passkeys/register/begin", "")
		refuse("registration signed out", resp, body)
		resp, body = s.call("PATCH", "/auth/passkeys/"+adaKey.ID, `{"name":"`+strings.Repeat("x", 101)+`"}`, "Cookie", session)
		refuse("a name too long", resp, body)

		// A removed passkey signs no one in.
		if resp, body := s.call("DELETE", "/auth/passkeys/"+adaKey.ID, "", "Cookie", session); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("remove: %d %s", resp.StatusCode, body)
		}
		opts, ceremony = s.beginSignIn()
		resp, body = s.finishSignIn(ceremony, key.get(opts))
		refuse("removed passkey", resp, body)

		// Nothing changed: Ada holds no passkey, Bob one; Ada's sessions are the one before plus
		// the single passkey sign-in that succeeded.
		if keys := s.passkeys(s.creds.UserID); len(keys) != 0 {
			t.Fatalf("Ada's passkeys: %+v", keys)
		}
		if keys := s.passkeys(bob.ID); len(keys) != 1 || keys[0].Name != "Bob's" {
			t.Fatalf("Bob's passkeys: %+v", keys)
		}
		if after, _ := s.accounts.Sessions(ctx, s.creds.UserID); len(after) != len(sessionsBefore)+1 {
			t.Fatalf("Ada's sessions: %d before, %d after", len(sessionsBefore), len(after))
		}
	})
}

// The ceremony routes pass the cross-origin check like every route that changes state.
func TestPasskeyCeremonyRefusesCrossOrigin(t *testing.T) {
	eachDBWith(t, account.Config{}, withPasskeys, func(t *testing.T, s *site) {
		resp, body := s.call("POST", "/auth/passkeys/sign-in/begin", "", "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("cross-site begin: %d %s", resp.StatusCode, body)
		}
	})
}

func TestPasskeysThroughGraphQL(t *testing.T) {
	eachDBWith(t, account.Config{}, withPasskeys, func(t *testing.T, s *site) {
		session := s.signIn()
		if resp, body := s.register(session, newSoftKey(t, s.origin()), "Laptop"); resp.StatusCode != http.StatusCreated {
			t.Fatalf("register: %d %s", resp.StatusCode, body)
		}
		post := func(auth []string, query string) string {
			resp, body := s.call("POST", "/graphql", gql(query), auth...)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: %d %s", query, resp.StatusCode, body)
			}
			return body
		}
		ada := []string{"Cookie", session}
		var list struct {
			Data struct{ Passkeys []struct{ ID, Name string } }
		}
		if err := json.Unmarshal([]byte(post(ada, `{ passkeys { id name createdAt lastUsedAt transports } }`)), &list); err != nil {
			t.Fatal(err)
		}
		if len(list.Data.Passkeys) != 1 || list.Data.Passkeys[0].Name != "Laptop" {
			t.Fatalf("passkeys = %+v", list.Data.Passkeys)
		}
		id := list.Data.Passkeys[0].ID

		// Another user neither sees, renames nor removes it, nor learns that it exists.
		ctx := s.res.WithRequestState(context.Background())
		eve, err := s.res.CreateUser(ctx, domain.CreateUserInput{Email: "eve@example.com", Name: "Eve"})
		if err != nil {
			t.Fatal(err)
		}
		evil := []string{"Authorization", "Bearer " + eve.Token}
		if body := post(evil, `{ passkeys { id } }`); strings.Contains(body, id) {
			t.Fatalf("Eve's list: %s", body)
		}
		for _, m := range []string{`mutation { renamePasskey(id: "` + id + `", name: "Eve's") }`, `mutation { removePasskey(id: "` + id + `") }`} {
			if body := post(evil, m); !strings.Contains(body, "NOT_FOUND") {
				t.Fatalf("Eve's %s: %s", m, body)
			}
		}
		if body := post(ada, `mutation { renamePasskey(id: "`+id+`", name: "`+strings.Repeat("x", 101)+`") }`); !strings.Contains(body, `"errors"`) {
			t.Fatalf("a name too long: %s", body)
		}
		if keys := s.passkeys(s.creds.UserID); len(keys) != 1 || keys[0].Name != "Laptop" {
			t.Fatalf("after refusals: %+v", keys)
		}

		if body := post(ada, `mutation { renamePasskey(id: "`+id+`", name: "Work laptop") }`); !strings.Contains(body, `"renamePasskey":true`) {
			t.Fatalf("rename: %s", body)
		}
		if body := post(ada, `mutation { removePasskey(id: "`+id+`") }`); !strings.Contains(body, `"removePasskey":true`) {
			t.Fatalf("remove: %s", body)
		}
		if keys := s.passkeys(s.creds.UserID); len(keys) != 0 {
			t.Fatalf("after remove: %+v", keys)
		}
	})
}

func TestPasskeySignInFailuresAreRateLimited(t *testing.T) {
	eachDBWith(t, account.Config{AddressFailures: 2}, withPasskeys, func(t *testing.T, s *site) {
		session := s.signIn()
		key := newSoftKey(t, s.origin())
		if resp, body := s.register(session, key, "Laptop"); resp.StatusCode != http.StatusCreated {
			t.Fatalf("register: %d %s", resp.StatusCode, body)
		}
		wrong := *key
		wrong.origin = "https://evil.example"
		for range 2 {
			opts, ceremony := s.beginSignIn()
			if resp, body := s.finishSignIn(ceremony, wrong.get(opts)); resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("wrong origin: %d %s", resp.StatusCode, body)
			}
		}
		key.count = wrong.count
		opts, ceremony := s.beginSignIn()
		resp, body := s.finishSignIn(ceremony, key.get(opts))
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("past the limit: %d %s", resp.StatusCode, body)
		}
	})
}
