package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// contentOrg is an organization with its admin, where the space, collection and grant tests
// create their content, teams and members. Its helpers act as the admin and fail the test on
// any unexpected answer.
type contentOrg struct {
	e     *env
	id    string
	admin account
}

func newContentOrg(e *env) *contentOrg {
	e.t.Helper()
	id, admin := e.org("Acme", "admin@acme.test")
	return &contentOrg{e: e, id: id, admin: admin}
}

// newContent creates a space or a collection (list "spaces" or "collections") as token with a
// JSON body (nil: none) and returns it.
func (o *contentOrg) newContent(list, token string, body any) map[string]any {
	o.e.t.Helper()
	return o.e.call(token, "POST", "/orgs/"+o.id+"/"+list, body).want(http.StatusCreated).object()
}

// content creates, as the admin, a space or a collection (list as for newContent) titled title in
// collection parent ("": at the root) and returns its id.
func (o *contentOrg) content(list, parent, title string) string {
	o.e.t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	return o.newContent(list, o.admin.Token, body)["id"].(string)
}

// newSpace creates a space as token with a JSON body (nil: none) and returns it.
func (o *contentOrg) newSpace(token string, body any) map[string]any {
	o.e.t.Helper()
	return o.newContent("spaces", token, body)
}

// space creates, as the admin, a space titled title in collection parent ("": at the root) and
// returns its id.
func (o *contentOrg) space(parent, title string) string {
	o.e.t.Helper()
	return o.content("spaces", parent, title)
}

// newCollection creates a collection as token with a JSON body (nil: none) and returns it.
func (o *contentOrg) newCollection(token string, body any) map[string]any {
	o.e.t.Helper()
	return o.newContent("collections", token, body)
}

// collection creates, as the admin, a collection in parent ("": at the root) and returns its id.
func (o *contentOrg) collection(parent, title string) string {
	o.e.t.Helper()
	return o.content("collections", parent, title)
}

// level sets, as the admin, the default level of content ("/spaces/<id>" or
// "/collections/<id>"); level is a JSON value: "null" or a quoted level.
func (o *contentOrg) level(path, level string) {
	o.e.t.Helper()
	o.e.call(o.admin.Token, "PATCH", path, `{"defaultLevel":`+level+`}`).want(http.StatusOK)
}

// team creates, as the admin, a team with those members and returns its id. The admin is its
// owner, and so a member of it too.
func (o *contentOrg) team(title string, members ...account) string {
	o.e.t.Helper()
	ids := []string{}
	for _, m := range members {
		ids = append(ids, m.ID)
	}
	body := map[string]any{"title": title, "members": ids}
	return o.e.call(o.admin.Token, "PUT", "/orgs/"+o.id+"/teams", body).want(http.StatusCreated).object()["id"].(string)
}

// grantUsers gives, as the admin, role on content (path "/spaces/<id>" or "/collections/<id>")
// to users.
func (o *contentOrg) grantUsers(path, role string, users ...account) {
	o.e.t.Helper()
	ids := []string{}
	for _, u := range users {
		ids = append(ids, u.ID)
	}
	o.e.call(o.admin.Token, "POST", path+"/permissions", map[string]any{"role": role, "users": ids}).want(http.StatusNoContent)
}

// grantTeams gives, as the admin, role on content to teams.
func (o *contentOrg) grantTeams(path, role string, teams ...string) {
	o.e.t.Helper()
	o.e.call(o.admin.Token, "POST", path+"/permissions", map[string]any{"role": role, "teams": teams}).want(http.StatusNoContent)
}

// contentRank orders the roles; "" is no access.
var contentRank = map[string]int{"": 0, "read": 1, "comment": 2, "review": 3, "edit": 4, "create": 5, "admin": 6}

// spacePermsFor is the permissions object of a space for a caller with role (docs/permissions.md).
func spacePermsFor(role string) map[string]bool {
	at := func(min string) bool { return role != "" && contentRank[role] >= contentRank[min] }
	return map[string]bool{
		"view": at("read"), "access": at("read"), "comment": at("comment"), "review": at("review"),
		"edit": at("edit"), "merge": at("edit"), "triggerGitSync": at("edit"),
		"admin": at("admin"), "viewInviteLinks": at("admin"), "installIntegration": at("admin"),
	}
}

// collectionPermsFor is the permissions object of a collection for a caller with role.
func collectionPermsFor(role string) map[string]bool {
	at := func(min string) bool { return role != "" && contentRank[role] >= contentRank[min] }
	return map[string]bool{"view": at("read"), "create": at("create"), "admin": at("admin"), "viewInviteLinks": at("admin")}
}

const spacePermsQuery = `query($id: ID!) { space(id: $id) { id permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration } } }`

const collectionPermsQuery = `query($id: ID!) { collection(id: $id) { id permissions { view admin viewInviteLinks create } } }`

