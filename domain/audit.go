package domain

import (
	"context"
	"encoding/json"
	"io"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// The audit log: an organization's events, read by its admins through the newer GitBook API's
// audit operations (listOrganizationAuditEvents, getOrganizationAuditEvent,
// listOrganizationAuditEventActions) and GraphQL, kept as long as the operator's retention says.

// MaxAuditPageSize is the contract's bound on one page of audit events.
const MaxAuditPageSize = 100

// AuditEvents pages through an organization's events, newest first. Errors: Invalid, NotFound,
// Forbidden.
func (r *App) AuditEvents(ctx context.Context, orgID string, f model.AuditEventFilter, first *int, after *string) (*model.AuditEventConnection, error) {
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if first != nil && (*first < 1 || *first > MaxAuditPageSize) {
		return nil, apperr.Invalidf("limit", "must be from 1 to %d", MaxAuditPageSize)
	}
	filter, err := eventFilter(org.ID, f)
	if err != nil {
		return nil, err
	}
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	if first == nil {
		page.Limit = 20
	}
	list, err := r.Store.FindEvents(ctx, filter, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, func(ev *storage.Event) *model.AuditEvent { return r.toAuditEvent(ev, false) }), nil
}

func eventFilter(orgID string, f model.AuditEventFilter) (storage.EventFilter, error) {
	out := storage.EventFilter{OrganizationID: orgID, Type: deref(f.Action), ActorID: deref(f.Actor), TargetID: deref(f.Target)}
	if f.From != nil {
		out.From = *f.From
	}
	if f.To != nil {
		out.To = *f.To
	}
	if f.From != nil && f.To != nil && f.To.Before(*f.From) {
		return out, apperr.Invalidf("to", "must not be before from")
	}
	return out, nil
}

// AuditEvent returns one event of an organization with its payload. Another organization's
// event, or an id that is none, is not found. Errors: NotFound, Forbidden.
func (r *App) AuditEvent(ctx context.Context, orgID, id string) (*model.AuditEvent, error) {
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	ev, err := r.Store.FindEventByID(ctx, org.ID, id)
	if err != nil {
		return nil, notFound(err, "audit event")
	}
	return r.toAuditEvent(ev, true), nil
}

// AuditEventActions lists the actions the audit log records. Errors: NotFound, Forbidden.
func (r *App) AuditEventActions(ctx context.Context, orgID string) (*model.AuditEventActions, error) {
	if _, err := r.adminOf(ctx, orgID); err != nil {
		return nil, err
	}
	out := &model.AuditEventActions{Items: make([]*model.AuditEventAction, len(EventTypes))}
	for i, t := range EventTypes {
		out.Items[i] = &model.AuditEventAction{Object: "audit-event-action", ID: t.Type, Label: t.Label}
	}
	return out, nil
}

// ExportAuditEvents writes an organization's events matching f to w as JSON lines, oldest first,
// each with its payload. Errors: Invalid, NotFound, Forbidden (before anything is written).
func (r *App) ExportAuditEvents(ctx context.Context, orgID string, f model.AuditEventFilter, w io.Writer) error {
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return err
	}
	filter, err := eventFilter(org.ID, f)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	return r.Store.EachEvent(ctx, filter, func(ev *storage.Event) error { return enc.Encode(r.toAuditEvent(ev, true)) })
}

func (r *App) toAuditEvent(ev *storage.Event, details bool) *model.AuditEvent {
	out := &model.AuditEvent{
		Object: "audit-event", ID: ev.ID, OccurredAt: ev.CreatedAt, Action: ev.Type,
		Actor:  model.AuditEventActor{Type: ev.ActorType, ID: ev.ActorID, Label: labelOf(ev.ActorLabel)},
		Source: ev.Source,
		Target: model.AuditEventActor{Type: ev.TargetType, ID: ev.TargetID, Label: labelOf(ev.TargetLabel)},
		URLs:   model.AuditEventURLs{Location: r.Settings.PublicURL + "/v1/orgs/" + ev.OrganizationID + "/audit-events/" + ev.ID},
	}
	if details {
		one := 1
		payload := map[string]any{}
		_ = json.Unmarshal([]byte(ev.Payload), &payload)
		for k, v := range map[string]string{"spaceId": ev.SpaceID, "changeRequestId": ev.ChangeRequestID, "commentId": ev.CommentID,
			"siteId": ev.SiteID, "collectionId": ev.CollectionID, "userId": ev.SubjectUserID, "teamId": ev.TeamID, "revisionId": ev.RevisionID} {
			if v != "" {
				payload[k] = v
			}
		}
		b, _ := json.Marshal(payload)
		out.SchemaVersion, out.Payload = &one, model.JSON(b)
	}
	return out
}

func labelOf(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
