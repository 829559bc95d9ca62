package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

func TestInviteUsersByEmail(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		editor := e.member(orgID, "editor@acme.test", "edit")
		path := "/orgs/" + orgID + "/invites"

		var got struct {
			Users   []string
			Invited int
		}
		e.call(admin.Token, "POST", path, `{"emails":["new1@acme.test",{"email":"new2@acme.test","role":"edit"},"editor@acme.test"],"role":"comment"}`).
			want(http.StatusOK).decode(&got)
		if got.Invited != 2 || len(got.Users) != 2 {
			t.Fatalf("invite = %+v, want the 2 new addresses", got)
		}
		roles := map[string]any{}
		var list memberList
		e.call(admin.Token, "GET", "/orgs/"+orgID+"/members", nil).decode(&list)
		for _, m := range list.Items {
			roles[m.User.Email] = m.Role
			if m.Role != nil {
				roles[m.User.Email] = *m.Role
			}
		}
		if roles["new1@acme.test"] != "comment" || roles["new2@acme.test"] != "edit" || roles["editor@acme.test"] != "edit" {
			t.Errorf("roles after invite = %v", roles)
		}
		// Inviting again adds nobody; null role invites a guest.
		e.call(admin.Token, "POST", path, `{"emails":["new1@acme.test"]}`).want(http.StatusOK).decode(&got)
		if got.Invited != 0 || len(got.Users) != 0 {
			t.Errorf("re-invite = %+v", got)
		}
		e.call(admin.Token, "POST", path, `{"emails":["guest@acme.test"],"role":null}`).want(http.StatusOK)
		if m := e.call(admin.Token, "GET", "/orgs/"+orgID+"/members?role=guest", nil).object(); m["count"] != float64(1) {
			t.Errorf("guests after null-role invite = %v", m["count"])
		}

		e.wantBadBodies(admin.Token, "POST", path,
			badBody{"no emails", `{}`, "emails"},
			badBody{"empty emails", `{"emails":[]}`, "emails"},
			badBody{"not an address", `{"emails":["not-an-address"]}`, "emails[0]"},
			badBody{"the same address twice", `{"emails":["a@acme.test","A@acme.test"]}`, "emails[1]"},
			badBody{"unknown role", `{"emails":["a@acme.test"],"role":"x"}`, "role"},
			badBody{"unknown role of one address", `{"emails":[{"email":"a@acme.test","role":"boss"}]}`, "emails[0].role"},
			badBody{"emails not a list", `{"emails":"a@acme.test"}`, "emails"},
		)
		e.call(editor.Token, "POST", path, `{"emails":["x@acme.test"]}`).wantError(http.StatusForbidden)

		var data struct{ InviteUsersToOrganization struct{ Invited int } }
		e.gql(admin.Token, `mutation($o: ID!) { inviteUsersToOrganization(organizationId: $o, input: {emails: [{email: "gql@acme.test", role: READ}]}) { invited users } }`,
			map[string]any{"o": orgID}).ok(&data)
		if data.InviteUsersToOrganization.Invited != 1 {
			t.Errorf("GraphQL invite = %+v", data)
		}
		// An invited user gets a token from the operator and is a member.
		c, err := e.res.CreateToken(t.Context(), "gql@acme.test", 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.call(c.Token, "GET", "/orgs/"+orgID, nil).want(http.StatusOK).object()["permissions"].(map[string]any); got["listMembers"] != true {
			t.Errorf("invited reader permissions = %v", got)
		}
	})
}