// wantSpaceRole checks, through both doors, that who has role on a space: the permissions
// object of that role, or (role "") a 404 that looks like a missing space.
func (o *contentOrg) wantSpaceRole(t *testing.T, who account, name, spaceID, role string) {
	t.Helper()
	o.wantRole(t, who, name, "space", "/spaces/"+spaceID, spacePermsQuery, spaceID, role, spacePermsFor)
}

// wantCollectionRole is wantSpaceRole for a collection.
func (o *contentOrg) wantCollectionRole(t *testing.T, who account, name, collectionID, role string) {
	t.Helper()
	o.wantRole(t, who, name, "collection", "/collections/"+collectionID, collectionPermsQuery, collectionID, role, collectionPermsFor)
}

// wantRole checks that who has role on the object kind at path (REST) and id (GraphQL query,
// which reads kind's permissions): perms(role), or (role "") a 404 that looks like a missing one.
func (o *contentOrg) wantRole(t *testing.T, who account, name, kind, path, query, id, role string, perms func(string) map[string]bool) {
	t.Helper()
	res := o.e.call(who.Token, "GET", path, nil)
	gql := o.e.gql(who.Token, query, map[string]any{"id": id})
	if role == "" {
		if res.Status != http.StatusNotFound {
			t.Errorf("%s: %s GET %s = %d, want 404 (no access); body %s", name, who.Email, kind, res.Status, res.Body)
		}
		if len(gql.Errors) == 0 || gql.Errors[0].Extensions["code"] != "NOT_FOUND" {
			t.Errorf("%s: %s GraphQL %s = %s %+v, want NOT_FOUND", name, who.Email, kind, gql.Data, gql.Errors)
		}
		return
	}
	if res.Status != http.StatusOK {
		t.Errorf("%s: %s GET %s = %d, want 200 with role %s; body %s", name, who.Email, kind, res.Status, role, res.Body)
		return
	}
	var body struct{ Permissions map[string]bool }
	res.decode(&body)
	if diff := cmp.Diff(perms(role), body.Permissions); diff != "" {
		t.Errorf("%s: %s REST %s permissions are not those of %s (-want +got):\n%s", name, who.Email, kind, role, diff)
	}
	var g map[string]*struct{ Permissions map[string]bool }
	gql.ok(&g)
	if g[kind] == nil {
		t.Errorf("%s: %s GraphQL %s is null", name, who.Email, kind)
		return
	}
	if diff := cmp.Diff(perms(role), g[kind].Permissions); diff != "" {
		t.Errorf("%s: %s GraphQL %s permissions are not those of %s (-want +got):\n%s", name, who.Email, kind, role, diff)
	}
}

// spaceList is one page of a REST list of spaces.
type spaceList = listPage[titled]

// listSpaces reads every page of a REST list of spaces (path without paging parameters; query
// may hold other ones) with pages of limit, and returns the titles of each page and the count
// the first page announced.
func (o *contentOrg) listSpaces(token, path string, limit int) (pages []string, count int) {
	o.e.t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	all := walkPages(o.e.t, fmt.Sprintf("%s%slimit=%d", path, sep, limit), func(q string) spaceList { return getList[titled](o.e, token, q) })
	for _, l := range all {
		pages = append(pages, l.labels())
	}
	return pages, all[0].Count
}

