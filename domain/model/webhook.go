package model

import (
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/opt"
)

// Webhook is an endpoint that receives an organization's events, signed with its secret
// (Standard Webhooks). The secret is shown once: when the webhook is created and when it is
// rotated.
type Webhook struct {
	Object         string     `json:"object"` // "webhook"
	OrganizationID string     `json:"-"`
	ID             string     `json:"id"`
	URL            string     `json:"url"`
	Description    string     `json:"description"`
	EventTypes     []string   `json:"eventTypes"` // empty: every type
	Enabled        bool       `json:"enabled"`
	DisabledReason *string    `json:"disabledReason,omitempty"`
	FailingSince   *time.Time `json:"failingSince,omitempty"`
	Secret         *string    `json:"secret,omitempty"` // only in the answer that made it
	// InstallationID: the integration installation that registered it (its spaces' events only).
	InstallationID *string   `json:"installationId,omitempty"`
	CreatedAt      time.Time `json:"createdAt"`
	UpdatedAt      time.Time `json:"updatedAt"`
}

// WebhookDelivery is one entry of a webhook's delivery log.
type WebhookDelivery struct {
	Object          string     `json:"object"` // "webhook-delivery"
	ID              string     `json:"id"`
	EventID         string     `json:"eventId"`
	EventType       string     `json:"eventType"`
	Status          string     `json:"status"` // pending, delivered, failed
	Attempts        int        `json:"attempts"`
	RequestBody     string     `json:"requestBody"`
	ResponseStatus  *int       `json:"responseStatus,omitempty"`
	ResponseExcerpt *string    `json:"responseExcerpt,omitempty"`
	Error           *string    `json:"error,omitempty"`
	DurationMS      *int       `json:"durationMs,omitempty"`
	CreatedAt       time.Time  `json:"createdAt"`
	AttemptedAt     *time.Time `json:"attemptedAt,omitempty"`
}

// WebhookConnection and WebhookDeliveryConnection page through webhooks and their log.
type (
	WebhookConnection         = Connection[*Webhook]
	WebhookEdge               = Edge[*Webhook]
	WebhookDeliveryConnection = Connection[*WebhookDelivery]
	WebhookDeliveryEdge       = Edge[*WebhookDelivery]
)

// CreateWebhookInput registers an endpoint.
type CreateWebhookInput struct {
	URL         string   `json:"url"`
	Description *string  `json:"description"`
	EventTypes  []string `json:"eventTypes"`
}

// Validate checks the input's shape; the URL's reachability is the domain's (safefetch).
func (in CreateWebhookInput) Validate() error {
	if err := length("url", in.URL, 1, 2048); err != nil {
		return err
	}
	if in.Description != nil {
		if err := length("description", *in.Description, 0, 500); err != nil {
			return err
		}
	}
	return eventTypesOK(in.EventTypes)
}

// UpdateWebhookInput changes an endpoint; enabling a disabled one starts it afresh.
type UpdateWebhookInput struct {
	URL         opt.Field[*string]  `json:"url"`
	Description opt.Field[*string]  `json:"description"`
	EventTypes  opt.Field[[]string] `json:"eventTypes"`
	Enabled     opt.Field[*bool]    `json:"enabled"`
}

// Validate checks the input's shape.
func (in UpdateWebhookInput) Validate() error {
	if v, ok := in.URL.ValueOK(); ok {
		if v == nil {
			return apperr.Invalidf("url", "url cannot be null")
		}
		if err := length("url", *v, 1, 2048); err != nil {
			return err
		}
	}
	if v, ok := in.Description.ValueOK(); ok && v != nil {
		if err := length("description", *v, 0, 500); err != nil {
			return err
		}
	}
	if v, ok := in.Enabled.ValueOK(); ok && v == nil {
		return apperr.Invalidf("enabled", "enabled cannot be null")
	}
	return eventTypesOK(in.EventTypes.Value())
}

// eventTypesOK bounds the list; which types exist is the domain's to check.
func eventTypesOK(types []string) error {
	if len(types) > 100 {
		return apperr.Invalidf("eventTypes", "at most 100 event types")
	}
	return nil
}