func TestInviteLinks(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		editor := e.member(orgID, "editor@acme.test", "edit")
		joiner := e.member("", "joiner@else.test", "")
		links := "/orgs/" + orgID + "/link-invites"

		first := e.call(admin.Token, "POST", links, `{"role":"edit"}`).want(http.StatusCreated).object()
		second := e.call(admin.Token, "POST", links, `{"role":"edit"}`).want(http.StatusCreated).object()
		guestLink := e.call(admin.Token, "POST", links, `{"role":null}`).want(http.StatusCreated).object()
		if first["redundant"] != false || second["redundant"] != true || guestLink["role"] != nil || guestLink["object"] != "invite" {
			t.Errorf("links = %v / %v / %v", first, second, guestLink)
		}
		golden(t, "invite_link", e.call(admin.Token, "POST", links, `{}`).want(http.StatusCreated).Body)

		var page struct {
			Items []map[string]any
			Count int
		}
		e.call(admin.Token, "GET", links, nil).want(http.StatusOK).decode(&page)
		if page.Count != 4 || page.Items[3]["id"] != first["id"] {
			t.Errorf("link list = %+v", page)
		}
		e.call(editor.Token, "GET", links, nil).wantError(http.StatusForbidden)
		e.call(editor.Token, "POST", links, `{"role":"admin"}`).wantError(http.StatusForbidden)
		for _, body := range []string{`{"role":"boss"}`, `{"space":"s1","level":"read"}`, `{"collection":"c1","level":"read"}`, `[]`} {
			e.call(admin.Token, "POST", links, body).wantError(http.StatusBadRequest)
		}

		// Holding the link is the permission to join with its role.
		joined := e.call(joiner.Token, "POST", "/orgs/"+orgID+"/invites/"+first["id"].(string), nil).want(http.StatusOK).object()
		if joined["role"] != "edit" || joined["id"] != joiner.ID {
			t.Errorf("joined member = %v", joined)
		}
		e.call(joiner.Token, "GET", "/orgs/"+orgID, nil).want(http.StatusOK)
		// A current member keeps their role.
		e.call(editor.Token, "POST", "/orgs/"+orgID+"/invites/"+guestLink["id"].(string), nil).want(http.StatusOK)
		if r := e.call(admin.Token, "GET", "/orgs/"+orgID+"/members/"+editor.ID, nil).object()["role"]; r != "edit" {
			t.Errorf("editor's role after joining again = %v", r)
		}
		e.call(joiner.Token, "POST", "/orgs/"+orgID+"/invites/unknown", nil).wantError(http.StatusNotFound)

		// Deleting is idempotent and the link stops working.
		del := links + "/" + second["id"].(string)
		e.call(editor.Token, "DELETE", del, nil).wantError(http.StatusForbidden)
		e.call(admin.Token, "DELETE", del, nil).want(http.StatusNoContent)
		e.call(admin.Token, "DELETE", del, nil).want(http.StatusNoContent)
		late := e.member("", "late@else.test", "")
		e.call(late.Token, "POST", "/orgs/"+orgID+"/invites/"+second["id"].(string), nil).wantError(http.StatusNotFound)

		// Turning invite links off stops both creating and using them.
		e.call(admin.Token, "PATCH", "/orgs/"+orgID, `{"inviteLinks":false}`).want(http.StatusOK)
		e.call(admin.Token, "POST", links, `{"role":"read"}`).wantError(http.StatusBadRequest)
		e.call(late.Token, "POST", "/orgs/"+orgID+"/invites/"+first["id"].(string), nil).wantError(http.StatusBadRequest)
		e.call(admin.Token, "PATCH", "/orgs/"+orgID, `{"inviteLinks":true}`).want(http.StatusOK)

		var data struct {
			CreateInviteLink struct {
				ID   string
				Role *string
			}
		}
		e.gql(admin.Token, `mutation($o: ID!) { createInviteLink(organizationId: $o, input: {role: READ}) { id role } }`, map[string]any{"o": orgID}).ok(&data)
		var listed struct {
			Organization struct{ InviteLinkList struct{ TotalCount int } }
		}
		e.gql(admin.Token, `query($o: ID!) { organization(id: $o) { inviteLinkList { totalCount } } }`, map[string]any{"o": orgID}).ok(&listed)
		if listed.Organization.InviteLinkList.TotalCount != 4 {
			t.Errorf("GraphQL link count = %d, want 4", listed.Organization.InviteLinkList.TotalCount)
		}
		var joinedGQL struct{ JoinOrganizationWithInvite struct{ Role *string } }
		e.gql(late.Token, `mutation($o: ID!, $i: ID!) { joinOrganizationWithInvite(organizationId: $o, inviteId: $i) { role } }`, map[string]any{"o": orgID, "i": data.CreateInviteLink.ID}).ok(&joinedGQL)
		if joinedGQL.JoinOrganizationWithInvite.Role == nil || *joinedGQL.JoinOrganizationWithInvite.Role != "READ" {
			t.Errorf("GraphQL join = %+v", joinedGQL)
		}
		var deleted struct{ DeleteInviteLink bool }
		e.gql(admin.Token, `mutation($o: ID!, $i: ID!) { deleteInviteLink(organizationId: $o, inviteId: $i) }`, map[string]any{"o": orgID, "i": data.CreateInviteLink.ID}).ok(&deleted)
		if !deleted.DeleteInviteLink {
			t.Error("GraphQL deleteInviteLink = false")
		}
	})
}

