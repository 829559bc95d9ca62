package domain

import (
	"context"
	"strings"

	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Live updates (GraphQL subscriptions): a subscriber follows the outbox from the moment it
// subscribes and receives the events about one object. Whether it may read that object is checked
// when it subscribes and again at every event, with a fresh request state (nothing cached from
// earlier): a member removed, or whose role no longer reads the space, stops receiving at once and
// the subscription ends.

// SpaceEvents streams a space's events. Errors: NotFound, Forbidden (when subscribing).
func (r *App) SpaceEvents(ctx context.Context, spaceID string) (<-chan *model.LiveEvent, error) {
	return r.live(ctx, func(ev *storage.Event) bool { return ev.SpaceID == spaceID }, func(ctx context.Context) error {
		_, _, err := r.readableSpace(ctx, spaceID, false)
		return err
	})
}

// ChangeRequestEvents streams a change request's events. Errors: NotFound (when subscribing).
func (r *App) ChangeRequestEvents(ctx context.Context, spaceID, changeRequestID string) (<-chan *model.LiveEvent, error) {
	return r.live(ctx, func(ev *storage.Event) bool { return ev.SpaceID == spaceID && ev.ChangeRequestID == changeRequestID }, func(ctx context.Context) error {
		_, row, err := r.readableSpace(ctx, spaceID, false)
		if err != nil {
			return err
		}
		_, err = r.Store.FindChangeRequest(ctx, row.ID, changeRequestID)
		return notFound(err, "change request")
	})
}

// CommentEvents streams the comments and replies of a space and its change requests. Errors:
// NotFound (when subscribing).
func (r *App) CommentEvents(ctx context.Context, spaceID string) (<-chan *model.LiveEvent, error) {
	return r.live(ctx, func(ev *storage.Event) bool { return ev.SpaceID == spaceID && strings.HasPrefix(ev.Type, "comment_") }, func(ctx context.Context) error {
		_, _, err := r.readableSpace(ctx, spaceID, false)
		return err
	})
}

// OrganizationMemberEvents streams an organization's member events, for its members. Errors:
// NotFound (when subscribing).
func (r *App) OrganizationMemberEvents(ctx context.Context, orgID string) (<-chan *model.LiveEvent, error) {
	return r.live(ctx, func(ev *storage.Event) bool {
		return ev.OrganizationID == orgID && strings.HasPrefix(ev.Type, "member_")
	}, func(ctx context.Context) error {
		_, err := r.OrganizationByID(ctx, orgID)
		return err
	})
}

// live checks that the caller may read, then follows the events committed from now on: those
// match selects are sent while may still passes (checked afresh for each), and the stream ends
// when it fails or ctx ends.
func (r *App) live(ctx context.Context, match func(*storage.Event) bool, may func(context.Context) error) (<-chan *model.LiveEvent, error) {
	if _, err := authz.RequireActor(ctx); err != nil {
		return nil, err
	}
	if err := may(r.WithRequestState(ctx)); err != nil {
		return nil, err
	}
	from, err := r.Store.LastEventSeq(ctx)
	if err != nil {
		return nil, err
	}
	out := make(chan *model.LiveEvent, 16)
	go func() {
		defer close(out)
		_ = r.Store.FollowEvents(ctx, from, func(ev *storage.Event) error {
			if !match(ev) {
				return nil
			}
			if err := may(r.WithRequestState(ctx)); err != nil {
				return err // no longer allowed: the subscription ends
			}
			select {
			case out <- toLiveEvent(ev):
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	return out, nil
}

func toLiveEvent(ev *storage.Event) *model.LiveEvent {
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	return &model.LiveEvent{ID: ev.ID, Type: ev.Type, OrganizationID: ev.OrganizationID, SpaceID: opt(ev.SpaceID), ChangeRequestID: opt(ev.ChangeRequestID),
		CommentID: opt(ev.CommentID), UserID: opt(ev.SubjectUserID), RevisionID: opt(ev.RevisionID),
		Actor: model.AuditEventActor{Type: ev.ActorType, ID: ev.ActorID, Label: labelOf(ev.ActorLabel)}, OccurredAt: ev.CreatedAt}
}
