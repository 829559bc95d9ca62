package rest_test

import (
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The permission engine (domain/authz/access.go, docs/permissions.md) seen from outside: every
// expectation is checked through REST GET /spaces/{id} (or /collections/{id}) and GraphQL
// space(id) (or collection(id)), permissions objects and 404s.

func TestAccessFollowsOrganizationRolesAndDefaultLevels(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		editor := e.member(o.id, "editor@acme.test", "edit")
		guest := e.member(o.id, "guest@acme.test", "guest")
		outsider := e.member("", "out@else.test", "")
		open := o.space("", "Open")
		closed := o.space("", "Closed")
		o.level("/spaces/"+closed, "null")
		commented := o.space("", "Commented")
		o.level("/spaces/"+commented, `"comment"`)
		admined := o.space("", "Admined")
		o.level("/spaces/"+admined, `"admin"`)

		for _, tt := range []struct {
			name  string
			who   account
			space string
			role  string
		}{
			{"admins see everything", o.admin, open, "admin"},
			{"admins see closed spaces", o.admin, closed, "admin"},
			{"admins stay admins under a lower default level", o.admin, commented, "admin"},
			{"a reader reads a root space that inherits", reader, open, "read"},
			{"an editor edits a root space that inherits", editor, open, "edit"},
			{"guests do not see what members see", guest, open, ""},
			{"outsiders see nothing", outsider, open, ""},
			{"a closed space is invisible to readers", reader, closed, ""},
			{"a closed space is invisible to editors", editor, closed, ""},
			{"a default level above the role raises it", reader, commented, "comment"},
			{"a default level below the role lowers it", editor, commented, "comment"},
			{"an admin default level makes every member an admin", reader, admined, "admin"},
			{"guests ignore default levels", guest, commented, ""},
		} {
			o.wantSpaceRole(t, tt.who, tt.name, tt.space, tt.role)
		}

		// A user grant opens a closed space to that user only.
		o.grantUsers("/spaces/"+closed, "review", reader)
		o.wantSpaceRole(t, reader, "a grant opens a closed space", closed, "review")
		o.wantSpaceRole(t, editor, "another member still does not see it", closed, "")
		// An organization admin's own lower grant changes nothing.
		o.grantUsers("/spaces/"+open, "read", o.admin)
		o.wantSpaceRole(t, o.admin, "an admin with a read grant", open, "admin")

		// The organization role is read at every request: a promotion shows at once.
		e.call(o.admin.Token, "PATCH", "/orgs/"+o.id+"/members/"+editor.ID, `{"role":"admin"}`).want(http.StatusOK)
		o.wantSpaceRole(t, editor, "promoted to organization admin", closed, "admin")
		e.call(o.admin.Token, "PATCH", "/orgs/"+o.id+"/members/"+editor.ID, `{"role":null}`).want(http.StatusOK)
		o.wantSpaceRole(t, editor, "demoted to guest", open, "")

		// Leaving the organization drops the member's grants: joining again does not bring them back.
		e.call(reader.Token, "DELETE", "/orgs/"+o.id+"/members/"+reader.ID, nil).want(http.StatusNoContent)
		o.wantSpaceRole(t, reader, "after leaving", closed, "")
		role := "read"
		if _, err := e.store.AddMember(t.Context(), o.id, reader.ID, &role, e.res.Now()); err != nil {
			t.Fatal(err)
		}
		o.wantSpaceRole(t, reader, "back in the organization", open, "read")
		o.wantSpaceRole(t, reader, "back in the organization, the old grant is gone", closed, "")
	})
}

func TestDirectGrantsBeatOrganizationRolesAndTeams(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		editor := e.member(o.id, "editor@acme.test", "edit")
		reviewers := o.team("Reviewers", reader, editor)
		editors := o.team("Editors", reader)

		// A direct grant wins over the organization role, even when it is lower.
		lowered := o.space("", "Lowered")
		o.grantUsers("/spaces/"+lowered, "read", editor)
		o.wantSpaceRole(t, editor, "org role edit, user grant read", lowered, "read")
		raised := o.space("", "Raised")
		o.grantUsers("/spaces/"+raised, "admin", reader)
		o.wantSpaceRole(t, reader, "org role read, user grant admin", raised, "admin")

		// The highest of the user's team grants applies, and beats the organization role either way.
		teams := o.space("", "Teams")
		o.grantTeams("/spaces/"+teams, "review", reviewers)
		o.grantTeams("/spaces/"+teams, "edit", editors)
		o.wantSpaceRole(t, reader, "teams review and edit", teams, "edit")
		o.wantSpaceRole(t, editor, "org role edit, team grant review", teams, "review")

		// A direct grant beats the team grants, even a higher one.
		o.grantUsers("/spaces/"+teams, "comment", reader)
		o.wantSpaceRole(t, reader, "user grant comment, team grant edit", teams, "comment")
		// and removing it brings the team grant back.
		e.call(o.admin.Token, "DELETE", "/spaces/"+teams+"/permissions/users/"+reader.ID, nil).want(http.StatusNoContent)
		o.wantSpaceRole(t, reader, "user grant removed", teams, "edit")
		// Leaving a team drops what it gave.
		e.call(reader.Token, "DELETE", "/orgs/"+o.id+"/teams/"+editors+"/members/"+reader.ID, nil).want(http.StatusNoContent)
		o.wantSpaceRole(t, reader, "after leaving Editors", teams, "review")
		// A team grant on a closed space opens it to the team's members.
		closed := o.space("", "Closed")
		o.level("/spaces/"+closed, "null")
		o.grantTeams("/spaces/"+closed, "read", reviewers)
		o.wantSpaceRole(t, editor, "closed space, team grant read", closed, "read")
		// Deleting the team takes its grants with it.
		e.call(o.admin.Token, "DELETE", "/orgs/"+o.id+"/teams/"+reviewers, nil).want(http.StatusNoContent)
		o.wantSpaceRole(t, editor, "team deleted", closed, "")
		o.wantSpaceRole(t, editor, "team deleted, back to the organization role", teams, "edit")
		wantGrants(t, e, o.admin.Token, "/spaces/"+teams, "after deleting a team", nil, map[string]string{editors: "edit"})
	})
}

