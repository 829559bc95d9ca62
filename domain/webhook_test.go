package domain

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/domain/mailer"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/opt"
	"github.com/bindery/bindery/domain/safefetch"
	"github.com/bindery/bindery/internal/smtptest"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// receiver is a webhook endpoint that checks each request's Standard Webhooks signature against
// the secrets it knows, the way a receiver's library does.
type receiver struct {
	mu       sync.Mutex
	secrets  []string
	answer   func(n int) (status int, delay time.Duration)
	received []received
	srv      *httptest.Server
}

type received struct {
	id, timestamp string
	body          map[string]any
	validSigs     int // signatures that verified with a known secret
}

func newReceiver(t *testing.T, answer func(n int) (int, time.Duration)) *receiver {
	rc := &receiver{answer: answer}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		raw, _ := io.ReadAll(req.Body)
		id, ts := req.Header.Get("webhook-id"), req.Header.Get("webhook-timestamp")
		rc.mu.Lock()
		got := received{id: id, timestamp: ts}
		_ = json.Unmarshal(raw, &got.body)
		for _, sig := range strings.Fields(req.Header.Get("webhook-signature")) {
			for _, secret := range rc.secrets {
				key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
				mac := hmac.New(sha256.New, key)
				mac.Write([]byte(id + "." + ts + "." + string(raw)))
				if hmac.Equal([]byte(sig), []byte("v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))) {
					got.validSigs++
				}
			}
		}
		rc.received = append(rc.received, got)
		n := len(rc.received)
		rc.mu.Unlock()
		status, delay := rc.answer(n)
		time.Sleep(delay)
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"ok":` + map[bool]string{true: "true", false: "false"}[status < 300] + `}`))
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) all() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.received...)
}

// webhookHarness runs the job queue and the dispatcher, and lets deliveries reach local servers.
func webhookHarness(t *testing.T, d *harness, disableAfter time.Duration) {
	d.Now = time.Now
	d.Settings.Webhooks = WebhookSettings{Fetch: safefetch.Policy{AllowHTTP: true, AllowPrivate: true, Timeout: 400 * time.Millisecond}, DisableAfter: disableAfter}
	runner, err := d.StartJobs(context.Background(), jobs.Config{PollInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.DispatchWebhooks(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		stop, c := context.WithTimeout(context.Background(), 5*time.Second)
		defer c()
		_ = runner.Stop(stop)
	})
}

func waitFor(t *testing.T, what string, limit time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A committed event reaches a registered endpoint once, signed, in the contract's Event shape,
// and the delivery log records it.
func TestWebhookDeliversSignedEvents(t *testing.T) {
	eachDB(t, func(t *testing.T, d *harness) {
		webhookHarness(t, d, 0)
		org, owner := storagetest.NewOrg(t, d.Store, "owner@webhooks.test")
		ctx := d.as(owner.ID, "")
		rc := newReceiver(t, func(int) (int, time.Duration) { return 204, 0 })
		hook, err := d.CreateWebhook(ctx, org.ID, model.CreateWebhookInput{URL: rc.srv.URL, EventTypes: []string{EventSpaceCreated, EventSpaceContentUpdated}})
		if err != nil {
			t.Fatal(err)
		}
		if hook.Secret == nil || !strings.HasPrefix(*hook.Secret, "whsec_") {
			t.Fatalf("secret = %v, want whsec_…", hook.Secret)
		}
		rc.mu.Lock()
		rc.secrets = []string{*hook.Secret}
		rc.mu.Unlock()
		if again, _ := d.WebhookByID(ctx, org.ID, hook.ID); again.Secret != nil {
			t.Error("the secret was shown again")
		}
		title := "Hooked"
		sp, err := d.CreateSpace(ctx, org.ID, model.CreateSpaceInput{Title: &title})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.UpdateSpace(ctx, sp.ID, model.UpdateSpaceInput{Title: opt.Of(&title)}); err != nil { // not subscribed
			t.Fatal(err)
		}
		if _, err := d.CreatePage(ctx, model.ContentTarget{SpaceID: sp.ID}, model.CreatePageInput{Title: "Intro"}); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "two deliveries", 10*time.Second, func() bool { return len(rc.all()) >= 2 })
		time.Sleep(200 * time.Millisecond) // nothing more arrives
		got := rc.all()
		if len(got) != 2 {
			t.Fatalf("received %d requests, want 2", len(got))
		}
		for i, want := range []string{EventSpaceCreated, EventSpaceContentUpdated} {
			r := got[i]
			if r.validSigs != 1 || r.body["type"] != want || r.body["spaceId"] != sp.ID || r.id != r.body["eventId"] {
				t.Errorf("request %d: sigs %d, body %v, id %q", i, r.validSigs, r.body, r.id)
			}
		}
		if rev, _ := got[1].body["revisionId"].(string); rev == "" || got[1].body["updatedBy"] == nil {
			t.Errorf("space_content_updated body = %v, want revisionId and updatedBy", got[1].body)
		}
		log, err := d.WebhookDeliveries(ctx, org.ID, hook.ID, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the log", 5*time.Second, func() bool {
			log, _ = d.WebhookDeliveries(ctx, org.ID, hook.ID, nil, nil)
			return len(log.Nodes) == 2 && log.Nodes[0].Status == "delivered" && log.Nodes[1].Status == "delivered"
		})
		for _, entry := range log.Nodes {
			if entry.ResponseStatus == nil || *entry.ResponseStatus != 204 || entry.DurationMS == nil || entry.Attempts != 1 {
				t.Errorf("log entry = %+v", entry)
			}
		}
		// Redelivery sends the same event again, under the same id.
		again, err := d.RedeliverWebhookDelivery(ctx, org.ID, log.Nodes[1].ID)
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the redelivery", 10*time.Second, func() bool { return len(rc.all()) == 3 })
		if r := rc.all()[2]; r.id != log.Nodes[1].EventID || r.validSigs != 1 || again.EventID != r.id {
			t.Errorf("redelivered id %q, want %q", r.id, log.Nodes[1].EventID)
		}
	})
}

// A failing endpoint is tried again with back-off; a slow one is cut off at the timeout; one that
// keeps failing past DisableAfter is disabled, with an event and a message to its owner.
func TestWebhookRetriesAndDisables(t *testing.T) {
	eachDB(t, func(t *testing.T, d *harness) {
		mailbox := smtptest.Start(t)
		m, err := mailer.New("smtp://" + mailbox.Addr + "?from=bindery@example.com")
		if err != nil {
			t.Fatal(err)
		}
		d.Mail = m
		webhookHarness(t, d, time.Nanosecond)
		org, owner := storagetest.NewOrg(t, d.Store, "owner@failing.test")
		ctx := d.as(owner.ID, "")
		flaky := newReceiver(t, func(n int) (int, time.Duration) {
			if n == 1 {
				return 500, 0
			}
			return 200, 0
		})
		slow := newReceiver(t, func(int) (int, time.Duration) { return 200, 2 * time.Second })
		hookF, err := d.CreateWebhook(ctx, org.ID, model.CreateWebhookInput{URL: flaky.srv.URL, EventTypes: []string{EventSpaceCreated}})
		if err != nil {
			t.Fatal(err)
		}
		hookS, err := d.CreateWebhook(ctx, org.ID, model.CreateWebhookInput{URL: slow.srv.URL, EventTypes: []string{EventSpaceCreated}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.CreateSpace(ctx, org.ID, model.CreateSpaceInput{}); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the retry", 15*time.Second, func() bool { return len(flaky.all()) >= 2 })
		if got := flaky.all(); got[0].id != got[1].id {
			t.Errorf("retry id %q, first %q: want the same event id", got[1].id, got[0].id)
		}
		waitFor(t, "the flaky delivery logged", 5*time.Second, func() bool {
			log, _ := d.WebhookDeliveries(ctx, org.ID, hookF.ID, nil, nil)
			return len(log.Nodes) == 1 && log.Nodes[0].Status == "delivered" && log.Nodes[0].Attempts == 2
		})
		// The slow endpoint never answers in time: its first attempt is logged as such, its second
		// (failing for longer than DisableAfter) disables it.
		waitFor(t, "the slow endpoint disabled", 15*time.Second, func() bool {
			w, _ := d.WebhookByID(ctx, org.ID, hookS.ID)
			return !w.Enabled && w.DisabledReason != nil
		})
		log, err := d.WebhookDeliveries(ctx, org.ID, hookS.ID, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if e := log.Nodes[0]; e.Status != "failed" || e.Error == nil || !strings.Contains(*e.Error, "no answer") || *e.DurationMS < 300 {
			t.Errorf("slow endpoint's log = %+v", e)
		}
		// One event, about the disabled webhook alone; one message, to the owner who created it.
		var disabled []*storage.Event
		for _, ev := range allEvents(t, d.Store) {
			if ev.Type == EventWebhookDisabled {
				disabled = append(disabled, ev)
			}
		}
		if len(disabled) != 1 || disabled[0].TargetID != hookS.ID || disabled[0].ActorType != "system" {
			t.Errorf("webhook_disabled events = %+v, want one about %s", disabled, hookS.ID)
		}
		msg := mailbox.Next(t)
		if msg.To != "owner@failing.test" || !strings.Contains(msg.Data, slow.srv.URL) || !strings.Contains(msg.Data, "was disabled") {
			t.Errorf("notice = %+v", msg)
		}
		mailbox.None(t, 300*time.Millisecond)
	})
}

// Rotation: during the overlap both secrets sign each delivery.
func TestWebhookSecretRotationSignsWithBoth(t *testing.T) {
	eachDB(t, func(t *testing.T, d *harness) {
		webhookHarness(t, d, 0)
		org, owner := storagetest.NewOrg(t, d.Store, "owner@rotation.test")
		ctx := d.as(owner.ID, "")
		rc := newReceiver(t, func(int) (int, time.Duration) { return 200, 0 })
		hook, err := d.CreateWebhook(ctx, org.ID, model.CreateWebhookInput{URL: rc.srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		rotated, err := d.RotateWebhookSecret(ctx, org.ID, hook.ID)
		if err != nil {
			t.Fatal(err)
		}
		if *rotated.Secret == *hook.Secret {
			t.Fatal("rotation kept the secret")
		}
		rc.mu.Lock()
		rc.secrets = []string{*hook.Secret, *rotated.Secret}
		rc.mu.Unlock()
		if _, err := d.CreateSpace(ctx, org.ID, model.CreateSpaceInput{}); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "a delivery", 10*time.Second, func() bool { return len(rc.all()) >= 1 })
		if got := rc.all()[0]; got.validSigs != 2 {
			t.Errorf("valid signatures = %d, want 2 (old and new secret)", got.validSigs)
		}
	})
}

// Deliveries to loopback or private addresses are refused, unless the operator allows them: the
// attempt is logged, the receiver sees nothing.
func TestWebhookRefusesPrivateAddresses(t *testing.T) {
	eachDB(t, func(t *testing.T, d *harness) {
		webhookHarness(t, d, 0)
		d.Settings.Webhooks.Fetch.AllowPrivate = false
		org, owner := storagetest.NewOrg(t, d.Store, "owner@private.test")
		ctx := d.as(owner.ID, "")
		rc := newReceiver(t, func(int) (int, time.Duration) { return 200, 0 })
		hook, err := d.CreateWebhook(ctx, org.ID, model.CreateWebhookInput{URL: rc.srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.CreateSpace(ctx, org.ID, model.CreateSpaceInput{}); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the refused attempt", 10*time.Second, func() bool {
			log, _ := d.WebhookDeliveries(ctx, org.ID, hook.ID, nil, nil)
			return len(log.Nodes) == 1 && log.Nodes[0].Attempts >= 1
		})
		log, _ := d.WebhookDeliveries(ctx, org.ID, hook.ID, nil, nil)
		if e := log.Nodes[0]; e.Error == nil || !strings.Contains(*e.Error, "not allowed") || e.ResponseStatus != nil {
			t.Errorf("log = %+v, want a refused address", e)
		}
		if n := len(rc.all()); n != 0 {
			t.Errorf("the private receiver got %d requests", n)
		}
	})
}

// Endpoints on loopback or private addresses are refused unless the operator allows them;
// another organization's webhooks are not found; members who are not admins are refused.
func TestWebhookRules(t *testing.T) {
	eachDB(t, func(t *testing.T, d *harness) {
		org, owner := storagetest.NewOrg(t, d.Store, "owner@rules.test")
		other, stranger := storagetest.NewOrg(t, d.Store, "owner@elsewhere.test")
		ctx := d.as(owner.ID, "")
		for _, url := range []string{"http://example.com/hook", "not a url", "ftp://example.com/x"} {
			if _, err := d.CreateWebhook(ctx, org.ID, model.CreateWebhookInput{URL: url}); apperr.KindOf(err) != apperr.Invalid {
				t.Errorf("CreateWebhook(%s) = %v, want Invalid", url, err)
			}
		}
		if _, err := d.CreateWebhook(ctx, org.ID, model.CreateWebhookInput{URL: "https://hooks.example.com/x", EventTypes: []string{"nope"}}); apperr.KindOf(err) != apperr.Invalid {
			t.Errorf("unknown event type: %v, want Invalid", err)
		}
		hook, err := d.CreateWebhook(ctx, org.ID, model.CreateWebhookInput{URL: "https://hooks.example.com/x"})
		if err != nil {
			t.Fatal(err)
		}
		theirs := d.as(stranger.ID, "")
		if _, err := d.WebhookByID(theirs, other.ID, hook.ID); apperr.KindOf(err) != apperr.NotFound {
			t.Errorf("another organization's webhook = %v, want NotFound", err)
		}
		if _, err := d.Webhooks(theirs, org.ID, nil, nil); apperr.KindOf(err) != apperr.NotFound {
			t.Errorf("another organization's list = %v, want NotFound", err)
		}
		if _, err := d.RedeliverWebhookDelivery(ctx, org.ID, "missing"); apperr.KindOf(err) != apperr.NotFound {
			t.Errorf("redeliver a missing delivery = %v, want NotFound", err)
		}
	})
}