func TestCreateSpace(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		creator := e.member(o.id, "creator@acme.test", "create")
		reader := e.member(o.id, "reader@acme.test", "read")
		guest := e.member(o.id, "guest@acme.test", "guest")
		outsider := e.member("", "out@else.test", "")
		otherID, otherAdmin := e.org("Other", "admin@other.test")

		// No body at all: the contract's defaults.
		res := e.call(creator.Token, "POST", "/orgs/"+o.id+"/spaces", nil).want(http.StatusCreated)
		golden(t, "space_created", res.Body)
		created := res.object()
		id, _ := created["id"].(string)
		urls := created["urls"].(map[string]any)
		if loc := res.Header.Get("Location"); loc != urls["location"] || loc != "https://bindery.test/v1/spaces/"+id {
			t.Errorf("Location = %q, urls.location = %v, want both https://bindery.test/v1/spaces/%s", loc, urls["location"], id)
		}
		for field, want := range map[string]any{
			"object": "space", "title": "Untitled", "emoji": "", "editMode": "live", "defaultLevel": "inherit",
			"visibility": "private", "organization": o.id,
		} {
			if got := created[field]; got != want {
				t.Errorf("new space %s = %v, want %v", field, got, want)
			}
		}
		if mr := created["mergeRules"].(map[string]any); mr["type"] != "inherit" || len(mr) != 1 {
			t.Errorf("new space mergeRules = %v, want {type: inherit}", mr)
		}
		if rev, _ := created["revision"].(string); rev == "" {
			t.Errorf("new space has no revision id: %v", created["revision"])
		}
		if _, ok := created["parent"]; ok {
			t.Errorf("a root space has a parent: %v", created["parent"])
		}
		// The creator (role create, not an organization admin) administers what they create, and
		// the space reads back exactly as it was created.
		o.wantSpaceRole(t, creator, "creator", id, "admin")
		if got := e.call(creator.Token, "GET", "/spaces/"+id, nil).want(http.StatusOK).Body; string(got) != string(res.Body) {
			t.Errorf("GET after create differs:\n%s\n%s", res.Body, got)
		}
		var users struct {
			Items []struct {
				Permission string
				User       struct{ ID string }
			}
		}
		e.call(creator.Token, "GET", "/spaces/"+id+"/permissions/users", nil).want(http.StatusOK).decode(&users)
		if len(users.Items) != 1 || users.Items[0].User.ID != creator.ID || users.Items[0].Permission != "admin" {
			t.Errorf("grants after create = %+v, want the creator as admin", users.Items)
		}
		// The readers of the organization read it (it inherits their role).
		o.wantSpaceRole(t, reader, "reader", id, "read")

		// Every field of the body.
		full := o.newSpace(creator.Token, `{"title":"Handbook","emoji":"📘","language":"pt-br","editMode":"locked"}`)
		for field, want := range map[string]any{"title": "Handbook", "emoji": "📘", "language": "pt-br", "editMode": "locked"} {
			if full[field] != want {
				t.Errorf("created %s = %v, want %v", field, full[field], want)
			}
		}
		// Titles count characters, not bytes: 50 of them are fine.
		if got := o.newSpace(creator.Token, map[string]any{"title": strings.Repeat("é", 50)})["title"]; got != strings.Repeat("é", 50) {
			t.Errorf("50-character title = %v", got)
		}

		// In a collection.
		col := o.collection("", "Guides")
		inCol := o.newSpace(creator.Token, map[string]any{"title": "Inside", "parent": col})
		if inCol["parent"] != col || inCol["visibility"] != "in-collection" {
			t.Errorf("space in a collection: parent %v visibility %v, want %s in-collection", inCol["parent"], inCol["visibility"], col)
		}
		o.wantSpaceRole(t, creator, "creator in a collection", inCol["id"].(string), "admin")

		count := func() float64 {
			t.Helper()
			return e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/spaces", nil).want(http.StatusOK).object()["count"].(float64)
		}
		before := count()

		// A parent the caller cannot see is the same as one that does not exist.
		closed := o.collection("", "Closed")
		o.level("/collections/"+closed, "null")
		otherCol := e.call(otherAdmin.Token, "POST", "/orgs/"+otherID+"/collections", `{"title":"Theirs"}`).want(http.StatusCreated).object()["id"].(string)
		e.wantBadBodies(creator.Token, "POST", "/orgs/"+o.id+"/spaces",
			badBody{"title too long", `{"title":"` + strings.Repeat("a", 51) + `"}`, "title"},
			badBody{"title not a string", `{"title":5}`, "title"},
			badBody{"emoji too long", `{"emoji":"` + strings.Repeat("x", 51) + `"}`, "emoji"},
			badBody{"unknown edit mode", `{"editMode":"draft"}`, "editMode"},
			badBody{"unknown language", `{"language":"xx"}`, "language"},
			badBody{"parent not a string", `{"parent":1}`, "parent"},
			badBody{"unknown parent", `{"parent":"nope"}`, "parent"},
			badBody{"parent the caller cannot see", `{"parent":"` + closed + `"}`, "parent"},
			badBody{"parent in another organization", `{"parent":"` + otherCol + `"}`, "parent"},
			badBody{"template", `{"template":{"id":"t1"}}`, "template"},
			badBody{"computed source", `{"computedSource":{"type":"builtin:openapi"}}`, "computedSource"},
			badBody{"malformed JSON", `{"title":`, "body"},
			badBody{"not an object", `["x"]`, "body"},
		)
		if after := count(); after != before {
			t.Errorf("rejected creates changed the number of spaces: %v → %v", before, after)
		}

		// Who may create: the create role at the root, or create on the parent collection.
		e.call(reader.Token, "POST", "/orgs/"+o.id+"/spaces", `{"title":"Mine"}`).wantError(http.StatusForbidden)
		e.call(guest.Token, "POST", "/orgs/"+o.id+"/spaces", `{"title":"Mine"}`).wantError(http.StatusForbidden)
		e.call(outsider.Token, "POST", "/orgs/"+o.id+"/spaces", `{"title":"Mine"}`).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "POST", "/orgs/"+o.id+"/spaces", `{"title":"Mine"}`).wantError(http.StatusNotFound)
		e.call(creator.Token, "POST", "/orgs/nope/spaces", `{"title":"Mine"}`).wantError(http.StatusNotFound)
		readOnly := o.collection("", "Read only")
		o.level("/collections/"+readOnly, `"read"`)
		e.call(creator.Token, "POST", "/orgs/"+o.id+"/spaces", map[string]any{"parent": readOnly}).wantError(http.StatusForbidden)
		o.grantUsers("/collections/"+readOnly, "create", reader)
		o.newSpace(reader.Token, map[string]any{"title": "Reader's", "parent": readOnly})
		if after := count(); after != before+1 {
			t.Errorf("spaces after the refused creates and one allowed = %v, want %v", after, before+1)
		}

		// GraphQL: the same defaults, rules and errors.
		var data struct {
			CreateSpace struct {
				ID, Title, Visibility, EditMode, Revision string
				DefaultLevel                              *string
				Parent                                    *string
				Language                                  *string
				MergeRules                                struct{ Type string }
				Permissions                               struct{ Admin bool }
				URLs                                      struct{ Location string }
			}
		}
		e.gql(creator.Token, `mutation($o: ID!, $c: ID!) { createSpace(organizationId: $o, input: {title: "Via GraphQL", parent: $c, language: FR}) {
			id title visibility editMode revision defaultLevel parent language mergeRules { type } permissions { admin } urls { location } } }`,
			map[string]any{"o": o.id, "c": col}).ok(&data)
		g := data.CreateSpace
		if g.Title != "Via GraphQL" || g.Visibility != "IN_COLLECTION" || g.EditMode != "LIVE" || g.Revision == "" || g.DefaultLevel == nil || *g.DefaultLevel != "INHERIT" ||
			g.Parent == nil || *g.Parent != col || g.Language == nil || *g.Language != "FR" || g.MergeRules.Type != "INHERIT" || !g.Permissions.Admin ||
			g.URLs.Location != "https://bindery.test/v1/spaces/"+g.ID {
			t.Errorf("GraphQL createSpace = %+v", g)
		}
		e.gql(creator.Token, `mutation($o: ID!) { createSpace(organizationId: $o, input: {}) { title visibility } }`, map[string]any{"o": o.id}).ok(&data)
		if data.CreateSpace.Title != "Untitled" || data.CreateSpace.Visibility != "PRIVATE" {
			t.Errorf("GraphQL createSpace with no input = %+v", data.CreateSpace)
		}
		org := map[string]any{"o": o.id}
		e.wantInvalid("long title", creator, `mutation($o: ID!) { createSpace(organizationId: $o, input: {title: "`+strings.Repeat("a", 51)+`"}) { id } }`, org, "title")
		e.wantInvalid("unknown parent", creator, `mutation($o: ID!) { createSpace(organizationId: $o, input: {parent: "nope"}) { id } }`, org, "parent")
		e.wantRefusals(`mutation($o: ID!) { createSpace(organizationId: $o, input: {}) { id } }`,
			gqlRefusal{"reader createSpace", reader, org, "FORBIDDEN"},
			gqlRefusal{"outsider createSpace", outsider, org, "NOT_FOUND"},
		)
	})
}

