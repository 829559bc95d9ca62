package domain

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/safefetch"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// A server killed (SIGKILL) in the middle of delivering webhooks loses none: another server on
// the same database (PostgreSQL, or the SQLite file) dispatches what was left and retries the
// deliveries that were running, so the receiver gets every event at least once; duplicates carry
// the same event id. The servers are this test binary run again as TestWebhookServerProcess.
func TestWebhooksSurviveAKilledServer(t *testing.T) {
	if os.Getenv(crashServerEnv) != "" {
		t.Skip("the parent test")
	}
	if testing.Short() {
		t.Skip("starts server processes")
	}
	t.Parallel() // most of its minute is waiting for the queue to rescue the dead server's jobs
	for _, dialect := range storagetest.Dialects {
		t.Run(string(dialect), func(t *testing.T) {
			t.Parallel()
			webhooksSurviveAKilledServer(t, storagetest.DSN(t, dialect))
		})
	}
}

func webhooksSurviveAKilledServer(t *testing.T, dsn string) {
	d := &harness{App: &App{Store: storagetest.OpenAt(t, dsn, storage.WithMaxConns(4)), Now: time.Now}}
	d.Settings.Webhooks = crashServerWebhooks
	org, owner := storagetest.NewOrg(t, d.Store, "owner@crash.test")
	ctx := d.as(owner.ID, "")
	rc := newReceiver(t, func(int) (int, time.Duration) { return 200, 30 * time.Millisecond })
	hook, err := d.CreateWebhook(ctx, org.ID, model.CreateWebhookInput{URL: rc.srv.URL, EventTypes: []string{EventSpaceCreated}})
	if err != nil {
		t.Fatal(err)
	}
	const events = 120
	for i := range events {
		title := "Space " + strconv.Itoa(i)
		if _, err := d.CreateSpace(ctx, org.ID, model.CreateSpaceInput{Title: &title}); err != nil {
			t.Fatal(err)
		}
	}
	distinct := func() int {
		ids := map[string]bool{}
		for _, r := range rc.all() {
			ids[r.id] = true
		}
		return len(ids)
	}
	first := startWebhookServer(t, dsn)
	waitFor(t, "deliveries under way", 30*time.Second, func() bool { return distinct() >= events/4 })
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	atKill := len(rc.all())
	if atKill >= events {
		t.Fatalf("all %d deliveries were made before the kill: nothing was in flight", atKill)
	}
	startWebhookServer(t, dsn)
	waitFor(t, "every event delivered after the kill", 90*time.Second, func() bool { return distinct() == events })
	// The log ends with every delivery delivered, those that were running when the server died
	// included (rescued and sent again).
	waitFor(t, "every delivery logged as delivered", 90*time.Second, func() bool {
		log, err := d.Store.WebhookDeliveries(context.Background(), hook.ID, storage.Window{Limit: 2 * events})
		if err != nil || len(log.Items) != events {
			return false
		}
		for _, dl := range log.Items {
			if dl.Status != storage.DeliveryDelivered {
				return false
			}
		}
		return true
	})
	all := len(rc.all())
	t.Logf("%d events produced; %d deliveries before the kill, %d in all: %d distinct, %d duplicated", events, atKill, all, distinct(), all-distinct())
}

// crashServerWebhooks lets deliveries reach the test's local receiver.
var crashServerWebhooks = WebhookSettings{Fetch: safefetch.Policy{AllowHTTP: true, AllowPrivate: true, Timeout: 5 * time.Second}}

// crashServerEnv carries, to a server process, the database it serves.
const crashServerEnv = "BINDERY_TEST_WEBHOOK_SERVER_DSN"

// startWebhookServer runs this test binary as a server that dispatches and delivers webhooks
// on the database at dsn, until it is killed or the test ends.
func startWebhookServer(t *testing.T, dsn string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestWebhookServerProcess$", "-test.timeout=5m")
	cmd.Env = append(os.Environ(), crashServerEnv+"="+dsn)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd
}

// TestWebhookServerProcess is the server TestWebhooksSurviveAKilledServer starts: it runs the
// dispatcher and the job queue until killed. Deliveries whose server died are rescued after a
// few seconds (in production, after the job timeout and five minutes).
func TestWebhookServerProcess(t *testing.T) {
	dsn := os.Getenv(crashServerEnv)
	if dsn == "" {
		t.Skip("run by TestWebhooksSurviveAKilledServer")
	}
	s, err := storage.Open(context.Background(), dsn, storage.WithMaxConns(4))
	if err != nil {
		t.Fatal(err)
	}
	app := &App{Store: s, Now: time.Now}
	app.Settings.Webhooks = crashServerWebhooks
	if _, err := app.StartJobs(context.Background(), jobs.Config{PollInterval: 20 * time.Millisecond, JobTimeout: 2 * time.Second, RescueAfter: 3 * time.Second}); err != nil {
		t.Fatal(err)
	}
	app.DispatchWebhooks(context.Background()) // until killed
}
