package domain

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/safefetch"
	"github.com/bindery/bindery/storage"
)

// Webhooks: an organization's admins register endpoints for event types; each committed event
// an endpoint wants becomes a delivery (DispatchWebhooks, once per event however many servers
// run), sent by a River job signed as the Standard Webhooks specification says, retried with
// River's exponential back-off, at least once, in order per object.

// WebhookSettings are the operator's choices for webhook deliveries.
type WebhookSettings struct {
	// Fetch is what a delivery may reach: by default https and public addresses only. Its
	// Timeout bounds one attempt (default 10 s).
	Fetch safefetch.Policy
	// DisableAfter disables an endpoint that has failed without a success for that long
	// (default 72 hours).
	DisableAfter time.Duration
	// RotationOverlap is how long a rotated secret keeps signing beside the new one (default 24
	// hours).
	RotationOverlap time.Duration
}

func (s WebhookSettings) withDefaults() WebhookSettings {
	if s.Fetch.Timeout <= 0 {
		s.Fetch.Timeout = 10 * time.Second
	}
	if s.DisableAfter <= 0 {
		s.DisableAfter = 72 * time.Hour
	}
	if s.RotationOverlap <= 0 {
		s.RotationOverlap = 24 * time.Hour
	}
	return s
}

// webhookExcerpt is how much of an endpoint's answer the log keeps.
const webhookExcerpt = 1024

func knownEventType(t string) bool {
	for _, e := range EventTypes {
		if e.Type == t {
			return true
		}
	}
	return false
}