func TestCollectionAccessFlowsDownToSpaces(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		editor := e.member(o.id, "editor@acme.test", "edit")
		outer := o.collection("", "Outer")
		o.level("/collections/"+outer, `"edit"`)
		inner := o.collection(outer, "Inner")
		deep := o.space(inner, "Deep")
		reviewed := o.collection(outer, "Reviewed")
		o.level("/collections/"+reviewed, `"review"`)
		nearest := o.space(reviewed, "Nearest")
		own := o.space(inner, "Own level")
		o.level("/spaces/"+own, `"read"`)

		// Default levels flow down through two levels of collections; the nearest one decides,
		// and a space's own level overrides its collections, downwards too.
		o.wantSpaceRole(t, reader, "outer edit → inner inherit → space inherit", deep, "edit")
		o.wantCollectionRole(t, reader, "outer edit → inner inherit", inner, "edit")
		o.wantSpaceRole(t, reader, "outer edit, nearest collection review", nearest, "review")
		o.wantSpaceRole(t, editor, "the nearest collection lowers an editor too", nearest, "review")
		o.wantSpaceRole(t, reader, "the space's own level (read) under an edit collection", own, "read")
		o.wantSpaceRole(t, editor, "the space's own level lowers an editor", own, "read")

		// Grants on a collection flow down the same way.
		writers := o.team("Writers", reader)
		o.grantTeams("/collections/"+outer, "create", writers)
		o.wantCollectionRole(t, reader, "team grant create on the outer collection", outer, "create")
		o.wantCollectionRole(t, reader, "… reaches the inner collection", inner, "create")
		o.wantSpaceRole(t, reader, "… and its space, two levels down", deep, "create")
		o.wantSpaceRole(t, reader, "… but not past a nearer default level", nearest, "review")
		o.wantSpaceRole(t, reader, "… nor past the space's own level", own, "read")
		o.wantSpaceRole(t, editor, "… and not to someone outside the team", deep, "edit")
		o.grantUsers("/collections/"+inner, "comment", reader)
		o.wantSpaceRole(t, reader, "a user grant on the inner collection is nearer than the team grant", deep, "comment")

		// A closed collection closes what inherits from it, unless a grant opens it.
		closed := o.collection("", "Closed")
		o.level("/collections/"+closed, "null")
		sub := o.collection(closed, "Sub")
		hidden := o.space(sub, "Hidden")
		o.wantSpaceRole(t, reader, "space under a closed collection", hidden, "")
		o.wantCollectionRole(t, reader, "closed collection", closed, "")
		o.wantCollectionRole(t, reader, "collection under a closed one", sub, "")
		o.grantUsers("/collections/"+closed, "read", reader)
		o.wantCollectionRole(t, reader, "closed collection with a grant", closed, "read")
		o.wantSpaceRole(t, reader, "space two levels under a granted closed collection", hidden, "read")
		o.wantSpaceRole(t, editor, "the grant is the reader's only", hidden, "")
		// An organization admin sees it all.
		o.wantSpaceRole(t, o.admin, "admin, space under a closed collection", hidden, "admin")
		o.wantCollectionRole(t, o.admin, "admin, closed collection", closed, "admin")
	})
}

func TestGuestsSeeOnlyWhatIsGrantedToThem(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		guest := e.member(o.id, "guest@acme.test", "guest")
		open := o.space("", "Open")
		col := o.collection("", "Col")
		inCol := o.space(col, "In col")
		leveled := o.space(col, "Leveled")
		o.level("/spaces/"+leveled, `"edit"`)
		outer := o.collection("", "Outer")
		closedInner := o.collection(outer, "Closed inner")
		o.level("/collections/"+closedInner, "null")
		behindClosed := o.space(closedInner, "Behind closed")
		o.space("", "Never")

		titles := func() string {
			t.Helper()
			pages, _ := o.listSpaces(guest.Token, "/orgs/"+o.id+"/spaces", 0)
			return strings.Join(pages, "|")
		}
		for _, id := range []string{open, inCol, leveled, behindClosed} {
			o.wantSpaceRole(t, guest, "guest without grants", id, "")
		}
		o.wantCollectionRole(t, guest, "guest without grants", col, "")
		if got := titles(); got != "" {
			t.Errorf("a guest without grants lists %q", got)
		}

		// Granted to them directly.
		o.grantUsers("/spaces/"+open, "comment", guest)
		o.wantSpaceRole(t, guest, "user grant on a root space", open, "comment")
		// Granted to their team, on a collection: its spaces follow, whatever their own level
		// (guests skip default levels).
		visitors := o.team("Visitors", guest)
		o.grantTeams("/collections/"+col, "read", visitors)
		o.wantCollectionRole(t, guest, "team grant on a collection", col, "read")
		o.wantSpaceRole(t, guest, "space that inherits from a collection granted to their team", inCol, "read")
		o.wantSpaceRole(t, guest, "space with its own level in that collection", leveled, "read")
		// A closed collection on the way does not hide a grant above it.
		o.grantUsers("/collections/"+outer, "edit", guest)
		o.wantSpaceRole(t, guest, "grant above a closed collection", behindClosed, "edit")
		if got := titles(); got != "Behind closed,Leveled,In col,Open" {
			t.Errorf("the guest lists %q, want their granted spaces", got)
		}

		// A guest with create on a collection creates in it, and administers what they create.
		o.grantUsers("/collections/"+col, "create", guest)
		mine := o.newSpace(guest.Token, map[string]any{"title": "Guest made", "parent": col})["id"].(string)
		o.wantSpaceRole(t, guest, "space the guest created", mine, "admin")
		e.call(guest.Token, "POST", "/orgs/"+o.id+"/spaces", `{"title":"At the root"}`).wantError(http.StatusForbidden)
		e.call(o.admin.Token, "DELETE", "/collections/"+col+"/permissions/users/"+guest.ID, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", "/spaces/"+mine, nil).want(http.StatusNoContent)

		// Taking the grants away hides the content again.
		e.call(o.admin.Token, "DELETE", "/collections/"+col+"/permissions/teams/"+visitors, nil).want(http.StatusNoContent)
		o.wantSpaceRole(t, guest, "team grant removed", inCol, "")
		e.call(o.admin.Token, "PATCH", "/spaces/"+open+"/permissions/users/"+guest.ID, `{"role":null}`).want(http.StatusNoContent)
		o.wantSpaceRole(t, guest, "user grant removed", open, "")
		if got := titles(); got != "Behind closed" {
			t.Errorf("after removals the guest lists %q", got)
		}
	})
}