func TestJoinByEmailDomain(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		e.call(admin.Token, "PATCH", "/orgs/"+orgID, `{"emailDomains":["acme.test"],"defaultRole":"comment"}`).want(http.StatusOK)
		colleague := e.member("", "colleague@acme.test", "")
		stranger := e.member("", "someone@else.test", "")

		// Someone whose domain is not allowed cannot tell the organization exists.
		e.call(stranger.Token, "POST", "/orgs/"+orgID+"/join", nil).wantError(http.StatusNotFound)
		e.call(stranger.Token, "POST", "/orgs/nope/join", nil).wantError(http.StatusNotFound)

		e.call(colleague.Token, "POST", "/orgs/"+orgID+"/join", nil).want(http.StatusNoContent)
		if r := e.call(admin.Token, "GET", "/orgs/"+orgID+"/members/"+colleague.ID, nil).want(http.StatusOK).object()["role"]; r != "comment" {
			t.Errorf("joined with role %v, want the default role comment", r)
		}
		e.call(colleague.Token, "POST", "/orgs/"+orgID+"/join", nil).want(http.StatusNoContent) // already a member

		// Invited addresses are unverified: their domain alone does not let them join.
		otherID, otherAdmin := e.org("Other", "boss@other.test")
		e.call(otherAdmin.Token, "POST", "/orgs/"+otherID+"/invites", `{"emails":["pending@acme.test"]}`).want(http.StatusOK)
		c, err := e.res.CreateToken(t.Context(), "pending@acme.test", 0)
		if err != nil {
			t.Fatal(err)
		}
		if msg := e.call(c.Token, "POST", "/orgs/"+orgID+"/join", nil).wantError(http.StatusBadRequest); !strings.Contains(msg, "verified") {
			t.Errorf("unverified join message = %q", msg)
		}

		var data struct{ JoinOrganization struct{ Role *string } }
		late := e.member("", "late@acme.test", "")
		e.gql(late.Token, `mutation($o: ID!) { joinOrganization(id: $o) { role } }`, map[string]any{"o": orgID}).ok(&data)
		if data.JoinOrganization.Role == nil || *data.JoinOrganization.Role != "COMMENT" {
			t.Errorf("GraphQL join = %+v", data)
		}
		e.wantRefusals(`mutation($o: ID!) { joinOrganization(id: $o) { role } }`, gqlRefusal{"stranger join", stranger, map[string]any{"o": orgID}, "NOT_FOUND"})
	})
}