func TestListSpacesShowsWhatTheCallerCanRead(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		guest := e.member(o.id, "guest@acme.test", "guest")
		outsider := e.member("", "out@else.test", "")

		open := o.collection("", "Open")
		closed := o.collection("", "Closed")
		o.level("/collections/"+closed, "null")
		o.space("", "s1")
		s2 := o.space("", "s2")
		o.level("/spaces/"+s2, "null")
		o.space(open, "s3")
		o.space(closed, "s4")
		o.space("", "s5")
		s6 := o.space("", "s6")
		e.call(o.admin.Token, "DELETE", "/spaces/"+s6, nil).want(http.StatusNoContent)

		// Newest first; a closed space, a space in a closed collection and a deleted space are
		// not the reader's; the admin sees all live spaces; a guest sees none.
		for _, tt := range []struct {
			name  string
			who   account
			limit int
			pages string
			count int
		}{
			{"admin, one page", o.admin, 0, "s5,s4,s3,s2,s1", 5},
			{"admin, pages of 2", o.admin, 2, "s5,s4|s3,s2|s1", 5},
			{"reader, one page", reader, 0, "s5,s3,s1", 3},
			{"reader, pages of 1", reader, 1, "s5|s3|s1", 3},
			{"guest", guest, 0, "", 0},
		} {
			pages, count := o.listSpaces(tt.who.Token, "/orgs/"+o.id+"/spaces", tt.limit)
			if got := strings.Join(pages, "|"); got != tt.pages || count != tt.count {
				t.Errorf("%s: pages %q count %d, want %q count %d", tt.name, got, count, tt.pages, tt.count)
			}
		}
		// An empty list is an empty array, not null.
		if body := e.call(guest.Token, "GET", "/orgs/"+o.id+"/spaces", nil).want(http.StatusOK).object(); fmt.Sprint(body["items"]) != "[]" {
			t.Errorf("guest list = %v, want items []", body)
		}
		e.call(outsider.Token, "GET", "/orgs/"+o.id+"/spaces", nil).wantError(http.StatusNotFound)
		e.wantBadPaging(reader.Token, "/orgs/"+o.id+"/spaces")

		// GraphQL pages through the same list with the same cursors, and a page can be continued
		// through the other door.
		const q = `query($o: ID!, $first: Int, $after: String) { organization(id: $o) { spaces(first: $first, after: $after) {
			totalCount pageInfo { hasNextPage endCursor } edges { cursor node { title } } } } }`
		if seen, _ := e.bothDoorsPages(o.admin.Token, "/orgs/"+o.id+"/spaces", 2, q, map[string]any{"o": o.id}, "organization", "spaces"); seen != "s5,s4|s3,s2|s1" {
			t.Errorf("pages through both doors = %v", seen)
		}
		e.wantRefusals(`query($o: ID!) { organization(id: $o) { spaces(first: 1001) { totalCount } } }`, gqlRefusal{"first: 1001", o.admin, map[string]any{"o": o.id}, "INVALID"})
	})
}