// grantList is a REST list of user or team permissions, as "id:permission" sorted.
func grantList(t *testing.T, e *env, token, path string) (entries string, count int) {
	t.Helper()
	var l struct {
		Items []struct {
			Permission string
			User       *struct{ ID, Object string }
			Team       *struct{ ID, Object, Title string }
		}
		Count int
	}
	e.call(token, "GET", path, nil).want(http.StatusOK).decode(&l)
	var out []string
	for _, it := range l.Items {
		switch {
		case it.User != nil:
			out = append(out, it.User.ID+":"+it.Permission)
		case it.Team != nil:
			out = append(out, it.Team.ID+":"+it.Permission)
		}
	}
	sort.Strings(out)
	return strings.Join(out, ","), l.Count
}

// wantGrants fails unless the users and teams with a role on content are exactly those.
func wantGrants(t *testing.T, e *env, token, path, what string, users, teams map[string]string) {
	t.Helper()
	for kind, want := range map[string]map[string]string{"users": users, "teams": teams} {
		var entries []string
		for id, role := range want {
			entries = append(entries, id+":"+role)
		}
		sort.Strings(entries)
		got, count := grantList(t, e, token, path+"/permissions/"+kind)
		if got != strings.Join(entries, ",") || count != len(want) {
			t.Errorf("%s: %s permissions = %q (count %d), want %q", what, kind, got, count, strings.Join(entries, ","))
		}
	}
}