// CreateWebhook registers an endpoint; the answer carries its secret, shown this once.
// Errors: Invalid, NotFound, Forbidden.
func (r *App) CreateWebhook(ctx context.Context, orgID string, in model.CreateWebhookInput) (*model.Webhook, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	org, installation, err := r.webhookManager(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if err := r.checkWebhookInput(in.URL, in.EventTypes); err != nil {
		return nil, err
	}
	actor, _ := authz.RequireActor(ctx)
	now := r.Now()
	types, _ := json.Marshal(nonNil(in.EventTypes))
	w := &storage.Webhook{ID: storage.NewID(), OrganizationID: org.ID, URL: in.URL, Description: deref(in.Description), EventTypes: string(types),
		Secret: newWebhookSecret(), Enabled: true, CreatedBy: &actor.UserID, CreatedAt: now, UpdatedAt: now}
	if installation != "" {
		w.InstallationID = &installation
	}
	if err := r.Store.CreateWebhook(r.emit(ctx, webhookEvent(EventWebhookCreated, w), map[string]any{"url": w.URL}), w); err != nil {
		return nil, err
	}
	out := toWebhook(w)
	out.Secret = &w.Secret
	return out, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (r *App) checkWebhookInput(url string, types []string) error {
	if err := r.Settings.Webhooks.Fetch.Check(url); err != nil {
		return apperr.Invalidf("url", "%s", err.Error())
	}
	for i, t := range types {
		if !knownEventType(t) {
			return apperr.Invalidf(fmt.Sprintf("eventTypes[%d]", i), "unknown event type %q", t)
		}
	}
	return nil
}

// webhookOf finds an organization's webhook that the caller manages (webhookManager). Errors:
// NotFound, Forbidden.
func (r *App) webhookOf(ctx context.Context, orgID, id string) (*storage.Webhook, error) {
	org, installation, err := r.webhookManager(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return r.managedWebhook(ctx, org.ID, installation, id)
}

// managedWebhook reads a webhook of the organization: any, for an admin (installation ""), or
// one of the installation's own. Errors: NotFound.
func (r *App) managedWebhook(ctx context.Context, orgID, installation, id string) (*storage.Webhook, error) {
	w, err := r.Store.FindWebhook(ctx, orgID, id)
	if err != nil || (installation != "" && deref(w.InstallationID) != installation) {
		return nil, notFound(orNotFound(err), "webhook")
	}
	return w, nil
}

// webhookManager checks that the caller manages webhooks of the organization: an admin manages
// them all; an integration installation's token, its own (installation names it), if its
// integration may read the spaces it is on. Errors: NotFound, Forbidden.
func (r *App) webhookManager(ctx context.Context, orgID string) (*model.Organization, string, error) {
	limit := authz.LimitFrom(ctx)
	if limit == nil || limit.Installation == "" {
		org, err := r.adminOf(ctx, orgID)
		return org, "", err
	}
	org, err := r.OrganizationByID(ctx, orgID)
	if err != nil {
		return nil, "", err
	}
	if !limit.Allows(authz.ScopeRead, authz.ScopeSpaceContentRead, authz.ScopeSpaceMetadataRead) {
		return nil, "", apperr.Forbiddenf("this integration's scopes read no space: it cannot receive their events")
	}
	return org, limit.Installation, nil
}

// Webhooks pages through an organization's webhooks. Errors: Invalid, NotFound, Forbidden.
func (r *App) Webhooks(ctx context.Context, orgID string, first *int, after *string) (*model.WebhookConnection, error) {
	org, installation, err := r.webhookManager(ctx, orgID)
	if err != nil {
		return nil, err
	}
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.Webhooks(ctx, org.ID, installation, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, toWebhook), nil
}

// WebhookByID returns one webhook (without its secret). Errors: NotFound, Forbidden.
func (r *App) WebhookByID(ctx context.Context, orgID, id string) (*model.Webhook, error) {
	w, err := r.webhookOf(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	return toWebhook(w), nil
}

// UpdateWebhook changes an endpoint; enabling it clears its run of failures. Errors: Invalid,
// NotFound, Forbidden.
func (r *App) UpdateWebhook(ctx context.Context, orgID, id string, in model.UpdateWebhookInput) (*model.Webhook, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	w, err := r.webhookOf(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	url := w.URL
	if v, ok := in.URL.ValueOK(); ok {
		url = *v
	}
	if err := r.checkWebhookInput(url, in.EventTypes.Value()); err != nil {
		return nil, err
	}
	w.URL = url
	if v, ok := in.Description.ValueOK(); ok {
		w.Description = deref(v)
	}
	if v, ok := in.EventTypes.ValueOK(); ok {
		b, _ := json.Marshal(nonNil(v))
		w.EventTypes = string(b)
	}
	if v, ok := in.Enabled.ValueOK(); ok {
		w.Enabled = *v
		if *v {
			w.DisabledReason, w.FailingSince = nil, nil
		}
	}
	w.UpdatedAt = r.Now()
	if err := r.Store.UpdateWebhook(r.emit(ctx, webhookEvent(EventWebhookUpdated, w), map[string]any{"url": w.URL, "enabled": w.Enabled}), w); err != nil {
		return nil, notFound(err, "webhook")
	}
	return toWebhook(w), nil
}

// RotateWebhookSecret gives a webhook a new secret, returned this once; the previous one keeps
// signing beside it for the rotation overlap, so receivers can switch without losing a delivery.
// Errors: NotFound, Forbidden.
func (r *App) RotateWebhookSecret(ctx context.Context, orgID, id string) (*model.Webhook, error) {
	w, err := r.webhookOf(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	now := r.Now()
	until := now.Add(r.Settings.Webhooks.withDefaults().RotationOverlap)
	prev := w.Secret
	w.PreviousSecret, w.PreviousExpiresAt, w.Secret, w.UpdatedAt = &prev, &until, newWebhookSecret(), now
	if err := r.Store.UpdateWebhook(r.emit(ctx, webhookEvent(EventWebhookSecretRotated, w), nil), w); err != nil {
		return nil, notFound(err, "webhook")
	}
	out := toWebhook(w)
	out.Secret = &w.Secret
	return out, nil
}

// DeleteWebhook deletes a webhook and its log; a missing one reports false. Errors: NotFound
// (organization), Forbidden.
func (r *App) DeleteWebhook(ctx context.Context, orgID, id string) (bool, error) {
	org, installation, err := r.webhookManager(ctx, orgID)
	if err != nil {
		return false, err
	}
	w, err := r.managedWebhook(ctx, org.ID, installation, id)
	if apperr.KindOf(err) == apperr.NotFound {
		return false, nil // a missing webhook (or another's): nothing to delete
	}
	if err != nil {
		return false, err
	}
	return r.Store.DeleteWebhook(r.emit(ctx, webhookEvent(EventWebhookDeleted, w), nil), w.OrganizationID, w.ID)
}

// webhookEvent is an event about a webhook endpoint (never with its secret).
func webhookEvent(typ string, w *storage.Webhook) *storage.Event {
	return orgObjectEvent(typ, w.OrganizationID, "webhook", w.ID, w.Description)
}

// WebhookDeliveries pages through a webhook's delivery log, newest first. Errors: Invalid,
// NotFound, Forbidden.
func (r *App) WebhookDeliveries(ctx context.Context, orgID, webhookID string, first *int, after *string) (*model.WebhookDeliveryConnection, error) {
	w, err := r.webhookOf(ctx, orgID, webhookID)
	if err != nil {
		return nil, err
	}
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.WebhookDeliveries(ctx, w.ID, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, toWebhookDelivery), nil
}

// RedeliverWebhookDelivery sends a logged delivery again, as a new entry of the log (same event,
// same body). Errors: NotFound, Forbidden.
func (r *App) RedeliverWebhookDelivery(ctx context.Context, orgID, deliveryID string) (*model.WebhookDelivery, error) {
	org, installation, err := r.webhookManager(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if installation != "" { // an installation redelivers to its own webhooks only
		if _, w, err := r.Store.FindWebhookDelivery(ctx, deliveryID); err != nil || w.OrganizationID != org.ID || deref(w.InstallationID) != installation {
			return nil, apperr.NotFoundf("webhook delivery not found")
		}
	}
	d, err := r.Store.Redeliver(ctx, org.ID, deliveryID, newDeliveryJob, r.Now())
	if err != nil {
		return nil, notFound(err, "webhook delivery")
	}
	return toWebhookDelivery(d), nil
}

func toWebhook(w *storage.Webhook) *model.Webhook {
	var types []string
	_ = json.Unmarshal([]byte(w.EventTypes), &types)
	return &model.Webhook{Object: "webhook", OrganizationID: w.OrganizationID, ID: w.ID, URL: w.URL, InstallationID: w.InstallationID, Description: w.Description, EventTypes: nonNil(types), Enabled: w.Enabled,
		DisabledReason: w.DisabledReason, FailingSince: w.FailingSince, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt}
}

func toWebhookDelivery(d *storage.WebhookDelivery) *model.WebhookDelivery {
	out := &model.WebhookDelivery{Object: "webhook-delivery", ID: d.ID, EventID: d.EventID, EventType: d.EventType, Status: d.Status,
		Attempts: d.Attempts, RequestBody: d.RequestBody, ResponseStatus: d.ResponseStatus, ResponseExcerpt: d.ResponseExcerpt,
		Error: d.Error, CreatedAt: d.CreatedAt, AttemptedAt: d.AttemptedAt}
	if d.DurationMS != nil {
		ms := int(*d.DurationMS)
		out.DurationMS = &ms
	}
	return out
}

// newWebhookSecret is a Standard Webhooks secret: whsec_ and 32 random bytes in base64.
func newWebhookSecret() string {
	var b [32]byte
	rand.Read(b[:]) //nolint:errcheck // crypto/rand.Read never fails on supported platforms
	return "whsec_" + base64.StdEncoding.EncodeToString(b[:])
}

// SignWebhook is a Standard Webhooks signature: v1, and the base64 HMAC-SHA256, keyed with the
// secret's bytes, of "id.timestamp.body".
func SignWebhook(secret, id string, timestamp int64, body []byte) string {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		key = []byte(secret)
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%d.", id, timestamp)
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// signatures is the webhook-signature header: the current secret's signature and, during a
// rotation's overlap, the previous one's, space-separated.
func signatures(w *storage.Webhook, id string, ts int64, body []byte, now time.Time) string {
	sig := SignWebhook(w.Secret, id, ts, body)
	if w.PreviousSecret != nil && w.PreviousExpiresAt != nil && now.Before(*w.PreviousExpiresAt) {
		sig += " " + SignWebhook(*w.PreviousSecret, id, ts, body)
	}
	return sig
}

// webhookBody renders an event as GitBook's contract shapes it (its Event schema: eventId, type,
// spaceId, revisionId, …), with Bindery's object ids and the event's payload fields beside.
func webhookBody(ev *storage.Event) string {
	body := map[string]any{}
	var payload map[string]any
	if json.Unmarshal([]byte(ev.Payload), &payload) == nil {
		for k, v := range payload {
			body[k] = v
		}
	}
	body["eventId"], body["type"], body["organizationId"] = ev.ID, ev.Type, ev.OrganizationID
	body["createdAt"] = ev.CreatedAt.UTC().Format(time.RFC3339Nano)
	body["actor"] = map[string]any{"type": ev.ActorType, "id": ev.ActorID}
	body["target"] = map[string]any{"type": ev.TargetType, "id": ev.TargetID}
	for k, v := range map[string]string{"spaceId": ev.SpaceID, "changeRequestId": ev.ChangeRequestID, "commentId": ev.CommentID,
		"siteId": ev.SiteID, "collectionId": ev.CollectionID, "userId": ev.SubjectUserID, "teamId": ev.TeamID, "revisionId": ev.RevisionID} {
		if v != "" {
			body[k] = v
		}
	}
	if ev.Type == EventSpaceContentUpdated && ev.ActorType == "user" {
		body["updatedBy"] = []map[string]any{{"object": "user", "id": ev.ActorID}}
	}
	b, _ := json.Marshal(body)
	return string(b)
}

// webhookDeliveryArgs is a delivery's job.
type webhookDeliveryArgs struct {
	DeliveryID string `json:"deliveryId"`
}

func (webhookDeliveryArgs) Kind() string { return "webhook_delivery" }

func newDeliveryJob(id string) storage.JobArgs { return webhookDeliveryArgs{DeliveryID: id} }

func init() {
	addJobKinds(func(r *App, reg *jobs.Registry) {
		jobs.Add(reg, r.workWebhookDelivery, jobs.Timeout(time.Minute))
	})
}

// DispatchWebhooks turns committed events into deliveries until ctx ends: woken when events
// commit (on PostgreSQL, on any server), and every few seconds besides. Every server may run it;
// the dispatch cursor's lock makes each event dispatched once.
func (r *App) DispatchWebhooks(ctx context.Context) {
	for {
		wake := r.Store.WaitForEvents()
		for ctx.Err() == nil {
			n, err := r.DispatchWebhooksOnce(ctx)
			if err != nil {
				if ctx.Err() == nil {
					slog.ErrorContext(ctx, "webhook dispatch", "err", err)
				}
				break
			}
			if n == 0 {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-time.After(5 * time.Second):
		}
	}
}

// DispatchWebhooksOnce dispatches the events committed since the last dispatch (a batch) and
// returns how many it read.
func (r *App) DispatchWebhooksOnce(ctx context.Context) (int, error) {
	return r.Store.DispatchWebhooks(ctx, webhookBody, newDeliveryJob, r.Now())
}

// workWebhookDelivery sends one delivery. A failure returns an error, so River tries again with
// its back-off, until the last attempt marks it failed.
func (r *App) workWebhookDelivery(ctx context.Context, job *jobs.Job[webhookDeliveryArgs]) error {
	d, w, err := r.Store.FindWebhookDelivery(ctx, job.Args.DeliveryID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil // the webhook was deleted
	}
	if err != nil {
		return err
	}
	if d.Status != storage.DeliveryPending {
		return nil
	}
	settings := r.Settings.Webhooks.withDefaults()
	if !w.Enabled {
		msg := "the webhook is disabled"
		_, err := r.Store.RecordDeliveryAttempt(ctx, d, storage.DeliveryOutcome{Final: true, Error: &msg}, r.Now())
		return err
	}
	if earlier, err := r.Store.EarlierPending(ctx, d); err != nil {
		return err
	} else if earlier {
		return jobs.Retry(time.Second) // an earlier event about the same object goes first
	}
	out := r.post(ctx, settings, w, d)
	out.Final = !out.Delivered && job.Attempt >= job.MaxAttempts
	out.DisableAfter = settings.DisableAfter
	if r.Mail != nil {
		out.DisabledNotice = webhookDisabledMailArgs{OrganizationID: w.OrganizationID, WebhookID: w.ID}
	}
	// The event is written only with the attempt that disables the webhook.
	ctx = r.emit(ctx, webhookEvent(EventWebhookDisabled, w), map[string]any{"url": w.URL})
	disabled, err := r.Store.RecordDeliveryAttempt(ctx, d, out, r.Now())
	if err != nil {
		return err
	}
	if disabled {
		slog.WarnContext(ctx, "webhook disabled after failing", "webhook", w.ID, "organization", w.OrganizationID)
	}
	if out.Delivered || out.Final || disabled {
		return nil
	}
	return fmt.Errorf("webhook %s: delivery %s failed", w.ID, d.ID)
}

// post sends a delivery through the safe fetcher's client, signed.
func (r *App) post(ctx context.Context, settings WebhookSettings, w *storage.Webhook, d *storage.WebhookDelivery) storage.DeliveryOutcome {
	fail := func(msg string, took time.Duration) storage.DeliveryOutcome {
		return storage.DeliveryOutcome{Error: &msg, Duration: took}
	}
	policy := settings.Fetch
	if err := policy.Check(w.URL); err != nil {
		return fail(err.Error(), 0)
	}
	ctx, cancel := context.WithTimeout(ctx, policy.Timeout)
	defer cancel()
	now := r.Now()
	body := []byte(d.RequestBody)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return fail("not a valid URL", 0)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Bindery-Webhooks")
	req.Header.Set("webhook-id", d.EventID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
	req.Header.Set("webhook-signature", signatures(w, d.EventID, now.Unix(), body, now))
	start := time.Now()
	resp, err := policy.Client().Do(req)
	if err != nil {
		var ne net.Error
		if ctx.Err() != nil || (errors.As(err, &ne) && ne.Timeout()) {
			return fail(fmt.Sprintf("no answer within %s", policy.Timeout), time.Since(start))
		}
		var se *safefetch.Error
		if errors.As(err, &se) {
			return fail(se.Msg, time.Since(start))
		}
		if errors.Is(err, safefetch.ErrForbiddenAddress) {
			return fail("the address is not allowed", time.Since(start))
		}
		return fail("the request failed", time.Since(start))
	}
	defer resp.Body.Close()
	excerpt, _ := io.ReadAll(io.LimitReader(resp.Body, webhookExcerpt))
	took := time.Since(start)
	status, text := resp.StatusCode, strings.ToValidUTF8(string(excerpt), "")
	out := storage.DeliveryOutcome{ResponseStatus: &status, ResponseExcerpt: &text, Duration: took, Delivered: status >= 200 && status < 300}
	if !out.Delivered {
		msg := "the endpoint answered " + resp.Status
		out.Error = &msg
	}
	return out
}