func TestGetSpaceHidesWhatTheCallerCannotRead(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		outsider := e.member("", "out@else.test", "")
		_, otherAdmin := e.org("Other", "admin@other.test")
		id := o.space("", "Handbook")
		closed := o.space("", "Closed")
		o.level("/spaces/"+closed, "null")

		got := e.call(reader.Token, "GET", "/spaces/"+id, nil).want(http.StatusOK).object()
		if got["id"] != id || got["title"] != "Handbook" {
			t.Errorf("GET space = %v", got)
		}
		// Missing, closed, in another organization: the same answer.
		missing := e.call(reader.Token, "GET", "/spaces/doesnotexist", nil).wantError(http.StatusNotFound)
		for _, tt := range []struct {
			name, id string
			who      account
		}{
			{"closed space", closed, reader},
			{"outsider", id, outsider},
			{"admin of another organization", id, otherAdmin},
		} {
			if msg := e.call(tt.who.Token, "GET", "/spaces/"+tt.id, nil).wantError(http.StatusNotFound); msg != missing {
				t.Errorf("%s: message %q, a missing space says %q", tt.name, msg, missing)
			}
			if c := e.gql(tt.who.Token, `query($id: ID!) { space(id: $id) { id } }`, map[string]any{"id": tt.id}).code(); c != "NOT_FOUND" {
				t.Errorf("%s: GraphQL code = %q, want NOT_FOUND", tt.name, c)
			}
		}
		var data struct {
			Space struct {
				ID, Title, Organization string
				Permissions             struct{ View, Edit bool }
			}
		}
		e.gql(reader.Token, `query($id: ID!) { space(id: $id) { id title organization permissions { view edit } } }`, map[string]any{"id": id}).ok(&data)
		if data.Space.ID != id || data.Space.Organization != o.id || !data.Space.Permissions.View || data.Space.Permissions.Edit {
			t.Errorf("GraphQL space = %+v", data.Space)
		}
	})
}