func TestSpacePermissionGrants(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		u1 := e.member(o.id, "u1@acme.test", "read")
		u2 := e.member(o.id, "u2@acme.test", "read")
		editor := e.member(o.id, "editor@acme.test", "edit")
		guest := e.member(o.id, "guest@acme.test", "guest")
		outsider := e.member("", "out@else.test", "")
		otherID, otherAdmin := e.org("Other", "admin@other.test")
		stranger := e.member(otherID, "stranger@other.test", "read")
		t1 := o.team("T1", u1)
		t2 := o.team("T2")
		theirTeam := e.call(otherAdmin.Token, "PUT", "/orgs/"+otherID+"/teams", `{"title":"Theirs"}`).want(http.StatusCreated).object()["id"].(string)
		s := o.space("", "Shared")
		p := "/spaces/" + s

		e.call(o.admin.Token, "POST", p+"/permissions", map[string]any{"role": "edit", "users": []string{u1.ID, u2.ID}, "teams": []string{t1}}).want(http.StatusNoContent)
		wantGrants(t, e, o.admin.Token, p, "after POST", map[string]string{u1.ID: "edit", u2.ID: "edit"}, map[string]string{t1: "edit"})
		o.wantSpaceRole(t, u2, "granted edit", s, "edit")
		// The items are the contract's {permission, user} and {permission, team}.
		var teams struct {
			Items []struct {
				Permission string
				Team       struct {
					Object, ID, Title string
					Members, Spaces   int
				}
			}
		}
		e.call(u1.Token, "GET", p+"/permissions/teams", nil).want(http.StatusOK).decode(&teams)
		if len(teams.Items) != 1 || teams.Items[0].Team.Object != "team" || teams.Items[0].Team.Title != "T1" || teams.Items[0].Team.Members != 2 || teams.Items[0].Team.Spaces != 1 {
			t.Errorf("team permissions = %+v, want T1 (2 members: the admin who made it and u1; 1 space)", teams.Items)
		}
		var users struct {
			Items []struct {
				Permission string
				User       struct{ Object, ID, DisplayName string }
			}
		}
		e.call(u1.Token, "GET", p+"/permissions/users", nil).want(http.StatusOK).decode(&users)
		for _, it := range users.Items {
			if it.User.Object != "user" || it.User.DisplayName == "" || it.Permission != "edit" {
				t.Errorf("user permission item = %+v", it)
			}
		}

		// The lists page, oldest grant first.
		var page1, page2 struct {
			Items []struct{ User struct{ ID string } }
			Count int
			Next  *struct{ Page string }
		}
		e.call(u1.Token, "GET", p+"/permissions/users?limit=1", nil).want(http.StatusOK).decode(&page1)
		if page1.Count != 2 || len(page1.Items) != 1 || page1.Next == nil {
			t.Fatalf("first page of user permissions = %+v", page1)
		}
		e.call(u1.Token, "GET", p+"/permissions/users?limit=1&page="+page1.Next.Page, nil).want(http.StatusOK).decode(&page2)
		if len(page2.Items) != 1 || page2.Next != nil || page2.Items[0].User.ID == page1.Items[0].User.ID {
			t.Errorf("second page of user permissions = %+v after %+v", page2, page1)
		}

		// PATCH sets a user's role; null removes it.
		e.call(o.admin.Token, "PATCH", p+"/permissions/users/"+u1.ID, `{"role":"admin"}`).want(http.StatusNoContent)
		o.wantSpaceRole(t, u1, "PATCH admin", s, "admin")
		e.call(o.admin.Token, "PATCH", p+"/permissions/users/"+u1.ID, `{"role":null}`).want(http.StatusNoContent)
		o.wantSpaceRole(t, u1, "PATCH null: the team grant applies again", s, "edit")
		// PATCH of a member without a grant gives one.
		e.call(o.admin.Token, "PATCH", p+"/permissions/users/"+editor.ID, `{"role":"comment"}`).want(http.StatusNoContent)
		// DELETE removes, and answers 204 again when there is nothing to remove.
		e.call(o.admin.Token, "DELETE", p+"/permissions/users/"+u2.ID, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", p+"/permissions/users/"+u2.ID, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", p+"/permissions/users/nobody", nil).want(http.StatusNoContent)
		o.wantSpaceRole(t, u2, "grant deleted", s, "read")
		wantGrants(t, e, o.admin.Token, p, "after PATCH and DELETE", map[string]string{editor.ID: "comment"}, map[string]string{t1: "edit"})

		// Teams: PATCH sets or adds; DELETE of a team without access is a 400.
		e.call(o.admin.Token, "PATCH", p+"/permissions/teams/"+t1, `{"role":"comment"}`).want(http.StatusNoContent)
		e.call(o.admin.Token, "PATCH", p+"/permissions/teams/"+t2, `{"role":"read"}`).want(http.StatusNoContent)
		wantGrants(t, e, o.admin.Token, p, "after team PATCHes", map[string]string{editor.ID: "comment"}, map[string]string{t1: "comment", t2: "read"})
		e.call(o.admin.Token, "PATCH", p+"/permissions/teams/"+t2, `{"role":null}`).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", p+"/permissions/teams/"+t1, nil).want(http.StatusNoContent)
		for _, team := range []string{t1, t2, "nope"} {
			if msg := e.call(o.admin.Token, "DELETE", p+"/permissions/teams/"+team, nil).wantError(http.StatusBadRequest); !strings.Contains(msg, "access") {
				t.Errorf("DELETE of a team without access: message %q", msg)
			}
		}
		wantGrants(t, e, o.admin.Token, p, "after team removals", map[string]string{editor.ID: "comment"}, nil)

		// Unknown users and teams: 404, and nothing changes, not even for the known ones sent along.
		for _, tt := range []struct{ name, method, path, body string }{
			{"PATCH unknown team", "PATCH", p + "/permissions/teams/nope", `{"role":"read"}`},
			{"PATCH another organization's team", "PATCH", p + "/permissions/teams/" + theirTeam, `{"role":"read"}`},
			{"PATCH unknown user", "PATCH", p + "/permissions/users/nobody", `{"role":"read"}`},
			{"PATCH a user of another organization", "PATCH", p + "/permissions/users/" + stranger.ID, `{"role":"read"}`},
			{"PATCH a user outside any organization", "PATCH", p + "/permissions/users/" + outsider.ID, `{"role":"read"}`},
			{"POST unknown user", "POST", p + "/permissions", `{"role":"read","users":["` + u2.ID + `","nobody"]}`},
			{"POST unknown team", "POST", p + "/permissions", `{"role":"read","users":["` + u2.ID + `"],"teams":["nope"]}`},
			{"POST another organization's team", "POST", p + "/permissions", `{"role":"read","teams":["` + theirTeam + `"]}`},
			{"POST a user of another organization", "POST", p + "/permissions", `{"role":"read","users":["` + stranger.ID + `"]}`},
		} {
			e.call(o.admin.Token, tt.method, tt.path, tt.body).wantError(http.StatusNotFound)
		}
		wantGrants(t, e, o.admin.Token, p, "after unknown principals", map[string]string{editor.ID: "comment"}, nil)

		// Bad bodies: 400 naming the field, nothing changed.
		e.wantBadBodies(o.admin.Token, "POST", p+"/permissions",
			badBody{"POST without role", `{"users":["` + u2.ID + `"]}`, "role"},
			badBody{"POST unknown role", `{"role":"owner","users":["` + u2.ID + `"]}`, "role"},
			badBody{"POST nobody", `{"role":"read"}`, "users"},
			badBody{"POST empty lists", `{"role":"read","users":[],"teams":[]}`, "users"},
			badBody{"POST users not a list", `{"role":"read","users":"` + u2.ID + `"}`, "users"},
			badBody{"POST no body", nil, "body"},
		)
		e.wantBadBodies(o.admin.Token, "PATCH", p+"/permissions/users/"+u2.ID,
			badBody{"PATCH unknown role", `{"role":"owner"}`, "role"},
			badBody{"PATCH malformed", `{"role"`, "body"},
		)
		e.wantBadBodies(o.admin.Token, "PATCH", p+"/permissions/teams/"+t1, badBody{"PATCH role not a string", `{"role":1}`, "role"})
		wantGrants(t, e, o.admin.Token, p, "after bad bodies", map[string]string{editor.ID: "comment"}, nil)

		// A PATCH without a role changes nothing (absent fields stay as they are).
		e.call(o.admin.Token, "PATCH", p+"/permissions/users/"+editor.ID, `{}`).want(http.StatusNoContent)
		wantGrants(t, e, o.admin.Token, p, "after an empty PATCH", map[string]string{editor.ID: "comment"}, nil)
		e.call(o.admin.Token, "PATCH", p+"/permissions/users/"+editor.ID, `{"role":"comment"}`).want(http.StatusNoContent)

		// role null in a POST takes access away.
		o.grantUsers(p, "review", u2)
		o.grantTeams(p, "review", t2)
		wantGrants(t, e, o.admin.Token, p, "before a POST with role null", map[string]string{editor.ID: "comment", u2.ID: "review"}, map[string]string{t2: "review"})
		e.call(o.admin.Token, "POST", p+"/permissions", map[string]any{"role": nil, "users": []string{u2.ID}, "teams": []string{t2}}).want(http.StatusNoContent)
		wantGrants(t, e, o.admin.Token, p, "after a POST with role null", map[string]string{editor.ID: "comment"}, nil)

		// Only the space's admins grant: others who see the space get 403; others 404.
		for _, tt := range []struct{ method, path, body string }{
			{"POST", p + "/permissions", `{"role":"admin","users":["` + editor.ID + `"]}`},
			{"PATCH", p + "/permissions/users/" + editor.ID, `{"role":"admin"}`},
			{"DELETE", p + "/permissions/users/" + editor.ID, ``},
			{"PATCH", p + "/permissions/teams/" + t1, `{"role":"admin"}`},
			{"DELETE", p + "/permissions/teams/" + t1, ``},
		} {
			var body any = tt.body
			if tt.body == "" {
				body = nil
			}
			e.call(editor.Token, tt.method, tt.path, body).wantError(http.StatusForbidden)
			e.call(u1.Token, tt.method, tt.path, body).wantError(http.StatusForbidden)
			e.call(outsider.Token, tt.method, tt.path, body).wantError(http.StatusNotFound)
			e.call(otherAdmin.Token, tt.method, tt.path, body).wantError(http.StatusNotFound)
			e.call(guest.Token, tt.method, tt.path, body).wantError(http.StatusNotFound)
		}
		wantGrants(t, e, o.admin.Token, p, "after refused changes", map[string]string{editor.ID: "comment"}, nil)
		// Readers of the space read its lists; others do not see them.
		for _, list := range []string{"/permissions/users", "/permissions/teams"} {
			e.call(u2.Token, "GET", p+list, nil).want(http.StatusOK)
			e.call(guest.Token, "GET", p+list, nil).wantError(http.StatusNotFound)
			e.call(outsider.Token, "GET", p+list, nil).wantError(http.StatusNotFound)
			e.call(u2.Token, "GET", "/spaces/nope"+list, nil).wantError(http.StatusNotFound)
		}
		// A member with an admin grant on the space administers its grants.
		o.grantUsers(p, "admin", u2)
		e.call(u2.Token, "POST", p+"/permissions", map[string]any{"role": "read", "users": []string{guest.ID}}).want(http.StatusNoContent)
		o.wantSpaceRole(t, guest, "granted by a space admin", s, "read")
		golden(t, "space_user_permissions", e.call(o.admin.Token, "GET", p+"/permissions/users", nil).want(http.StatusOK).Body)

		// The same user or team twice in one request is one grant.
		dup := o.space("", "Duplicates")
		if res := e.call(o.admin.Token, "POST", "/spaces/"+dup+"/permissions", map[string]any{"role": "review", "users": []string{u1.ID, u1.ID}, "teams": []string{t2, t2}}); res.Status != http.StatusNoContent {
			t.Errorf("POST with a user and a team named twice: status %d, want 204; body %s", res.Status, res.Body)
		}
		wantGrants(t, e, o.admin.Token, "/spaces/"+dup, "after a POST with duplicates", map[string]string{u1.ID: "review"}, map[string]string{t2: "review"})
	})
}

