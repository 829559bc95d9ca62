package domain

import (
	"context"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Live updates (GraphQL subscriptions): a subscriber follows the outbox from the moment it
// subscribes, or from the last event it saw (after), and receives the events of one channel.
// Whether it may read the channel's object is checked when it subscribes and again at every
// event, with a fresh request state (nothing cached from earlier): a member removed, or whose
// role no longer reads the space, stops receiving at once and the subscription ends. A channel
// over many objects (an organization's spaces) also checks each event's own object, and leaves
// out those the subscriber may not read.

// channel is what one subscription streams.
type channel struct {
	orgID string
	match func(*storage.Event) bool
	// may checks that the subscriber may still read the channel: failing ends the stream.
	may func(context.Context) error
	// sees, when set, checks the object of one event: failing leaves the event out.
	sees func(context.Context, *storage.Event) bool
}

// SpaceEvents streams a space's events. Errors: Invalid (after), NotFound, Forbidden (when
// subscribing).
func (r *App) SpaceEvents(ctx context.Context, spaceID string, after *string) (<-chan *model.LiveEvent, error) {
	return r.spaceChannel(ctx, spaceID, after, func(ev *storage.Event) bool { return ev.SpaceID == spaceID })
}

// CommentEvents streams the comments and replies of a space and its change requests. Errors:
// Invalid (after), NotFound (when subscribing).
func (r *App) CommentEvents(ctx context.Context, spaceID string, after *string) (<-chan *model.LiveEvent, error) {
	return r.spaceChannel(ctx, spaceID, after, func(ev *storage.Event) bool {
		return ev.SpaceID == spaceID && strings.HasPrefix(ev.Type, "comment_")
	})
}

// GitSyncEvents streams a space's Git Sync operations: imports and exports queued and ended.
// Errors: Invalid (after), NotFound (when subscribing).
func (r *App) GitSyncEvents(ctx context.Context, spaceID string, after *string) (<-chan *model.LiveEvent, error) {
	return r.spaceChannel(ctx, spaceID, after, func(ev *storage.Event) bool {
		return ev.SpaceID == spaceID && strings.HasPrefix(ev.Type, "space_gitsync_")
	})
}

// spaceChannel streams the events match selects, to a subscriber who may read the space.
func (r *App) spaceChannel(ctx context.Context, spaceID string, after *string, match func(*storage.Event) bool) (<-chan *model.LiveEvent, error) {
	may := func(ctx context.Context) error {
		_, _, err := r.readableSpace(ctx, spaceID, false)
		return err
	}
	_, row, err := r.readableSpace(r.WithRequestState(ctx), spaceID, false)
	if err != nil {
		return nil, err
	}
	return r.live(ctx, after, channel{orgID: row.OrganizationID, match: match, may: may})
}

// ChangeRequestEvents streams a change request's events. Errors: Invalid (after), NotFound (when
// subscribing).
func (r *App) ChangeRequestEvents(ctx context.Context, spaceID, changeRequestID string, after *string) (<-chan *model.LiveEvent, error) {
	var orgID string
	may := func(ctx context.Context) error {
		_, row, err := r.readableSpace(ctx, spaceID, false)
		if err != nil {
			return err
		}
		orgID = row.OrganizationID
		_, err = r.Store.FindChangeRequest(ctx, row.ID, changeRequestID)
		return notFound(err, "change request")
	}
	if err := may(r.WithRequestState(ctx)); err != nil {
		return nil, err
	}
	return r.live(ctx, after, channel{orgID: orgID, may: may, match: func(ev *storage.Event) bool {
		return ev.SpaceID == spaceID && ev.ChangeRequestID == changeRequestID
	}})
}

// OrganizationMemberEvents streams an organization's member events, for its members. Errors:
// Invalid (after), NotFound (when subscribing).
func (r *App) OrganizationMemberEvents(ctx context.Context, orgID string, after *string) (<-chan *model.LiveEvent, error) {
	return r.orgChannel(ctx, orgID, after, nil, func(ev *storage.Event) bool { return strings.HasPrefix(ev.Type, "member_") }, nil)
}

// spaceLifecycle lists the events of a space's own life, as an organization's list shows it.
var spaceLifecycle = map[string]bool{EventSpaceCreated: true, EventSpaceUpdated: true, EventSpaceDeleted: true,
	EventSpaceRestored: true, EventSpaceVisibilityUpdated: true}

// OrganizationSpaceEvents streams the creation, changes, trashing and restoring of the
// organization's spaces that the subscriber may read (in the trash too). Errors: Invalid
// (after), NotFound (when subscribing).
func (r *App) OrganizationSpaceEvents(ctx context.Context, orgID string, after *string) (<-chan *model.LiveEvent, error) {
	return r.orgChannel(ctx, orgID, after, nil, func(ev *storage.Event) bool { return spaceLifecycle[ev.Type] && ev.SpaceID != "" },
		func(ctx context.Context, ev *storage.Event) bool {
			_, _, err := r.readableSpace(ctx, ev.SpaceID, true)
			return err == nil
		})
}

// OrganizationSiteEvents streams everything about the organization's sites: the sites, their
// spaces, sections, customization, share links, redirects, host names and publishing. Guests,
// who see no site, may not subscribe. Errors: Invalid (after), NotFound, Forbidden (when
// subscribing).
func (r *App) OrganizationSiteEvents(ctx context.Context, orgID string, after *string) (<-chan *model.LiveEvent, error) {
	return r.orgChannel(ctx, orgID, after, func(ctx context.Context) error {
		_, err := r.siteReader(ctx, orgID)
		return err
	}, func(ev *storage.Event) bool { return ev.SiteID != "" }, nil)
}

// TranslationEvents streams the organization's translations and their runs, those whose source
// space the subscriber may read. Errors: Invalid (after), NotFound (when subscribing).
func (r *App) TranslationEvents(ctx context.Context, orgID string, after *string) (<-chan *model.LiveEvent, error) {
	return r.orgChannel(ctx, orgID, after, nil, func(ev *storage.Event) bool { return strings.HasPrefix(ev.Type, "translation_") },
		func(ctx context.Context, ev *storage.Event) bool {
			tr, err := r.translationReader(ctx, orgID)
			return err == nil && (ev.SpaceID == "" || tr.canReadSpace(ev.SpaceID))
		})
}

// orgChannel streams an organization's events that match selects (and sees passes, when set), to
// those may allows (nil: its members).
func (r *App) orgChannel(ctx context.Context, orgID string, after *string, may func(context.Context) error, match func(*storage.Event) bool, sees func(context.Context, *storage.Event) bool) (<-chan *model.LiveEvent, error) {
	if may == nil {
		may = func(ctx context.Context) error {
			_, err := r.OrganizationByID(ctx, orgID)
			return err
		}
	}
	if err := may(r.WithRequestState(ctx)); err != nil {
		return nil, err
	}
	return r.live(ctx, after, channel{orgID: orgID, may: may, sees: sees, match: func(ev *storage.Event) bool {
		return ev.OrganizationID == orgID && match(ev)
	}})
}

// recheckEvery bounds how long a subscriber's access goes unchecked while no event that can
// change it passes: a safety net for a change no event names.
const recheckEvery = 5 * time.Second

// changesAccess reports whether an event can change who reads what: memberships, roles, grants,
// teams, collections, a space's settings or place, the organization's settings, single sign-on,
// a sign-out. Events commit in one order, so a subscriber that checks again at such an event
// sends nothing after it that it may no longer read.
func changesAccess(ev *storage.Event) bool {
	switch {
	case ev.Type == EventSpaceContentUpdated, strings.HasPrefix(ev.Type, "space_gitsync_"), strings.HasPrefix(ev.Type, "space_installation"):
		return false
	case strings.HasPrefix(ev.Type, "member_"), strings.HasPrefix(ev.Type, "permission_"), strings.HasPrefix(ev.Type, "team_"),
		strings.HasPrefix(ev.Type, "collection_"), strings.HasPrefix(ev.Type, "space_"), strings.HasPrefix(ev.Type, "saml_provider_"),
		ev.Type == EventOrganizationUpdated, ev.Type == EventUserSignedOut:
		return true
	}
	return false
}

// live follows the events committed from now on, or after the event after (one of the channel's
// organization's, still kept): those the channel matches are sent while the subscriber may
// still read the channel, and sees the event's object. The channel's access is checked again, with
// a fresh request state, at every event that can change access and at least every recheckEvery;
// the stream ends when that check fails or ctx ends. The caller has checked the subscriber once.
func (r *App) live(ctx context.Context, after *string, ch channel) (<-chan *model.LiveEvent, error) {
	if _, err := authz.RequireActor(ctx); err != nil {
		return nil, err
	}
	var from int64
	if after != nil {
		ev, err := r.Store.FindEventByID(ctx, ch.orgID, *after)
		if err != nil {
			return nil, apperr.Invalidf("after", "event %q is not kept (or not of this organization): read again what you show and subscribe without after", *after)
		}
		from = ev.Seq
	} else {
		var err error
		if from, err = r.Store.LastEventSeq(ctx); err != nil {
			return nil, err
		}
	}
	out := make(chan *model.LiveEvent, 16)
	go func() {
		defer close(out)
		checked := time.Now()
		stale := false // an event that can change access passed since the last check
		_ = r.Store.FollowEvents(ctx, from, func(ev *storage.Event) error {
			if ev.OrganizationID == ch.orgID && changesAccess(ev) {
				stale = true
			}
			if !ch.match(ev) {
				return nil
			}
			if stale || time.Since(checked) >= recheckEvery {
				if err := ch.may(r.WithRequestState(ctx)); err != nil {
					return err // no longer allowed: the subscription ends
				}
				checked, stale = time.Now(), false
			}
			if ch.sees != nil && !ch.sees(r.WithRequestState(ctx), ev) {
				return nil
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
		CommentID: opt(ev.CommentID), SiteID: opt(ev.SiteID), UserID: opt(ev.SubjectUserID), RevisionID: opt(ev.RevisionID),
		Target: model.AuditEventActor{Type: ev.TargetType, ID: ev.TargetID, Label: labelOf(ev.TargetLabel)},
		Actor:  model.AuditEventActor{Type: ev.ActorType, ID: ev.ActorID, Label: labelOf(ev.ActorLabel)}, OccurredAt: ev.CreatedAt}
}
