package storage_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

var t0 = storagetest.T0

func TestMigrationsApplyOnBothDialects(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		pending, err := s.PendingMigrations(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(pending) != 0 {
			t.Errorf("pending migrations after Migrate: %v", pending)
		}
		// Migrating again is a no-op.
		if err := s.Migrate(context.Background()); err != nil {
			t.Fatalf("second Migrate: %v", err)
		}
	})
}

func newOrg(t *testing.T, s *storage.Store, ownerEmail string) (*storage.Organization, *storage.User) {
	t.Helper()
	return storagetest.NewOrg(t, s, ownerEmail)
}

func TestTokensAuthenticateUntilExpiry(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		_, u := newOrg(t, s, "Owner@Example.com")
		exp := t0.Add(time.Hour)
		token, err := s.CreateToken(ctx, u.ID, t0, &exp)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.FindUserByToken(ctx, token, t0.Add(time.Minute))
		if err != nil || got.ID != u.ID {
			t.Fatalf("FindUserByToken = %v, %v; want user %s", got, err, u.ID)
		}
		if got.Email != "owner@example.com" {
			t.Errorf("Email = %q, want it lower-cased", got.Email)
		}
		if _, err := s.FindUserByToken(ctx, token, t0.Add(2*time.Hour)); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("expired token: err = %v, want ErrNotFound", err)
		}
		if _, err := s.FindUserByToken(ctx, token+"x", t0); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("unknown token: err = %v, want ErrNotFound", err)
		}
	})
}

func TestMembersPaginateWithStableCursorsAndFixedStatements(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, _ := newOrg(t, s, "owner@example.com")
		read := "read"
		for i := range 25 {
			u, err := s.CreateUser(ctx, storage.NewUser{DisplayName: fmt.Sprintf("User %02d", i), Email: fmt.Sprintf("u%02d@example.com", i)}, t0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.AddMember(ctx, org.ID, u.ID, &read, t0.Add(time.Duration(i+1)*time.Second)); err != nil {
				t.Fatal(err)
			}
		}
		var seen []string
		page := storage.Window{Limit: 10}
		for {
			var n atomic.Int64
			list, err := s.FindMembers(storage.WithQueryCounter(ctx, &n), org.ID, storage.MemberFilter{}, page)
			if err != nil {
				t.Fatal(err)
			}
			if n.Load() != 2 {
				t.Errorf("statements per page = %d, want 2", n.Load())
			}
			if list.Total != 26 {
				t.Errorf("Total = %d, want 26", list.Total)
			}
			for _, m := range list.Items {
				if m.User == nil {
					t.Fatalf("member %s has no user loaded", m.UserID)
				}
				seen = append(seen, m.User.DisplayName)
			}
			if !list.HasMore {
				break
			}
			page.After = list.Cursors[len(list.Cursors)-1]
		}
		if len(seen) != 26 || seen[0] != "User 24" || seen[25] != "Owner" {
			t.Errorf("joinedAt desc order = %v", seen)
		}
		guest := "guest"
		list, err := s.FindMembers(ctx, org.ID, storage.MemberFilter{Role: &guest}, storage.Window{Limit: 10})
		if err != nil || list.Total != 0 {
			t.Errorf("guest filter = %d, %v; want 0", list.Total, err)
		}
		found, err := s.FindMembers(ctx, org.ID, storage.MemberFilter{Search: "USER 1"}, storage.Window{Limit: 100})
		if err != nil || found.Total != 10 {
			t.Errorf("search 'USER 1' = %d, %v; want 10", found.Total, err)
		}
		if _, err := s.FindMembers(ctx, org.ID, storage.MemberFilter{Ascending: true}, storage.Window{Limit: 1, After: page.After}); !errors.Is(err, storage.ErrInvalidCursor) {
			t.Errorf("cursor of another order: err = %v, want ErrInvalidCursor", err)
		}
	})
}

func TestLastAdminCannotLeaveOrBeDemoted(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org, owner := newOrg(t, s, "owner@example.com")
		if err := s.SetMemberRole(ctx, org.ID, owner.ID, nil); !errors.Is(err, storage.ErrLastAdmin) {
			t.Errorf("demote last admin: err = %v, want ErrLastAdmin", err)
		}
		if _, err := s.RemoveMember(ctx, org.ID, owner.ID); !errors.Is(err, storage.ErrLastAdmin) {
			t.Errorf("remove last admin: err = %v, want ErrLastAdmin", err)
		}
		added, err := s.InviteUsers(ctx, org.ID, []storage.Invitation{{Email: "second@example.com", Role: ptr("admin")}, {Email: "Owner@example.com"}}, false, t0, nil)
		if err != nil || len(added) != 1 || added[0] == owner.ID {
			t.Fatalf("InviteUsers = %v, %v; want only the new address added", added, err)
		}
		if err := s.SetMemberRole(ctx, org.ID, owner.ID, ptr("read")); err != nil {
			t.Errorf("demote with another admin present: %v", err)
		}
		m, err := s.FindMembership(ctx, org.ID, owner.ID)
		if err != nil || m.Role == nil || *m.Role != "read" {
			t.Errorf("role after demotion = %v, %v", m, err)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// The viewer's membership of one organization is scanned by hand (a prepared statement); of
// several, by Bun. Both must give the same member, user and organization, every field set.
func TestMembershipScannedByHandMatchesBun(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		org := &storage.Organization{Title: "Acme", Type: "business", Plan: "enterprise_2024", MergeRules: `{"type":"none"}`,
			UseCase: ptr("internal_docs"), CommunityType: ptr("developer"), Hostname: ptr("docs.acme.test"),
			EmailDomains: []string{"acme.test", "acme.example"}, DefaultRole: ptr("read"), DefaultContentSite: ptr("site_1"),
			LogoURL: ptr("https://acme.test/logo.png"), SSO: true, AI: true, InviteLinks: true, CreatedAt: t0, UpdatedAt: t0.Add(time.Hour)}
		u, _, err := s.Bootstrap(ctx, org, storage.NewUser{DisplayName: "Owner", Email: "owner@acme.test", EmailVerified: true}, t0)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.TouchMember(ctx, org.ID, u.ID, t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		byHand, err := s.MembershipsIn(ctx, u.ID, []string{org.ID})
		if err != nil {
			t.Fatal(err)
		}
		byBun, err := s.MembershipsIn(ctx, u.ID, []string{org.ID, "org_none"})
		if err != nil {
			t.Fatal(err)
		}
		m := byHand[org.ID]
		if m == nil || len(byHand) != 1 || len(byBun) != 1 {
			t.Fatalf("memberships: by hand %v, by Bun %v", byHand, byBun)
		}
		if m.LastSeenAt == nil || m.Role == nil || m.User != nil || m.UserID != u.ID || len(m.Organization.EmailDomains) != 2 || !m.Organization.AI {
			t.Fatalf("membership read by hand lacks fields (or has a user): %+v %+v", m, m.Organization)
		}
		if !reflect.DeepEqual(m, byBun[org.ID]) {
			t.Errorf("by hand %+v %+v\nby Bun  %+v %+v", m, m.Organization, byBun[org.ID], byBun[org.ID].Organization)
		}
	})
}