func TestSpacePermissionGrantsThroughGraphQL(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		u1 := e.member(o.id, "u1@acme.test", "read")
		editor := e.member(o.id, "editor@acme.test", "edit")
		outsider := e.member("", "out@else.test", "")
		t1 := o.team("T1", u1)
		s := o.space("", "Shared")
		vars := func(extra ...any) map[string]any {
			m := map[string]any{"s": s, "u": u1.ID, "t": t1}
			for i := 0; i+1 < len(extra); i += 2 {
				m[extra[i].(string)] = extra[i+1]
			}
			return m
		}

		var granted struct {
			GrantSpaceAccess struct {
				ID              string
				UserPermissions struct {
					TotalCount int
					Nodes      []struct {
						Permission string
						User       struct{ ID string }
					}
				}
				TeamPermissions struct {
					TotalCount int
					Nodes      []struct {
						Permission string
						Team       struct{ ID, Title string }
					}
				}
			}
		}
		e.gql(o.admin.Token, `mutation($s: ID!, $u: ID!, $t: ID!) { grantSpaceAccess(spaceId: $s, input: {role: REVIEW, users: [$u], teams: [$t]}) {
			id userPermissions { totalCount nodes { permission user { id } } } teamPermissions { totalCount nodes { permission team { id title } } } } }`, vars()).ok(&granted)
		g := granted.GrantSpaceAccess
		if g.ID != s || g.UserPermissions.TotalCount != 1 || g.UserPermissions.Nodes[0].User.ID != u1.ID || g.UserPermissions.Nodes[0].Permission != "REVIEW" ||
			g.TeamPermissions.TotalCount != 1 || g.TeamPermissions.Nodes[0].Team.Title != "T1" || g.TeamPermissions.Nodes[0].Permission != "REVIEW" {
			t.Errorf("grantSpaceAccess = %+v", g)
		}
		wantGrants(t, e, o.admin.Token, "/spaces/"+s, "REST after GraphQL grant", map[string]string{u1.ID: "review"}, map[string]string{t1: "review"})
		o.wantSpaceRole(t, u1, "granted through GraphQL", s, "review")

		var b struct {
			UpdateSpaceUserPermission bool
			RemoveSpaceUserPermission bool
			UpdateSpaceTeamPermission bool
			RemoveSpaceTeamPermission bool
		}
		e.gql(o.admin.Token, `mutation($s: ID!, $u: ID!) { updateSpaceUserPermission(spaceId: $s, userId: $u, input: {role: ADMIN}) }`, vars()).ok(&b)
		if !b.UpdateSpaceUserPermission {
			t.Error("updateSpaceUserPermission = false")
		}
		o.wantSpaceRole(t, u1, "GraphQL update to admin", s, "admin")
		e.gql(o.admin.Token, `mutation($s: ID!, $u: ID!) { removeSpaceUserPermission(spaceId: $s, userId: $u) }`, vars()).ok(&b)
		if !b.RemoveSpaceUserPermission {
			t.Error("removeSpaceUserPermission = false, want true")
		}
		e.gql(o.admin.Token, `mutation($s: ID!, $u: ID!) { removeSpaceUserPermission(spaceId: $s, userId: $u) }`, vars()).ok(&b)
		if b.RemoveSpaceUserPermission {
			t.Error("removeSpaceUserPermission again = true, want false")
		}
		e.gql(o.admin.Token, `mutation($s: ID!, $t: ID!) { updateSpaceTeamPermission(spaceId: $s, teamId: $t, input: {role: EDIT}) }`, vars()).ok(&b)
		o.wantSpaceRole(t, u1, "GraphQL team update to edit", s, "edit")
		e.gql(o.admin.Token, `mutation($s: ID!, $t: ID!) { removeSpaceTeamPermission(spaceId: $s, teamId: $t) }`, vars()).ok(&b)
		if !b.RemoveSpaceTeamPermission {
			t.Error("removeSpaceTeamPermission = false, want true")
		}
		wantGrants(t, e, o.admin.Token, "/spaces/"+s, "REST after GraphQL removals", nil, nil)

		for _, tt := range []struct {
			name, query string
			who         account
			code        string
		}{
			{"a team without access", `mutation($s: ID!, $t: ID!) { removeSpaceTeamPermission(spaceId: $s, teamId: $t) }`, o.admin, "INVALID"},
			{"an unknown team", `mutation($s: ID!) { updateSpaceTeamPermission(spaceId: $s, teamId: "nope", input: {role: READ}) }`, o.admin, "NOT_FOUND"},
			{"an unknown user", `mutation($s: ID!, $u: ID!) { grantSpaceAccess(spaceId: $s, input: {role: READ, users: [$u, "nobody"]}) { id } }`, o.admin, "NOT_FOUND"},
			{"no role", `mutation($s: ID!, $u: ID!) { grantSpaceAccess(spaceId: $s, input: {users: [$u]}) { id } }`, o.admin, "INVALID"},
			{"nobody", `mutation($s: ID!) { grantSpaceAccess(spaceId: $s, input: {role: READ}) { id } }`, o.admin, "INVALID"},
			{"an editor", `mutation($s: ID!, $u: ID!) { grantSpaceAccess(spaceId: $s, input: {role: READ, users: [$u]}) { id } }`, editor, "FORBIDDEN"},
			{"an editor updating", `mutation($s: ID!, $u: ID!) { updateSpaceUserPermission(spaceId: $s, userId: $u, input: {role: READ}) }`, editor, "FORBIDDEN"},
			{"an outsider", `mutation($s: ID!, $u: ID!) { grantSpaceAccess(spaceId: $s, input: {role: READ, users: [$u]}) { id } }`, outsider, "NOT_FOUND"},
		} {
			if c := e.gql(tt.who.Token, tt.query, vars()).code(); c != tt.code {
				t.Errorf("%s: code %q, want %s", tt.name, c, tt.code)
			}
		}
		wantGrants(t, e, o.admin.Token, "/spaces/"+s, "after refused GraphQL changes", nil, nil)
	})
}

