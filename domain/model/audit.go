package model

import "time"

// AuditEvent is one recorded change of an organization, as GitBook's newer API (0.202.0) shapes
// it: who (actor), through what (source), on what (target), when.
type AuditEvent struct {
	Object     string          `json:"object"` // "audit-event"
	ID         string          `json:"id"`
	OccurredAt time.Time       `json:"occurredAt"`
	Action     string          `json:"action"`
	Actor      AuditEventActor `json:"actor"`
	Source     string          `json:"source"`
	Target     AuditEventActor `json:"target"`
	URLs       AuditEventURLs  `json:"urls"`
	// The details (getOrganizationAuditEvent): the payload's schema version and the payload.
	SchemaVersion *int `json:"schemaVersion,omitempty"`
	Payload       JSON `json:"payload,omitempty"`
}

// AuditEventActor names who made a change, or (as a target) what it changed.
type AuditEventActor struct {
	Type  string  `json:"type"`
	ID    string  `json:"id"`
	Label *string `json:"label,omitempty"`
}

// AuditEventURLs is where the event is read in the API.
type AuditEventURLs struct {
	Location string `json:"location"`
}

// AuditEventAction is one action the audit log records.
type AuditEventAction struct {
	Object string `json:"object"` // "audit-event-action"
	ID     string `json:"id"`
	Label  string `json:"label"`
}

// AuditEventActions lists the actions (the contract's {items} shape).
type AuditEventActions struct {
	Items []*AuditEventAction `json:"items"`
}

// AuditEventConnection pages through an organization's audit events.
type (
	AuditEventConnection = Connection[*AuditEvent]
	AuditEventEdge       = Edge[*AuditEvent]
)

// AuditEventFilter narrows the audit log: by exact action, actor and target ids, and an inclusive
// time range.
type AuditEventFilter struct {
	Action *string    `json:"action"`
	Actor  *string    `json:"actor"`
	Target *string    `json:"target"`
	From   *time.Time `json:"from"`
	To     *time.Time `json:"to"`
}
