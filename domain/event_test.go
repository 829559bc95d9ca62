package domain

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/opt"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// allEvents reads the whole outbox in order.
func allEvents(t *testing.T, s *storage.Store) []*storage.Event {
	t.Helper()
	evs, err := s.EventsAfter(context.Background(), 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func eventTypes(evs []*storage.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.Type
	}
	return out
}

// Every committed change writes its event, in commit order, naming its objects and its actor.
func TestCommittedChangesWriteTheirEvents(t *testing.T) {
	eachDB(t, func(t *testing.T, d *harness) {
		org, owner := storagetest.NewOrg(t, d.Store, "owner@events.test")
		ctx := d.as(owner.ID, "tok")
		before := len(allEvents(t, d.Store))
		title := "Handbook"
		sp, err := d.CreateSpace(ctx, org.ID, model.CreateSpaceInput{Title: &title})
		if err != nil {
			t.Fatal(err)
		}
		renamed := "Guide"
		if _, err := d.UpdateSpace(ctx, sp.ID, model.UpdateSpaceInput{Title: opt.Of(&renamed)}); err != nil {
			t.Fatal(err)
		}
		md := "Looks good"
		c, err := d.PostComment(ctx, sp.ID, "", model.PostCommentInput{Body: &model.CommentBody{Markdown: &md}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.InviteUsers(ctx, org.ID, model.InviteUsersInput{Emails: []*model.InviteEmail{{Email: "new@events.test"}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := d.DeleteSpace(ctx, sp.ID); err != nil {
			t.Fatal(err)
		}
		evs := allEvents(t, d.Store)[before:]
		want := []string{EventSpaceCreated, EventSpaceUpdated, EventCommentCreated, EventMemberInvited, EventSpaceDeleted}
		if got := eventTypes(evs); !equalStrings(got, want) {
			t.Fatalf("events = %v, want %v", got, want)
		}
		for i, ev := range evs {
			if ev.OrganizationID != org.ID || ev.ActorType != "user" || ev.ActorID != owner.ID || ev.TokenID != "tok" || ev.Source != "api" {
				t.Errorf("event %d (%s) = org %q actor %s/%q token %q source %q", i, ev.Type, ev.OrganizationID, ev.ActorType, ev.ActorID, ev.TokenID, ev.Source)
			}
			if !json.Valid([]byte(ev.Payload)) || ev.ID == "" || !ev.CreatedAt.Equal(d.now) {
				t.Errorf("event %d: payload %q id %q at %v", i, ev.Payload, ev.ID, ev.CreatedAt)
			}
			if i > 0 && ev.Seq <= evs[i-1].Seq {
				t.Errorf("seq %d after %d", ev.Seq, evs[i-1].Seq)
			}
		}
		if evs[0].SpaceID != sp.ID || evs[0].TargetID != sp.ID || evs[0].TargetLabel != "Handbook" {
			t.Errorf("space_created = space %q target %q %q", evs[0].SpaceID, evs[0].TargetID, evs[0].TargetLabel)
		}
		if evs[2].SpaceID != sp.ID || evs[2].CommentID != c.ID {
			t.Errorf("comment_created = space %q comment %q, want %q %q", evs[2].SpaceID, evs[2].CommentID, sp.ID, c.ID)
		}
	})
}

// A content edit writes space_content_updated with the revision it made.
func TestContentUpdateNamesItsRevision(t *testing.T) {
	eachDB(t, func(t *testing.T, d *harness) {
		org, owner := storagetest.NewOrg(t, d.Store, "owner@content-events.test")
		ctx := d.as(owner.ID, "session:s1") // a browser session: the app
		sp, err := d.CreateSpace(ctx, org.ID, model.CreateSpaceInput{})
		if err != nil {
			t.Fatal(err)
		}
		title := "Intro"
		page, err := d.CreatePage(ctx, model.ContentTarget{SpaceID: sp.ID}, model.CreatePageInput{Title: title})
		if err != nil {
			t.Fatal(err)
		}
		_ = page
		evs := allEvents(t, d.Store)
		last := evs[len(evs)-1]
		if last.Type != EventSpaceContentUpdated || last.SpaceID != sp.ID || last.RevisionID == "" || last.Source != "ui" || last.TokenID != "" {
			t.Fatalf("last event = %+v, want space_content_updated with a revision", last)
		}
		now, err := d.SpaceByID(ctx, sp.ID)
		if err != nil {
			t.Fatal(err)
		}
		if now.Revision != last.RevisionID {
			t.Errorf("event revision %q, space revision %q", last.RevisionID, now.Revision)
		}
	})
}

// A change that rolls back writes no event.
func TestRolledBackChangeWritesNoEvent(t *testing.T) {
	eachDB(t, func(t *testing.T, d *harness) {
		org, owner := storagetest.NewOrg(t, d.Store, "owner@rollback.test")
		ctx := d.as(owner.ID, "")
		before := len(allEvents(t, d.Store))
		// The only admin may neither leave nor lose the role: the check runs in the write's
		// transaction, which rolls back.
		if _, err := d.RemoveMember(ctx, org.ID, owner.ID); err == nil {
			t.Fatal("the last admin left")
		}
		guest := (*model.MemberRole)(nil)
		if _, err := d.UpdateMember(ctx, org.ID, owner.ID, model.UpdateMemberInput{Role: opt.Of(guest)}); err == nil {
			t.Fatal("the last admin became a guest")
		}
		// A storage write that fails (a taken id) takes its event with it.
		sp := &storage.Space{ID: "dup-space", OrganizationID: org.ID, Title: "x", EditMode: "live", MergeRules: `{"type":"inherit"}`, CreatedAt: d.now, UpdatedAt: d.now}
		if err := d.Store.CreateSpace(context.Background(), sp, ""); err != nil {
			t.Fatal(err)
		}
		again := *sp
		err := d.Store.CreateSpace(storage.WithEvent(context.Background(), &storage.Event{Type: EventSpaceCreated, OrganizationID: org.ID, TargetType: "space", TargetID: "dup-space"}), &again, "")
		if !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("second insert = %v, want a conflict", err)
		}
		// Writes that change nothing (removing who is not a member, deleting what is not there)
		// have no event either.
		stranger, err := d.Store.CreateUser(context.Background(), storage.NewUser{DisplayName: "S", Email: "stranger@rollback.test"}, d.now)
		if err != nil {
			t.Fatal(err)
		}
		if removed, err := d.RemoveMember(ctx, org.ID, stranger.ID); err != nil || removed {
			t.Fatalf("RemoveMember(non-member) = %v, %v", removed, err)
		}
		if deleted, err := d.DeleteSite(ctx, org.ID, "no-such-site"); err != nil || deleted {
			t.Fatalf("DeleteSite(missing) = %v, %v", deleted, err)
		}
		if deleted, err := d.DeleteSpace(ctx, "no-such-space"); err != nil || deleted {
			t.Fatalf("DeleteSpace(missing) = %v, %v", deleted, err)
		}
		if after := allEvents(t, d.Store); len(after) != before {
			t.Fatalf("events after rolled-back changes: %v", eventTypes(after[before:]))
		}
	})
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
