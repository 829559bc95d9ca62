package account_test

import (
	"context"
	"testing"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/storage"
)

// A sign-in is an event of every organization the person belongs to (their audit logs), and of
// none when they belong to none; a failed sign-in writes nothing.
func TestSignInIsAnEventOfEachOrganization(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		c := account.Client{Address: "192.0.2.1", UserAgent: "test"}
		if _, err := f.svc.SignIn(ctx, "ada@example.com", goodPassword, c); err != nil {
			t.Fatal(err)
		}
		if evs, _ := f.store.EventsAfter(ctx, 0, 100); len(evs) != 0 {
			t.Fatalf("events of a person in no organization: %d", len(evs))
		}
		var orgs []string
		for _, title := range []string{"One", "Two"} {
			org := &storage.Organization{Title: title, Type: "business", Plan: "enterprise_2024", MergeRules: `{"type":"none"}`, CreatedAt: f.now, UpdatedAt: f.now}
			owner, _, err := f.store.Bootstrap(ctx, org, storage.NewUser{DisplayName: "Owner", Email: title + "@owner.test"}, f.now)
			if err != nil || owner == nil {
				t.Fatal(err)
			}
			if _, err := f.store.AddMember(ctx, org.ID, f.user.ID, nil, f.now); err != nil {
				t.Fatal(err)
			}
			orgs = append(orgs, org.ID)
		}
		if _, err := f.svc.SignIn(ctx, "ada@example.com", "not the password at all", c); err == nil {
			t.Fatal("a wrong password signed in")
		}
		if _, err := f.svc.SignIn(ctx, "ada@example.com", goodPassword, c); err != nil {
			t.Fatal(err)
		}
		evs, err := f.store.EventsAfter(ctx, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, ev := range evs {
			if ev.Type != "user_signed_in" || ev.ActorID != f.user.ID || ev.SubjectUserID != f.user.ID || ev.Payload != `{"method":"password"}` {
				t.Errorf("event = %+v", ev)
			}
			got[ev.OrganizationID] = true
		}
		if len(evs) != 2 || !got[orgs[0]] || !got[orgs[1]] {
			t.Errorf("sign-in events in %v, want one in each of %v", got, orgs)
		}
	})
}
