package model

import "time"

// LiveEvent is a committed change as a GraphQL subscriber receives it: its type and the ids of
// what it touched, to read through the graph.
type LiveEvent struct {
	ID              string          `json:"id"`
	Type            string          `json:"type"`
	OrganizationID  string          `json:"organizationId"`
	SpaceID         *string         `json:"spaceId,omitempty"`
	ChangeRequestID *string         `json:"changeRequestId,omitempty"`
	CommentID       *string         `json:"commentId,omitempty"`
	SiteID          *string         `json:"siteId,omitempty"`
	UserID          *string         `json:"userId,omitempty"`
	RevisionID      *string         `json:"revisionId,omitempty"`
	Target          AuditEventActor `json:"target"`
	Actor           AuditEventActor `json:"actor"`
	OccurredAt      time.Time       `json:"occurredAt"`
}