func TestUpdateSpace(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		editor := e.member(o.id, "editor@acme.test", "edit")
		reader := e.member(o.id, "reader@acme.test", "read")
		outsider := e.member("", "out@else.test", "")
		id := o.space("", "Handbook")
		path := "/spaces/" + id
		get := func() []byte {
			t.Helper()
			return e.call(o.admin.Token, "GET", path, nil).want(http.StatusOK).Body
		}

		// Title, emoji and icon: editors may change them; emoji and icon replace each other.
		got := e.call(editor.Token, "PATCH", path, `{"title":"Team handbook","emoji":"📘"}`).want(http.StatusOK).object()
		if got["title"] != "Team handbook" || got["emoji"] != "📘" {
			t.Errorf("after renaming: %v", got)
		}
		if p := got["permissions"].(map[string]any); p["edit"] != true || p["admin"] != false {
			t.Errorf("the editor's answer carries permissions %v, want the editor's", p)
		}
		got = e.call(editor.Token, "PATCH", path, `{"icon":"https://acme.test/icon.png"}`).want(http.StatusOK).object()
		if got["emoji"] != "" || got["urls"].(map[string]any)["icon"] != "https://acme.test/icon.png" {
			t.Errorf("after setting an icon: emoji %v, urls %v", got["emoji"], got["urls"])
		}
		got = e.call(editor.Token, "PATCH", path, `{"emoji":"🚀"}`).want(http.StatusOK).object()
		if _, hasIcon := got["urls"].(map[string]any)["icon"]; got["emoji"] != "🚀" || hasIcon {
			t.Errorf("after setting an emoji again: emoji %v, urls %v", got["emoji"], got["urls"])
		}
		got = e.call(editor.Token, "PATCH", path, `{"emoji":null,"icon":null}`).want(http.StatusOK).object()
		if _, hasIcon := got["urls"].(map[string]any)["icon"]; got["emoji"] != "" || hasIcon {
			t.Errorf("after clearing: emoji %v, urls %v", got["emoji"], got["urls"])
		}
		// An empty PATCH changes nothing (but the time of the last update).
		before := get()
		e.call(editor.Token, "PATCH", path, `{}`).want(http.StatusOK)
		if after := get(); string(withoutUpdatedAt(t, after)) != string(withoutUpdatedAt(t, before)) {
			t.Errorf("empty PATCH changed the space:\n%s\n%s", before, after)
		}
		wantUnchanged := e.snapshot(o.admin.Token, path)

		// The rest needs admin on the space: an editor is refused and nothing changes, not even
		// the title sent along.
		for _, body := range []string{`{"editMode":"locked"}`, `{"defaultLevel":"read"}`, `{"defaultLevel":null}`, `{"mergeRules":{"type":"none"}}`, `{"title":"Mine","editMode":"locked"}`} {
			e.call(editor.Token, "PATCH", path, body).wantError(http.StatusForbidden)
		}
		wantUnchanged("refused PATCHes")
		e.call(reader.Token, "PATCH", path, `{"title":"Mine"}`).wantError(http.StatusForbidden)
		e.call(outsider.Token, "PATCH", path, `{"title":"Mine"}`).wantError(http.StatusNotFound)
		e.call(editor.Token, "PATCH", "/spaces/nope", `{"title":"Mine"}`).wantError(http.StatusNotFound)

		// Admins change the rest.
		got = e.call(o.admin.Token, "PATCH", path, `{"editMode":"locked","defaultLevel":"comment","language":"de",
			"mergeRules":{"type":"rules","rules":[{"rule":"require_specific_reviewers","users":["`+editor.ID+`"]},{"rule":"require_change_request_subject"}]}}`).want(http.StatusOK).object()
		if got["editMode"] != "locked" || got["defaultLevel"] != "comment" || got["language"] != "de" || got["title"] != "Team handbook" {
			t.Errorf("after the admin's PATCH: %v", got)
		}
		golden(t, "space_updated", e.call(o.admin.Token, "GET", path, nil).want(http.StatusOK).Body)
		if after := get(); string(after) == string(before) {
			t.Error("the admin's PATCH changed nothing")
		}
		// null closes the space and clears the language.
		got = e.call(o.admin.Token, "PATCH", path, `{"defaultLevel":null,"language":null,"mergeRules":{"type":"inherit"}}`).want(http.StatusOK).object()
		if lvl, present := got["defaultLevel"]; !present || lvl != nil || got["language"] != nil || got["mergeRules"].(map[string]any)["type"] != "inherit" {
			t.Errorf("after nulls: defaultLevel %v (present %v), language %v, mergeRules %v", lvl, present, got["language"], got["mergeRules"])
		}
		o.wantSpaceRole(t, editor, "editor on a closed space", id, "")

		// Bad input answers 400 naming the field and changes nothing.
		wantUnchanged = e.snapshot(o.admin.Token, path)
		e.wantBadBodies(o.admin.Token, "PATCH", path,
			badBody{"title too long", `{"title":"` + strings.Repeat("a", 51) + `"}`, "title"},
			badBody{"title null", `{"title":null}`, "title"},
			badBody{"title not a string", `{"title":5}`, "title"},
			badBody{"emoji and icon", `{"emoji":"📘","icon":"https://acme.test/i.png"}`, "icon"},
			badBody{"emoji too long", `{"emoji":"` + strings.Repeat("x", 51) + `"}`, "emoji"},
			badBody{"icon not a URL", `{"icon":"not a url"}`, "icon"},
			badBody{"icon too long", `{"icon":"https://acme.test/` + strings.Repeat("a", 2040) + `"}`, "icon"},
			badBody{"unknown edit mode", `{"editMode":"draft"}`, "editMode"},
			badBody{"edit mode null", `{"editMode":null}`, "editMode"},
			badBody{"unknown default level", `{"defaultLevel":"owner"}`, "defaultLevel"},
			badBody{"unknown language", `{"language":"xx"}`, "language"},
			badBody{"merge rules null", `{"mergeRules":null}`, "mergeRules"},
			badBody{"unknown merge rule", `{"mergeRules":{"type":"rules","rules":[{"rule":"bogus"}]}}`, "mergeRules.rules[0].rule"},
			badBody{"reviewer not a member", `{"mergeRules":{"type":"rules","rules":[{"rule":"require_specific_reviewers","users":["nobody"]}]}}`, "mergeRules.rules[0].users[0]"},
			badBody{"malformed JSON", `{"title":`, "body"},
			badBody{"not an object", `[1]`, "body"},
			badBody{"no body", nil, "body"},
		)
		wantUnchanged("rejected PATCHes")

		// GraphQL: the same rules.
		other := o.space("", "Other")
		var data struct {
			UpdateSpace struct {
				Title, Emoji, EditMode string
				DefaultLevel           *string
				Permissions            struct{ Admin, Edit bool }
			}
		}
		e.gql(editor.Token, `mutation($id: ID!) { updateSpace(id: $id, input: {title: "Renamed", emoji: "🦄"}) { title emoji editMode defaultLevel permissions { admin edit } } }`,
			map[string]any{"id": other}).ok(&data)
		if u := data.UpdateSpace; u.Title != "Renamed" || u.Emoji != "🦄" || u.EditMode != "LIVE" || u.DefaultLevel == nil || *u.DefaultLevel != "INHERIT" || u.Permissions.Admin || !u.Permissions.Edit {
			t.Errorf("GraphQL editor update = %+v", u)
		}
		if got := e.call(reader.Token, "GET", "/spaces/"+other, nil).want(http.StatusOK).object(); got["title"] != "Renamed" || got["emoji"] != "🦄" {
			t.Errorf("REST after GraphQL update = %v", got)
		}
		space := map[string]any{"id": other}
		e.wantRefusals(`mutation($id: ID!) { updateSpace(id: $id, input: {defaultLevel: READ}) { id } }`,
			gqlRefusal{"editor defaultLevel", editor, space, "FORBIDDEN"})
		e.wantInvalid("emoji and icon", editor, `mutation($id: ID!) { updateSpace(id: $id, input: {emoji: "a", icon: "https://acme.test/i.png"}) { id } }`, space, "icon")
		e.wantInvalid("long title", editor, `mutation($id: ID!) { updateSpace(id: $id, input: {title: "`+strings.Repeat("a", 51)+`"}) { id } }`, space, "title")
		e.gql(o.admin.Token, `mutation($id: ID!) { updateSpace(id: $id, input: {defaultLevel: null, editMode: LOCKED}) { defaultLevel editMode } }`, map[string]any{"id": other}).ok(&data)
		if data.UpdateSpace.DefaultLevel != nil || data.UpdateSpace.EditMode != "LOCKED" {
			t.Errorf("GraphQL admin update = %+v", data.UpdateSpace)
		}
		e.wantRefusals(`mutation($id: ID!) { updateSpace(id: $id, input: {title: "x"}) { id } }`, gqlRefusal{"editor on a now closed space", editor, map[string]any{"id": other}, "NOT_FOUND"})
	})
}