func TestOrganizationsForEmailDomain(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		acmeID, acmeAdmin := e.org("Acme", "admin@acme.test")
		e.call(acmeAdmin.Token, "PATCH", "/orgs/"+acmeID, `{"emailDomains":["acme.test"]}`).want(http.StatusOK)
		otherID, otherAdmin := e.org("Other", "admin@other.test")
		e.call(otherAdmin.Token, "PATCH", "/orgs/"+otherID, `{"emailDomains":["acme.test","other.test"]}`).want(http.StatusOK)
		e.org("Unlisted", "admin@unlisted.test")

		titles := func(token, domain string) string {
			t.Helper()
			var body struct{ Organizations []struct{ Title string } }
			e.call(token, "GET", "/email-domains/"+domain+"/orgs", nil).want(http.StatusOK).decode(&body)
			var out []string
			for _, o := range body.Organizations {
				out = append(out, o.Title)
			}
			return strings.Join(out, ",")
		}
		colleague := e.member("", "new@acme.test", "")
		outsider := e.member("", "x@elsewhere.test", "")
		if got := titles(colleague.Token, "acme.test"); got != "Acme,Other" {
			t.Errorf("own domain = %q, want both organizations allowing it", got)
		}
		if got := titles(outsider.Token, "acme.test"); got != "" {
			t.Errorf("someone else's domain = %q, want nothing", got)
		}
		if got := titles(otherAdmin.Token, "acme.test"); got != "Other" {
			t.Errorf("member asking about another domain = %q, want only their own organization", got)
		}
		if got := titles(colleague.Token, "unlisted.test"); got != "" {
			t.Errorf("unlisted = %q", got)
		}
		e.call(colleague.Token, "GET", "/email-domains/not%20a%20domain/orgs", nil).wantError(http.StatusBadRequest)

		var data struct {
			OrganizationsForEmailDomain []struct {
				Title       string
				Permissions struct{ View bool }
			}
		}
		e.gql(colleague.Token, `{ organizationsForEmailDomain(emailDomain: "ACME.test") { title permissions { view } } }`, nil).ok(&data)
		if len(data.OrganizationsForEmailDomain) != 2 || data.OrganizationsForEmailDomain[0].Permissions.View {
			t.Errorf("GraphQL = %+v (a non-member may not view)", data)
		}
	})
}