func TestCollectionPermissionGrants(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		u1 := e.member(o.id, "u1@acme.test", "read")
		editor := e.member(o.id, "editor@acme.test", "edit")
		outsider := e.member("", "out@else.test", "")
		t1 := o.team("T1", u1)
		t2 := o.team("T2")
		c := o.collection("", "Guides")
		s := o.space(c, "Inside")
		p := "/collections/" + c

		e.call(o.admin.Token, "POST", p+"/permissions", map[string]any{"role": "edit", "users": []string{editor.ID}, "teams": []string{t1}}).want(http.StatusNoContent)
		wantGrants(t, e, o.admin.Token, p, "after POST", map[string]string{editor.ID: "edit"}, map[string]string{t1: "edit"})
		o.wantSpaceRole(t, u1, "a team grant on the collection reaches its space", s, "edit")

		e.call(o.admin.Token, "PATCH", p+"/permissions/users/"+editor.ID, `{"role":"admin"}`).want(http.StatusNoContent)
		o.wantCollectionRole(t, editor, "PATCH admin", c, "admin")
		e.call(o.admin.Token, "PATCH", p+"/permissions/users/"+editor.ID, `{"role":null}`).want(http.StatusNoContent)
		e.call(o.admin.Token, "PATCH", p+"/permissions/teams/"+t1, `{"role":"read"}`).want(http.StatusNoContent)
		e.call(o.admin.Token, "PATCH", p+"/permissions/teams/"+t2, `{"role":"comment"}`).want(http.StatusNoContent)
		wantGrants(t, e, o.admin.Token, p, "after PATCHes", nil, map[string]string{t1: "read", t2: "comment"})
		o.wantSpaceRole(t, u1, "team grant lowered to read", s, "read")

		// DELETE is idempotent for users and, unlike on spaces, for teams.
		e.call(o.admin.Token, "DELETE", p+"/permissions/teams/"+t2, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", p+"/permissions/teams/"+t2, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", p+"/permissions/teams/nope", nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", p+"/permissions/users/"+editor.ID, nil).want(http.StatusNoContent)
		wantGrants(t, e, o.admin.Token, p, "after DELETEs", nil, map[string]string{t1: "read"})

		e.call(o.admin.Token, "PATCH", p+"/permissions/teams/nope", `{"role":"read"}`).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "PATCH", p+"/permissions/users/nobody", `{"role":"read"}`).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "POST", p+"/permissions", `{"role":"read","users":["`+editor.ID+`","nobody"]}`).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "POST", p+"/permissions", `{"role":"read","teams":["nope"]}`).wantError(http.StatusNotFound)
		if msg := e.call(o.admin.Token, "POST", p+"/permissions", `{"users":["`+editor.ID+`"]}`).wantError(http.StatusBadRequest); !strings.HasPrefix(msg, "role") {
			t.Errorf("POST without role: message %q does not name role", msg)
		}
		wantGrants(t, e, o.admin.Token, p, "after refused requests", nil, map[string]string{t1: "read"})

		// Only the collection's admins grant.
		e.call(editor.Token, "POST", p+"/permissions", `{"role":"admin","users":["`+editor.ID+`"]}`).wantError(http.StatusForbidden)
		e.call(editor.Token, "PATCH", p+"/permissions/teams/"+t1, `{"role":"admin"}`).wantError(http.StatusForbidden)
		e.call(editor.Token, "DELETE", p+"/permissions/teams/"+t1, nil).wantError(http.StatusForbidden)
		e.call(outsider.Token, "POST", p+"/permissions", `{"role":"admin","users":["`+editor.ID+`"]}`).wantError(http.StatusNotFound)
		e.call(outsider.Token, "GET", p+"/permissions/users", nil).wantError(http.StatusNotFound)
		e.call(editor.Token, "GET", p+"/permissions/teams", nil).want(http.StatusOK)
		wantGrants(t, e, o.admin.Token, p, "after refused changes", nil, map[string]string{t1: "read"})
		golden(t, "collection_team_permissions", e.call(o.admin.Token, "GET", p+"/permissions/teams", nil).want(http.StatusOK).Body)

		// GraphQL twins.
		var granted struct {
			GrantCollectionAccess struct {
				ID              string
				UserPermissions struct {
					Nodes []struct {
						Permission string
						User       struct{ ID string }
					}
				}
			}
		}
		e.gql(o.admin.Token, `mutation($c: ID!, $u: ID!) { grantCollectionAccess(collectionId: $c, input: {role: CREATE, users: [$u]}) { id userPermissions { nodes { permission user { id } } } } }`,
			map[string]any{"c": c, "u": u1.ID}).ok(&granted)
		if n := granted.GrantCollectionAccess.UserPermissions.Nodes; granted.GrantCollectionAccess.ID != c || len(n) != 1 || n[0].User.ID != u1.ID || n[0].Permission != "CREATE" {
			t.Errorf("grantCollectionAccess = %+v", granted)
		}
		o.wantCollectionRole(t, u1, "GraphQL grant create", c, "create")
		var b struct {
			UpdateCollectionUserPermission bool
			RemoveCollectionUserPermission bool
			UpdateCollectionTeamPermission bool
			RemoveCollectionTeamPermission bool
		}
		e.gql(o.admin.Token, `mutation($c: ID!, $u: ID!) { updateCollectionUserPermission(collectionId: $c, userId: $u, input: {role: COMMENT}) }`, map[string]any{"c": c, "u": u1.ID}).ok(&b)
		o.wantSpaceRole(t, u1, "GraphQL update to comment", s, "comment")
		e.gql(o.admin.Token, `mutation($c: ID!, $u: ID!) { removeCollectionUserPermission(collectionId: $c, userId: $u) }`, map[string]any{"c": c, "u": u1.ID}).ok(&b)
		if !b.RemoveCollectionUserPermission {
			t.Error("removeCollectionUserPermission = false, want true")
		}
		e.gql(o.admin.Token, `mutation($c: ID!, $t: ID!) { removeCollectionTeamPermission(collectionId: $c, teamId: $t) }`, map[string]any{"c": c, "t": t1}).ok(&b)
		if !b.RemoveCollectionTeamPermission {
			t.Error("removeCollectionTeamPermission = false, want true")
		}
		e.gql(o.admin.Token, `mutation($c: ID!, $t: ID!) { removeCollectionTeamPermission(collectionId: $c, teamId: $t) }`, map[string]any{"c": c, "t": t1}).ok(&b)
		if b.RemoveCollectionTeamPermission {
			t.Error("removeCollectionTeamPermission again = true, want false (and no error)")
		}
		if code := e.gql(o.admin.Token, `mutation($c: ID!) { updateCollectionTeamPermission(collectionId: $c, teamId: "nope", input: {role: READ}) }`, map[string]any{"c": c}).code(); code != "NOT_FOUND" {
			t.Errorf("GraphQL unknown team code = %q, want NOT_FOUND", code)
		}
		if code := e.gql(editor.Token, `mutation($c: ID!, $u: ID!) { grantCollectionAccess(collectionId: $c, input: {role: ADMIN, users: [$u]}) { id } }`, map[string]any{"c": c, "u": editor.ID}).code(); code != "FORBIDDEN" {
			t.Errorf("GraphQL editor grantCollectionAccess code = %q, want FORBIDDEN", code)
		}
		var read struct {
			Collection struct {
				TeamPermissions struct{ TotalCount int }
				UserPermissions struct{ TotalCount int }
			}
		}
		e.gql(editor.Token, `query($c: ID!) { collection(id: $c) { teamPermissions { totalCount } userPermissions { totalCount } } }`, map[string]any{"c": c}).ok(&read)
		if read.Collection.TeamPermissions.TotalCount != 0 || read.Collection.UserPermissions.TotalCount != 0 {
			t.Errorf("GraphQL collection permissions after removals = %+v", read.Collection)
		}
	})
}

