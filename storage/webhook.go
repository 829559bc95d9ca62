package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/uptrace/bun"
)

// Webhook is an endpoint an organization's admins registered to receive its events.
type Webhook struct {
	bun.BaseModel `bun:"table:webhooks,alias:wh"`

	ID                string `bun:"id,pk"`
	OrganizationID    string
	URL               string `bun:"url"`
	Description       string
	EventTypes        string // JSON list of event types; empty list: every type
	Secret            string // whsec_…, signs every delivery
	PreviousSecret    *string
	PreviousExpiresAt *time.Time // until then the previous secret signs too (a rotation's overlap)
	Enabled           bool       `bun:",notnull"`
	DisabledReason    *string
	FailingSince      *time.Time // first failure of the current run of failures
	CreatedBy         *string
	// InstallationID names the integration installation that registered it: it receives only
	// the events of the spaces the installation is on.
	InstallationID *string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Wants reports whether the webhook takes events of type typ.
func (w *Webhook) Wants(typ string) bool {
	var types []string
	_ = json.Unmarshal([]byte(w.EventTypes), &types)
	return len(types) == 0 || slices.Contains(types, typ)
}

// WebhookDelivery is one event sent (or to be sent) to one webhook: the delivery log.
type WebhookDelivery struct {
	bun.BaseModel `bun:"table:webhook_deliveries,alias:whd"`

	ID              string `bun:"id,pk"`
	WebhookID       string
	OrganizationID  string
	EventID         string
	EventSeq        int64
	EventType       string
	ObjectID        string // deliveries of one object go out in event order
	Status          string // pending, delivered, failed
	Attempts        int    `bun:",notnull"`
	RequestBody     string
	ResponseStatus  *int
	ResponseExcerpt *string
	Error           *string
	DurationMS      *int64 `bun:"duration_ms"`
	CreatedAt       time.Time
	AttemptedAt     *time.Time
}

// The delivery states.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// CreateWebhook stores a new webhook.
func (s *Store) CreateWebhook(ctx context.Context, w *Webhook) error {
	if w.ID == "" {
		w.ID = NewID()
	}
	return s.exec(ctx, func(ctx context.Context, db bun.IDB) error {
		_, err := db.NewInsert().Model(w).Exec(ctx)
		return translate(err)
	})
}

// FindWebhook returns one of an organization's webhooks. Errors: ErrNotFound.
func (s *Store) FindWebhook(ctx context.Context, orgID, id string) (*Webhook, error) {
	w := new(Webhook)
	if err := s.db.NewSelect().Model(w).Where("wh.organization_id = ? AND wh.id = ?", orgID, id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return w, nil
}

// Webhooks pages through an organization's webhooks, newest first.
func (s *Store) Webhooks(ctx context.Context, orgID, installationID string, page Window) (List[*Webhook], error) {
	key := sortKey{name: "webhooks", column: "wh.created_at", idCol: "wh.id", desc: true, isTime: true}
	return paginate(ctx, s.rdb, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		q = q.Where("wh.organization_id = ?", orgID)
		if installationID != "" {
			q = q.Where("wh.installation_id = ?", installationID)
		}
		return q
	}, func(w *Webhook) (time.Time, string, string) { return w.CreatedAt, "", w.ID })
}

// UpdateWebhook writes a webhook's url, description, event types, secrets and state.
func (s *Store) UpdateWebhook(ctx context.Context, w *Webhook) error {
	return s.exec(ctx, func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewUpdate().Model(w).Column("url", "description", "event_types", "secret", "previous_secret",
			"previous_expires_at", "enabled", "disabled_reason", "failing_since", "updated_at").WherePK().Exec(ctx)
		if err != nil {
			return translate(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// DeleteWebhook deletes a webhook and its delivery log; it reports whether there was one.
func (s *Store) DeleteWebhook(ctx context.Context, orgID, id string) (bool, error) {
	return s.execChanged(ctx, func(ctx context.Context, db bun.IDB) (bool, error) {
		res, err := db.NewDelete().Model((*Webhook)(nil)).Where("organization_id = ? AND id = ?", orgID, id).Exec(ctx)
		if err != nil {
			return false, translate(err)
		}
		n, _ := res.RowsAffected()
		return n > 0, nil
	})
}

// WebhookDeliveries pages through a webhook's delivery log, newest first.
func (s *Store) WebhookDeliveries(ctx context.Context, webhookID string, page Window) (List[*WebhookDelivery], error) {
	key := sortKey{name: "webhook-deliveries", column: "whd.created_at", idCol: "whd.id", desc: true, isTime: true}
	return paginate(ctx, s.rdb, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("whd.webhook_id = ?", webhookID)
	}, func(d *WebhookDelivery) (time.Time, string, string) { return d.CreatedAt, "", d.ID })
}

// FindWebhookDelivery returns a delivery with its webhook. Errors: ErrNotFound.
func (s *Store) FindWebhookDelivery(ctx context.Context, id string) (*WebhookDelivery, *Webhook, error) {
	d := new(WebhookDelivery)
	if err := s.db.NewSelect().Model(d).Where("whd.id = ?", id).Scan(ctx); err != nil {
		return nil, nil, translate(err)
	}
	w := new(Webhook)
	if err := s.db.NewSelect().Model(w).Where("wh.id = ?", d.WebhookID).Scan(ctx); err != nil {
		return nil, nil, translate(err)
	}
	return d, w, nil
}

// EarlierPending reports whether an earlier event about the same object still waits to reach
// the same webhook: deliveries of one object go out in order.
func (s *Store) EarlierPending(ctx context.Context, d *WebhookDelivery) (bool, error) {
	n, err := s.db.NewSelect().Model((*WebhookDelivery)(nil)).
		Where("webhook_id = ? AND object_id = ? AND event_seq < ? AND status = ?", d.WebhookID, d.ObjectID, d.EventSeq, DeliveryPending).
		Count(ctx)
	return n > 0, translate(err)
}

// DeliveryOutcome is one attempt's result.
type DeliveryOutcome struct {
	Delivered       bool
	Final           bool // no attempt follows: the delivery failed for good
	ResponseStatus  *int
	ResponseExcerpt *string
	Error           *string
	Duration        time.Duration
	// DisableAfter disables the webhook when it has failed without a success for that long.
	DisableAfter time.Duration
	// DisabledNotice, when set, is enqueued with the attempt that disables the webhook (the
	// owners' notice); the events ctx carries are written only with that attempt too.
	DisabledNotice JobArgs
}

// RecordDeliveryAttempt logs an attempt on the delivery and the webhook's health: a success ends
// a run of failures, a failure starts one, and a run longer than DisableAfter disables the
// webhook. It reports whether the webhook was disabled now.
func (s *Store) RecordDeliveryAttempt(ctx context.Context, d *WebhookDelivery, out DeliveryOutcome, now time.Time) (bool, error) {
	disabled := false
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		w := new(Webhook)
		if err := s.forUpdate(tx.NewSelect().Model(w).Where("wh.id = ?", d.WebhookID)).Scan(ctx); err != nil {
			return translate(err)
		}
		switch {
		case out.Delivered:
			w.FailingSince = nil
		case w.FailingSince == nil:
			w.FailingSince = &now
		case out.DisableAfter > 0 && now.Sub(*w.FailingSince) >= out.DisableAfter && w.Enabled:
			reason := fmt.Sprintf("disabled after failing since %s", w.FailingSince.UTC().Format(time.RFC3339))
			w.Enabled, w.DisabledReason, disabled = false, &reason, true
		}
		if _, err := tx.NewUpdate().Model(w).Column("failing_since", "enabled", "disabled_reason").WherePK().Exec(ctx); err != nil {
			return translate(err)
		}
		d.Attempts++
		d.AttemptedAt, d.ResponseStatus, d.ResponseExcerpt, d.Error = &now, out.ResponseStatus, out.ResponseExcerpt, out.Error
		ms := out.Duration.Milliseconds()
		d.DurationMS = &ms
		switch {
		case out.Delivered:
			d.Status = DeliveryDelivered
		case out.Final || disabled:
			d.Status = DeliveryFailed
		}
		if _, err := tx.NewUpdate().Model(d).Column("status", "attempts", "attempted_at", "response_status", "response_excerpt", "error", "duration_ms").WherePK().Exec(ctx); err != nil {
			return translate(err)
		}
		if !disabled {
			noEvent(ctx)
			return nil
		}
		if out.DisabledNotice != nil {
			_, err := s.insertJobTx(ctx, tx, out.DisabledNotice, nil)
			return err
		}
		return nil
	})
	return disabled, err
}

// Redeliver queues a delivery again (a new entry of the log, with the same event and body), with
// its job. Errors: ErrNotFound.
func (s *Store) Redeliver(ctx context.Context, orgID, deliveryID string, job func(deliveryID string) JobArgs, now time.Time) (*WebhookDelivery, error) {
	var again *WebhookDelivery
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		d := new(WebhookDelivery)
		if err := tx.NewSelect().Model(d).Where("whd.organization_id = ? AND whd.id = ?", orgID, deliveryID).Scan(ctx); err != nil {
			return translate(err)
		}
		again = &WebhookDelivery{ID: NewID(), WebhookID: d.WebhookID, OrganizationID: orgID, EventID: d.EventID, EventSeq: d.EventSeq,
			EventType: d.EventType, ObjectID: d.ObjectID, Status: DeliveryPending, RequestBody: d.RequestBody, CreatedAt: now}
		if _, err := tx.NewInsert().Model(again).Exec(ctx); err != nil {
			return translate(err)
		}
		_, err := s.insertJobTx(ctx, tx, job(again.ID), &JobOptions{MaxAttempts: WebhookMaxAttempts})
		return err
	})
	return again, err
}