func TestContentInviteLinks(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		creator := e.member(orgID, "creator@acme.test", "create")
		editor := e.member(orgID, "editor@acme.test", "edit")
		links := "/orgs/" + orgID + "/link-invites"
		space := e.call(creator.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Guide"}`).want(http.StatusCreated).object()["id"].(string)
		collection := e.call(admin.Token, "POST", "/orgs/"+orgID+"/collections", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
		inside := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Inside","parent":"`+collection+`"}`).want(http.StatusCreated).object()["id"].(string)

		// The space's creator administers it, so they may invite to it; an editor may not.
		link := e.call(creator.Token, "POST", links, `{"space":"`+space+`","level":"edit"}`).want(http.StatusCreated)
		golden(t, "invite_link_space", link.Body)
		spaceLink := link.object()
		if spaceLink["level"] != "edit" || spaceLink["space"].(map[string]any)["id"] != space || spaceLink["redundant"] != false {
			t.Errorf("space link = %v", spaceLink)
		}
		if _, hasRole := spaceLink["role"]; hasRole {
			t.Errorf("a space link carries a role: %v", spaceLink)
		}
		if again := e.call(creator.Token, "POST", links, `{"space":"`+space+`","level":"edit"}`).want(http.StatusCreated).object(); again["redundant"] != true {
			t.Errorf("a second identical link is not redundant: %v", again)
		}
		e.call(editor.Token, "POST", links, `{"space":"`+space+`","level":"read"}`).wantError(http.StatusForbidden)
		e.wantBadBodies(admin.Token, "POST", links,
			badBody{"no level", `{"space":"` + space + `"}`, "level"},
			badBody{"level null", `{"space":"` + space + `","level":null}`, "level"},
			badBody{"role with a space", `{"space":"` + space + `","role":"read","level":"read"}`, "role"},
			badBody{"space and collection", `{"space":"` + space + `","collection":"` + collection + `","level":"read"}`, "space"},
			badBody{"unknown space", `{"space":"nope","level":"read"}`, "space"},
			badBody{"unknown collection", `{"collection":"nope","level":"read"}`, "collection"},
			badBody{"no space or collection", `{"level":"read"}`, "level"},
		)

		// Joining through a space link makes a guest who can edit that space and nothing else.
		joiner := e.member("", "joiner@else.test", "")
		joined := e.call(joiner.Token, "POST", "/orgs/"+orgID+"/invites/"+spaceLink["id"].(string), nil).want(http.StatusOK).object()
		if joined["role"] != nil {
			t.Errorf("joined through a space link with role %v, want guest", joined["role"])
		}
		perms := e.call(joiner.Token, "GET", "/spaces/"+space, nil).want(http.StatusOK).object()["permissions"].(map[string]any)
		if perms["edit"] != true || perms["admin"] != false {
			t.Errorf("joiner's permissions on the space = %v", perms)
		}
		e.call(joiner.Token, "GET", "/spaces/"+inside, nil).wantError(http.StatusNotFound)

		// A collection link reaches the spaces inside it.
		colLink := e.call(admin.Token, "POST", links, `{"collection":"`+collection+`","level":"read"}`).want(http.StatusCreated).object()
		e.call(joiner.Token, "POST", "/orgs/"+orgID+"/invites/"+colLink["id"].(string), nil).want(http.StatusOK)
		e.call(joiner.Token, "GET", "/spaces/"+inside, nil).want(http.StatusOK)

		// A higher grant of one's own is kept when joining through a lower link.
		readLink := e.call(admin.Token, "POST", links, `{"space":"`+space+`","level":"read"}`).want(http.StatusCreated).object()
		e.call(joiner.Token, "POST", "/orgs/"+orgID+"/invites/"+readLink["id"].(string), nil).want(http.StatusOK)
		if perms := e.call(joiner.Token, "GET", "/spaces/"+space, nil).object()["permissions"].(map[string]any); perms["edit"] != true {
			t.Errorf("a read link lowered an edit grant: %v", perms)
		}

		// REST lists the organization's own links, as the contract shapes them; GraphQL lists the
		// content links on request.
		if n := e.call(admin.Token, "GET", links, nil).want(http.StatusOK).object()["count"]; n != float64(0) {
			t.Errorf("REST lists %v links, want only organization links (none)", n)
		}
		var listed struct {
			Organization struct {
				InviteLinkList struct {
					Nodes []struct {
						Level      *string
						Space      *struct{ ID string }
						Collection *struct{ ID string }
					}
				}
			}
		}
		e.gql(admin.Token, `query($o: ID!) { organization(id: $o) { inviteLinkList(content: true) { nodes { level space { id } collection { id } } } } }`,
			map[string]any{"o": orgID}).ok(&listed)
		kinds := map[string]int{}
		for _, l := range listed.Organization.InviteLinkList.Nodes {
			switch {
			case l.Space != nil:
				kinds["space"]++
			case l.Collection != nil:
				kinds["collection"]++
			}
		}
		if kinds["space"] != 3 || kinds["collection"] != 1 {
			t.Errorf("content link kinds listed = %v", kinds)
		}

		var data struct {
			CreateInviteLink struct {
				ID    string
				Level *string
				Role  *string
				Space struct{ ID string }
			}
		}
		e.gql(admin.Token, `mutation($o: ID!, $s: ID!) { createInviteLink(organizationId: $o, input: {space: $s, level: COMMENT}) { id level role space { id } } }`,
			map[string]any{"o": orgID, "s": space}).ok(&data)
		if l := data.CreateInviteLink; l.Level == nil || *l.Level != "COMMENT" || l.Role != nil || l.Space.ID != space {
			t.Errorf("GraphQL space link = %+v", l)
		}
		late := e.member("", "late@else.test", "")
		e.gql(late.Token, `mutation($o: ID!, $i: ID!) { joinOrganizationWithInvite(organizationId: $o, inviteId: $i) { role } }`, map[string]any{"o": orgID, "i": data.CreateInviteLink.ID}).ok(nil)
		var sp struct {
			Space struct{ Permissions struct{ Comment, Edit bool } }
		}
		e.gql(late.Token, `query($s: ID!) { space(id: $s) { permissions { comment edit } } }`, map[string]any{"s": space}).ok(&sp)
		if !sp.Space.Permissions.Comment || sp.Space.Permissions.Edit {
			t.Errorf("GraphQL joiner permissions = %+v", sp.Space.Permissions)
		}
		e.wantRefusals(`mutation($o: ID!, $s: ID!) { createInviteLink(organizationId: $o, input: {space: $s, level: READ}) { id } }`, gqlRefusal{"editor space link", editor, map[string]any{"o": orgID, "s": space}, "FORBIDDEN"})
	})
}