// withoutUpdatedAt is a JSON object without its updatedAt field.
func withoutUpdatedAt(t *testing.T, body []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	delete(m, "updatedAt")
	out, _ := json.Marshal(m)
	return out
}

func TestDeleteAndRestoreSpace(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		creator := e.member(o.id, "creator@acme.test", "create")
		outsider := e.member("", "out@else.test", "")
		id := o.space("", "Doomed")
		o.space("", "Keeper")
		path := "/spaces/" + id
		titles := func(token string) string {
			t.Helper()
			pages, _ := o.listSpaces(token, "/orgs/"+o.id+"/spaces", 0)
			return strings.Join(pages, "|")
		}

		// Those who cannot administer the space cannot delete it: 403 when they see it, and when
		// they do not, the same 204 as for a missing space, changing nothing.
		e.call(reader.Token, "DELETE", path, nil).wantError(http.StatusForbidden)
		e.call(outsider.Token, "DELETE", path, nil).want(http.StatusNoContent)
		if got := titles(reader.Token); got != "Keeper,Doomed" {
			t.Fatalf("after refused deletes the reader sees %q", got)
		}

		e.call(o.admin.Token, "DELETE", path, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "GET", path, nil).wantError(http.StatusNotFound)
		e.call(reader.Token, "GET", path, nil).wantError(http.StatusNotFound)
		if got := titles(o.admin.Token); got != "Keeper" {
			t.Errorf("after delete the admin lists %q", got)
		}
		e.call(o.admin.Token, "DELETE", path, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", "/spaces/doesnotexist", nil).want(http.StatusNoContent)
		// A deleted space cannot be changed.
		e.call(o.admin.Token, "PATCH", path, `{"title":"Zombie"}`).wantError(http.StatusNotFound)

		// Restoring needs admin on the space too.
		e.call(reader.Token, "POST", path+"/restore", nil).wantError(http.StatusForbidden)
		e.call(outsider.Token, "POST", path+"/restore", nil).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "POST", "/spaces/doesnotexist/restore", nil).wantError(http.StatusNotFound)
		restored := e.call(o.admin.Token, "POST", path+"/restore", nil).want(http.StatusOK).object()
		if _, deleted := restored["deletedAt"]; restored["id"] != id || restored["title"] != "Doomed" || deleted {
			t.Errorf("restored = %v", restored)
		}
		if got := titles(reader.Token); got != "Keeper,Doomed" {
			t.Errorf("after restore the reader lists %q", got)
		}
		if got := e.call(reader.Token, "GET", path, nil).want(http.StatusOK).object(); got["title"] != "Doomed" {
			t.Errorf("GET after restore = %v", got)
		}
		// Restoring a live space returns it unchanged.
		e.call(o.admin.Token, "POST", path+"/restore", nil).want(http.StatusOK)

		// A creator administers their own space: they delete and restore it.
		own := o.newSpace(creator.Token, `{"title":"Mine"}`)["id"].(string)
		e.call(creator.Token, "DELETE", "/spaces/"+own, nil).want(http.StatusNoContent)
		e.call(creator.Token, "POST", "/spaces/"+own+"/restore", nil).want(http.StatusOK)

		// GraphQL: true when it was live, false after.
		var del struct{ DeleteSpace bool }
		e.wantRefusals(`mutation($id: ID!) { deleteSpace(id: $id) }`, gqlRefusal{"reader deleteSpace", reader, map[string]any{"id": id}, "FORBIDDEN"})
		e.gql(o.admin.Token, `mutation($id: ID!) { deleteSpace(id: $id) }`, map[string]any{"id": id}).ok(&del)
		if !del.DeleteSpace {
			t.Error("GraphQL deleteSpace = false, want true")
		}
		e.gql(o.admin.Token, `mutation($id: ID!) { deleteSpace(id: $id) }`, map[string]any{"id": id}).ok(&del)
		if del.DeleteSpace {
			t.Error("GraphQL deleteSpace again = true, want false")
		}
		e.wantRefusals(`query($id: ID!) { space(id: $id) { id } }`, gqlRefusal{"deleted space", o.admin, map[string]any{"id": id}, "NOT_FOUND"})
		var res struct {
			RestoreSpace struct {
				ID        string
				DeletedAt *string
			}
		}
		e.gql(o.admin.Token, `mutation($id: ID!) { restoreSpace(id: $id) { id deletedAt } }`, map[string]any{"id": id}).ok(&res)
		if res.RestoreSpace.ID != id || res.RestoreSpace.DeletedAt != nil {
			t.Errorf("GraphQL restoreSpace = %+v", res.RestoreSpace)
		}
		if got := titles(reader.Token); got != "Mine,Keeper,Doomed" {
			t.Errorf("after the GraphQL restore the reader lists %q", got)
		}
	})
}