// WebhookMaxAttempts is how often a delivery is tried: River's exponential back-off (attempt⁴
// seconds) spreads 12 attempts over about a day and a half.
const WebhookMaxAttempts = 12

// DispatchWebhooks turns the events committed since the last dispatch into deliveries, one per
// enabled webhook of the event's organization that wants its type, each with its job, and
// advances the dispatch cursor, in one transaction under the cursor's lock: each event is
// dispatched once however many servers dispatch. body renders an event's request body; job
// makes a delivery's job. It returns how many events it read (0: nothing new).
func (s *Store) DispatchWebhooks(ctx context.Context, body func(*Event) string, job func(deliveryID string) JobArgs, now time.Time) (int, error) {
	read := 0
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		var cursor int64
		if err := s.forUpdate(tx.NewSelect().Table("event_cursors").Column("seq").Where("name = 'webhooks'")).Scan(ctx, &cursor); err != nil {
			return fmt.Errorf("read dispatch cursor: %w", translate(err))
		}
		var evs []*Event
		if err := tx.NewSelect().Model(&evs).Where("seq > ?", cursor).OrderExpr("seq").Limit(200).Scan(ctx); err != nil {
			return translate(err)
		}
		if read = len(evs); read == 0 {
			return nil
		}
		orgs := map[string]bool{}
		var orgIDs []string
		for _, ev := range evs {
			if ev.OrganizationID != "" && !orgs[ev.OrganizationID] {
				orgs[ev.OrganizationID] = true
				orgIDs = append(orgIDs, ev.OrganizationID)
			}
		}
		var hooks []*Webhook
		if len(orgIDs) > 0 {
			if err := tx.NewSelect().Model(&hooks).Where("wh.organization_id IN (?) AND wh.enabled", bun.List(orgIDs)).OrderExpr("wh.id").Scan(ctx); err != nil {
				return translate(err)
			}
		}
		installed, err := installedSpaces(ctx, tx, hooks)
		if err != nil {
			return err
		}
		for _, ev := range evs {
			var rendered string
			for _, w := range hooks {
				if w.OrganizationID != ev.OrganizationID || !w.Wants(ev.Type) || (ev.TargetType == "webhook" && ev.TargetID == w.ID) {
					continue // a webhook is not told of changes to itself
				}
				if w.InstallationID != nil && !installed[*w.InstallationID+"/"+ev.SpaceID] {
					continue // an installation's webhook hears of its spaces only
				}
				if rendered == "" {
					rendered = body(ev)
				}
				d := &WebhookDelivery{ID: NewID(), WebhookID: w.ID, OrganizationID: w.OrganizationID, EventID: ev.ID, EventSeq: ev.Seq,
					EventType: ev.Type, ObjectID: ev.TargetID, Status: DeliveryPending, RequestBody: rendered, CreatedAt: now}
				if _, err := tx.NewInsert().Model(d).Exec(ctx); err != nil {
					return translate(err)
				}
				if _, err := s.insertJobTx(ctx, tx, job(d.ID), &JobOptions{MaxAttempts: WebhookMaxAttempts}); err != nil {
					return err
				}
			}
		}
		_, err = tx.NewUpdate().Table("event_cursors").Set("seq = ?", evs[len(evs)-1].Seq).Where("name = 'webhooks'").Exec(ctx)
		return translate(err)
	})
	return read, err
}

// installedSpaces reads, for the installations' webhooks among hooks, the spaces each
// installation is on, as "installation/space" keys: one statement, none without such webhooks.
func installedSpaces(ctx context.Context, tx bun.Tx, hooks []*Webhook) (map[string]bool, error) {
	var ids []string
	for _, w := range hooks {
		if w.InstallationID != nil {
			ids = append(ids, *w.InstallationID)
		}
	}
	out := map[string]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []*SpaceInstallation
	if err := tx.NewSelect().Model(&rows).Where("installation_id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		out[r.InstallationID+"/"+r.SpaceID] = true
	}
	return out, nil
}

// WaitForEvents returns a channel closed when events may have committed (this process's, or on
// PostgreSQL any server's).
func (s *Store) WaitForEvents() <-chan struct{} {
	s.listen()
	wake, _ := s.feed.signal()
	return wake
}