// memberSpace is an item of GET /orgs/{id}/members/{userId}/spaces, named "title:permission".
type memberSpace struct {
	Permission string
	Space      struct {
		ID, Title string
	}
}

func (ms memberSpace) label() string { return ms.Space.Title + ":" + ms.Permission }

// memberSpaceList is a page of GET /orgs/{id}/members/{userId}/spaces.
type memberSpaceList = listPage[memberSpace]

func TestMemberSpacesAndCounts(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		editor := e.member(o.id, "editor@acme.test", "edit")
		guest := e.member(o.id, "guest@acme.test", "guest")
		outsider := e.member("", "out@else.test", "")
		o.space("", "Open")
		closed := o.space("", "Closed")
		o.level("/spaces/"+closed, "null")
		o.grantUsers("/spaces/"+closed, "edit", reader)
		hidden := o.space("", "Hidden")
		o.level("/spaces/"+hidden, "null")
		o.grantUsers("/spaces/"+hidden, "comment", editor)
		col := o.collection("", "Col")
		o.level("/collections/"+col, `"comment"`)
		o.space(col, "In col")
		deleted := o.space("", "Deleted")
		e.call(o.admin.Token, "DELETE", "/spaces/"+deleted, nil).want(http.StatusNoContent)
		guests := o.space("", "Guest's")
		o.grantUsers("/spaces/"+guests, "read", guest)

		list := func(viewer account, userID, query string) memberSpaceList {
			t.Helper()
			return getList[memberSpace](e, viewer.Token, "/orgs/"+o.id+"/members/"+userID+"/spaces"+query)
		}
		// Each member's spaces with the member's own role, newest first or oldest first.
		for _, tt := range []struct {
			name          string
			viewer        account
			member        account
			query, want   string
			wantAllSpaces int // the member's spaces count, whoever looks
		}{
			{"reader, by the admin", o.admin, reader, "", "Guest's:read,In col:comment,Closed:edit,Open:read", 4},
			{"reader, oldest first", o.admin, reader, "?order=asc", "Open:read,Closed:edit,In col:comment,Guest's:read", 4},
			{"reader, by themself", reader, reader, "?order=asc", "Open:read,Closed:edit,In col:comment,Guest's:read", 4},
			{"editor, by the admin", o.admin, editor, "?order=asc", "Open:edit,Hidden:comment,In col:comment,Guest's:edit", 4},
			{"editor, by the reader: only what the reader sees too", reader, editor, "?order=asc", "Open:edit,In col:comment,Guest's:edit", 4},
			{"guest, by themself", guest, guest, "", "Guest's:read", 1},
			{"admin, by the reader", reader, o.admin, "?order=asc", "Open:admin,Closed:admin,In col:admin,Guest's:admin", 5},
		} {
			l := list(tt.viewer, tt.member.ID, tt.query)
			if l.labels() != tt.want || l.Count != len(l.Items) {
				t.Errorf("%s: %q (count %d), want %q", tt.name, l.labels(), l.Count, tt.want)
			}
			// The member's spaces count is the number of spaces they can read, whatever the viewer
			// (admins see every member).
			m := e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/members/"+tt.member.ID, nil).want(http.StatusOK).object()
			if m["spaces"] != float64(tt.wantAllSpaces) {
				t.Errorf("%s: member spaces = %v, want %d", tt.name, m["spaces"], tt.wantAllSpaces)
			}
			// … which is what they list themselves.
			if _, count := o.listSpaces(tt.member.Token, "/orgs/"+o.id+"/spaces", 0); count != tt.wantAllSpaces {
				t.Errorf("%s: the member lists %d spaces, their member object says %d", tt.name, count, tt.wantAllSpaces)
			}
		}
		// The counts in the member list agree.
		var members struct {
			Items []struct {
				ID     string
				Spaces int
			}
		}
		e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/members", nil).want(http.StatusOK).decode(&members)
		counts := map[string]int{}
		for _, m := range members.Items {
			counts[m.ID] = m.Spaces
		}
		if want := map[string]int{o.admin.ID: 5, reader.ID: 4, editor.ID: 4, guest.ID: 1}; !cmp.Equal(counts, want) {
			t.Errorf("member list spaces counts = %v, want %v", counts, want)
		}

		// Paging, both orders.
		for _, order := range []string{"asc", "desc"} {
			got := pageLabels(t, "?limit=3&order="+order, func(q string) memberSpaceList { return list(o.admin, o.admin.ID, q) })
			want := map[string]string{
				"asc":  "Open:admin,Closed:admin,Hidden:admin|In col:admin,Guest's:admin",
				"desc": "Guest's:admin,In col:admin,Hidden:admin|Closed:admin,Open:admin",
			}[order]
			if got != want {
				t.Errorf("order=%s pages = %q, want %q", order, got, want)
			}
		}
		// A page token belongs to its order.
		first := list(o.admin, o.admin.ID, "?limit=1")
		if res := e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/members/"+o.admin.ID+"/spaces?order=asc&page="+first.Next.Page, nil); res.Status != http.StatusBadRequest {
			t.Errorf("a newest-first page token sent with order=asc: status %d, want 400 (page); body %s", res.Status, res.Body)
		}

		e.call(guest.Token, "GET", "/orgs/"+o.id+"/members/"+reader.ID+"/spaces", nil).wantError(http.StatusForbidden)
		e.call(outsider.Token, "GET", "/orgs/"+o.id+"/members/"+reader.ID+"/spaces", nil).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/members/"+outsider.ID+"/spaces", nil).wantError(http.StatusNotFound)
		if msg := e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/members/"+reader.ID+"/spaces?order=up", nil).wantError(http.StatusBadRequest); !strings.HasPrefix(msg, "order") {
			t.Errorf("order=up message %q does not name order", msg)
		}

		// GraphQL: the same list and count.
		var data struct {
			Organization struct {
				Member struct {
					Spaces           int
					AccessibleSpaces struct {
						TotalCount int
						Nodes      []struct {
							Permission string
							Space      struct{ Title string }
						}
					}
				}
			}
		}
		e.gql(o.admin.Token, `query($o: ID!, $u: ID!) { organization(id: $o) { member(userId: $u) { spaces accessibleSpaces(order: ASC) { totalCount nodes { permission space { title } } } } } }`,
			map[string]any{"o": o.id, "u": reader.ID}).ok(&data)
		var got []string
		for _, n := range data.Organization.Member.AccessibleSpaces.Nodes {
			got = append(got, n.Space.Title+":"+n.Permission)
		}
		m := data.Organization.Member
		if strings.Join(got, ",") != "Open:READ,Closed:EDIT,In col:COMMENT,Guest's:READ" || m.AccessibleSpaces.TotalCount != 4 || m.Spaces != 4 {
			t.Errorf("GraphQL member spaces = %v (total %d, count %d)", got, m.AccessibleSpaces.TotalCount, m.Spaces)
		}
		if c := e.gql(guest.Token, `query($o: ID!, $u: ID!) { organization(id: $o) { member(userId: $u) { accessibleSpaces { totalCount } } } }`,
			map[string]any{"o": o.id, "u": reader.ID}).code(); c != "FORBIDDEN" {
			t.Errorf("GraphQL guest reading another member's spaces code = %q, want FORBIDDEN", c)
		}
		golden(t, "member_spaces", e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/members/"+guest.ID+"/spaces", nil).want(http.StatusOK).Body)
	})
}