// Reading spaces with their permissions and team grants costs the same statements whatever
// the number of spaces.
func TestSpaceListStatementsDoNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		team := o.team("Writers", reader)
		const q = `query($o: ID!) { organization(id: $o) { spaces(first: 100) { nodes { id permissions { admin } teamPermissions { nodes { permission team { id title } } } } } } }`
		count := func(wantSpaces int) (rest, gql int64) {
			t.Helper()
			var r, g atomic.Int64
			var l spaceList
			e.callCounted(o.admin.Token, "GET", "/orgs/"+o.id+"/spaces?limit=100", nil, &r).want(http.StatusOK).decode(&l)
			var data struct {
				Organization struct {
					Spaces struct {
						Nodes []struct {
							ID              string
							TeamPermissions struct{ Nodes []struct{ Permission string } }
						}
					}
				}
			}
			e.gqlCounted(o.admin.Token, q, map[string]any{"o": o.id}, &g).ok(&data)
			if len(l.Items) != wantSpaces || len(data.Organization.Spaces.Nodes) != wantSpaces {
				t.Fatalf("listed %d (REST) and %d (GraphQL) spaces, want %d", len(l.Items), len(data.Organization.Spaces.Nodes), wantSpaces)
			}
			return r.Load(), g.Load()
		}
		// Every space has a team grant, so that both counts load teams: the difference can only
		// come from the number of spaces.
		for i := range 5 {
			id := o.space("", fmt.Sprintf("Space %d", i))
			o.grantTeams("/spaces/"+id, "edit", team)
		}
		restFew, gqlFew := count(5)
		for i := range 95 {
			id := o.space("", fmt.Sprintf("Space %d", 5+i))
			o.grantTeams("/spaces/"+id, "edit", team)
		}
		restMany, gqlMany := count(100)
		if restMany != restFew {
			t.Errorf("REST space list statements grew with spaces: %d → %d", restFew, restMany)
		}
		if gqlMany != gqlFew {
			t.Errorf("GraphQL spaces with permissions and teamPermissions: statements grew with spaces: %d (5 spaces) → %d (100 spaces, a team grant on 95)", gqlFew, gqlMany)
		}
	})
}
