package signin_test

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/signin"
	"github.com/bindery/bindery/storage/storagetest"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
)

// chromium finds a Chromium to drive: BINDERY_CHROMIUM, or Debian's.
func chromium() string {
	if p := os.Getenv("BINDERY_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// passkeyJourney runs in the page: an invitee signs up (START: the request that does it), adds a passkey, signs out, signs in with
// the passkey alone and reads their organization through /graphql with the cookie. It answers the
// GraphQL body, or what went wrong.
const passkeyJourney = `(async () => {
  const post = (path, body) => fetch(path, body === undefined ? {method: "POST"} :
    {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  let r = await START;
  if (!r.ok) return "sign-up: " + r.status;
  if ((await fetch("/auth/whoami")).status !== 200) return "not signed in after sign-up: " + await r.text();
  r = await post("/auth/passkeys/register/begin");
  if (!r.ok) return "register begin: " + r.status + " " + await r.text();
  const created = await navigator.credentials.create({publicKey: PublicKeyCredential.parseCreationOptionsFromJSON((await r.json()).publicKey)});
  r = await post("/auth/passkeys/register/finish", {name: "Chromium", credential: created.toJSON()});
  if (r.status !== 201) return "register finish: " + r.status + " " + await r.text();
  r = await post("/auth/sign-out");
  if (r.status !== 204) return "sign-out: " + r.status;
  if ((await fetch("/auth/whoami")).status !== 401) return "still signed in after sign-out";
  r = await post("/auth/passkeys/sign-in/begin");
  if (!r.ok) return "sign-in begin: " + r.status + " " + await r.text();
  const got = await navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON((await r.json()).publicKey)});
  r = await post("/auth/passkeys/sign-in/finish", {credential: got.toJSON()});
  if (!r.ok) return "sign-in finish: " + r.status + " " + await r.text();
  r = await post("/graphql", {query: "{ viewer { email } organizations { nodes { title } } passkeys { name lastUsedAt } }"});
  return await r.text();
})()`

// inviteLinkSignUp is the journey's start for an invite link: the invite page's sign-up form.
const inviteLinkSignUp = `fetch(INVITE, {method: "POST", body: new URLSearchParams({action: "sign-up", name: "Bo",
    email: "bo@example.com", password: "bo's long passphrase"})})`

// TestPasskeyInChromium goes through the journey in headless Chromium with the DevTools virtual
// authenticator (a platform authenticator that holds discoverable credentials and verifies the
// user), for a person who follows an invite link.
func TestPasskeyInChromium(t *testing.T) {
	browser := requireChromium(t)
	eachDBWith(t, account.Config{}, withPasskeys, func(t *testing.T, s *site) {
		s.now = time.Now() // the browser drops a cookie that expires before its own clock's now
		start := strings.Replace(inviteLinkSignUp, "INVITE", `"`+s.inviteLink("read")+`"`, 1)
		runPasskeyJourney(t, s, browser, start, "bo@example.com")
	})
}

// TestInvitedByEmailSignsUpWithAPasskeyInChromium is the journey of a person invited by e-mail:
// the mailed set-up link gives them a password, then a passkey.
func TestInvitedByEmailSignsUpWithAPasskeyInChromium(t *testing.T) {
	browser := requireChromium(t)
	withMailAndPasskeys := func(t *testing.T, s *site, o *signin.Options) {
		withMail(t, s, o) // first: it replaces the account service the passkeys use
		withPasskeys(t, s, o)
	}
	eachDBWith(t, account.Config{}, withMailAndPasskeys, func(t *testing.T, s *site) {
		s.now = time.Now()
		resp, body := s.call("POST", "/v1/orgs/"+s.creds.OrganizationID+"/invites", `{"emails":["cy@example.com"],"role":"read"}`,
			"Authorization", "Bearer "+s.creds.Token)
		if resp.StatusCode >= 300 {
			t.Fatalf("invite: %d %s", resp.StatusCode, body)
		}
		token := regexp.MustCompile(`/auth/setup\?token=(\S+)`).FindStringSubmatch(s.mailbox.Next(t).Data)
		if token == nil {
			t.Fatal("the invite mail has no set-up link")
		}
		start := `fetch("/auth/setup", {method: "POST", body: new URLSearchParams({token: "` + token[1] + `", password: "cy's long passphrase"})})`
		runPasskeyJourney(t, s, browser, start, "cy@example.com")
	})
}

// requireChromium returns the Chromium to drive, skipping the test without one (failing it in CI).
func requireChromium(t *testing.T) string {
	t.Helper()
	browser := chromium()
	if browser == "" {
		if storagetest.CI() {
			t.Fatal("Chromium is not installed (.ci/run installs it): the browser test cannot run")
		}
		t.Skip("Chromium is not installed (apt-get install -y chromium, or set BINDERY_CHROMIUM): skipping the browser test")
	}
	return browser
}

// runPasskeyJourney runs passkeyJourney from start in a fresh headless Chromium and checks that
// it ended signed in with the passkey, as email, reading the organization.
func runPasskeyJourney(t *testing.T, s *site, browser, start, email string) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	defer cancelTimeout()

	// Any page of the server gives the script its origin (localhost: a secure context).
	if err := chromedp.Do(ctx, chromedp.Navigate(s.origin()+"/auth/whoami")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, webauthn.Enable, webauthn.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{
		Options: &webauthn.VirtualAuthenticatorOptions{Protocol: webauthn.AuthenticatorProtocolCtap2,
			Ctap2version: webauthn.Ctap2versionCtap21, Transport: webauthn.AuthenticatorTransportInternal,
			HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true}}); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](strings.Replace(passkeyJourney, "START", start, 1), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"email":"` + email + `"`, `"title":"Acme"`, `"name":"Chromium"`} {
		if !strings.Contains(got, want) || strings.Contains(got, `"errors"`) {
			t.Fatalf("the journey ended with %s; want %s", got, want)
		}
	}
	if strings.Contains(got, `"lastUsedAt":null`) {
		t.Fatalf("the passkey's use was not recorded: %s", got)
	}
}
