package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/bindery/bindery/rest"
)

// Who may call what: every /v1 route, for every kind of caller, through both doors. A route
// missing from the matrix fails TestEveryRouteIsInTheMatrix.

// policy names who may use an endpoint.
type policy int

const (
	anyone               policy = iota // any authenticated user
	member                             // any member of the organization, guests included
	insider                            // members with a role (not guests)
	adminOnly                          // organization admins
	linkHolder                         // whoever holds the invite link's id
	creator                            // members with the create role (guests and lower roles: 403)
	teamManager                        // organization admins (the fixtures' teams have no other owner)
	contentReader                      // readers of the content; guests do not see it (404)
	contentEditor                      // editors of the content; lower readers 403, guests 404
	contentAdmin                       // admins of the content; other readers 403, guests 404
	contentDelete                      // contentAdmin, except that unseen content answers 204 like missing
	siteEditor                         // the create role manages sites (guests and lower roles: 403)
	contentCommenter                   // the comment role on the content; readers 403, guests 404
	contentReviewer                    // the review role on the content; lower readers 403, guests 404
	contentEditorDelete                // contentEditor, except that unseen content answers 204 like missing
	contentCreator                     // readers of the content with the create role in the organization; lower readers 403, guests 404
	contentCreatorDelete               // contentCreator, except that unseen content answers 204 like missing
	tokenOwner                         // only the token's owner, who is none of the matrix's callers: 404
	siteEditorDelete                   // siteEditor, except that outsiders' unseen host names answer 204 like missing
)

var roles = []string{"admin", "create", "edit", "review", "comment", "read", "guest", "non-member", "other-org", "read-token", "space-token"}

// rank orders the organization roles of the matrix; guests rank 0.
var rank = map[string]int{"read": 1, "comment": 2, "review": 3, "edit": 4, "create": 5, "admin": 6}

// expect is the status a caller with role gets from an endpoint whose success status is ok. The
// fixtures' content inherits the organization role, so a member's role on it is their own.
func (p policy) expect(role string, ok int) int {
	outsider := role == "non-member" || role == "other-org"
	guest := role == "guest"
	switch {
	case p == tokenOwner:
		return http.StatusNotFound
	case p == siteEditorDelete && outsider:
		return http.StatusNoContent
	case p == anyone || p == linkHolder:
		return ok
	case (p == contentDelete || p == contentEditorDelete || p == contentCreatorDelete) && (outsider || guest):
		return http.StatusNoContent
	case outsider, guest && (p == contentReader || p == contentEditor || p == contentAdmin || p == contentCommenter || p == contentReviewer || p == contentCreator):
		return http.StatusNotFound
	case p == member, p == insider && !guest, p == adminOnly && role == "admin", p == teamManager && role == "admin",
		(p == creator || p == siteEditor || p == siteEditorDelete) && rank[role] >= rank["create"], p == contentReader, p == contentEditor && rank[role] >= rank["edit"],
		(p == contentAdmin || p == contentDelete) && role == "admin",
		p == contentCommenter && rank[role] >= rank["comment"], p == contentReviewer && rank[role] >= rank["review"],
		p == contentEditorDelete && rank[role] >= rank["edit"],
		(p == contentCreator || p == contentCreatorDelete) && rank[role] >= rank["create"]:
		return ok
	}
	return http.StatusForbidden
}

// fixture is what a matrix case acts on: created per case, so cases do not disturb each other.
type fixture struct {
	org, admin, victim, invite string
	space, collection, team    string
	site, siteSpace, shareLink string
	redirect                   string // a redirect of the site from /old
	mcpServer                  string // an MCP server of the site
	hostname                   string // the site's own host name
	page, file                 string
	reusableContent            string // a reusable content of the space, seen by its change request and revision
	changeRequest, revision    string
	document                   string // the document of the fixture page, by its id
	section, group             string
	// A comment with a reply on the space and on the change request, and a review of it.
	comment, reply, crComment, crReply, review string
	// An API token of the victim's.
	token                      string
	translation, glossaryEntry string
	// An OpenAPI specification with a version; an integration installed on the organization.
	spec, specVersion, integration, installation string
	samlProvider                                 string
	// A webhook with a logged delivery; an audit event.
	webhook, delivery, auditEvent string
	// An uploaded font file and a custom font made of it.
	fontKey, font string
}

type matrixCase struct {
	method, path string // the route, as in rest.Routes()
	policy       policy
	ok           int
	url          func(f fixture) string
	body         string
	gql          string // the GraphQL twin; $o, $u and $i are the organization, victim and invite
}

var matrix = []matrixCase{
	{"GET", "/", anyone, 200, fixed("/"), "", `{ apiInformation { version } }`},
	{"GET", "/user", anyone, 200, fixed("/user"), "", `{ viewer { id } }`},
	{"GET", "/user/tokens", anyone, 200, fixed("/user/tokens"), "", `{ apiTokens { id } }`},
	{"DELETE", "/user/tokens/{tokenId}", tokenOwner, 204, func(f fixture) string { return "/user/tokens/" + f.token }, "", `mutation($tk: ID!) { revokeAPIToken(id: $tk) }`},
	{"GET", "/users/{userId}", member, 200, func(f fixture) string { return "/users/" + f.admin }, "", `query($a: ID!) { user(id: $a) { id } }`},
	{"GET", "/orgs", anyone, 200, fixed("/orgs"), "", `{ organizations { totalCount } }`},
	{"GET", "/orgs/{organizationId}", member, 200, org(""), "", `query($o: ID!) { organization(id: $o) { id } }`},
	{"PATCH", "/orgs/{organizationId}", adminOnly, 200, org(""), `{"ai":true}`, `mutation($o: ID!) { updateOrganization(id: $o, input: {ai: true}) { id } }`},
	{"POST", "/orgs/{organizationId}/join", member, 204, org("/join"), "", `mutation($o: ID!) { joinOrganization(id: $o) { id } }`},
	{"GET", "/email-domains/{emailDomain}/orgs", anyone, 200, fixed("/email-domains/matrix.test/orgs"), "", `{ organizationsForEmailDomain(emailDomain: "matrix.test") { id } }`},
	{"GET", "/orgs/{organizationId}/agent-instructions", member, 200, org("/agent-instructions"), "", `query($o: ID!) { organization(id: $o) { agentInstructions { updatedBy } } }`},
	{"PUT", "/orgs/{organizationId}/agent-instructions", adminOnly, 200, org("/agent-instructions"), `{"instructions":{"object":"document","data":{},"nodes":[]}}`,
		`mutation($o: ID!) { updateAgentInstructions(organizationId: $o, input: {instructions: {object: "document", data: {}, nodes: []}}) { updatedBy } }`},
	{"GET", "/orgs/{organizationId}/members", insider, 200, org("/members"), "", `query($o: ID!) { organization(id: $o) { members { totalCount } } }`},
	{"GET", "/orgs/{organizationId}/members/{userId}", insider, 200, func(f fixture) string { return "/orgs/" + f.org + "/members/" + f.admin }, "",
		`query($o: ID!, $a: ID!) { organization(id: $o) { member(userId: $a) { id } } }`},
	{"PATCH", "/orgs/{organizationId}/members/{userId}", adminOnly, 200, victim(""), `{"role":"comment"}`,
		`mutation($o: ID!, $u: ID!) { updateMember(organizationId: $o, userId: $u, input: {role: COMMENT}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/members/{userId}", adminOnly, 204, victim(""), "", `mutation($o: ID!, $u: ID!) { removeMember(organizationId: $o, userId: $u) }`},
	{"POST", "/orgs/{organizationId}/members/{userId}/sso", adminOnly, 200, victim("/sso"), "", `mutation($o: ID!, $u: ID!) { setMemberSSO(organizationId: $o, userId: $u) { id } }`},
	{"GET", "/orgs/{organizationId}/sso", member, 200, org("/sso"), "", `query($o: ID!) { organization(id: $o) { ssoProviderLogins { items { id } } } }`},
	{"GET", "/orgs/{organizationId}/saml", adminOnly, 200, org("/saml"), "", `query($o: ID!) { organization(id: $o) { samlProviders { totalCount } } }`},
	{"POST", "/orgs/{organizationId}/saml", adminOnly, 201, org("/saml"), `{"label":"Okta"}`,
		`mutation($o: ID!) { createSAMLProvider(organizationId: $o, input: {label: "Okta"}) { id } }`},
	{"GET", "/orgs/{organizationId}/saml/{samlProviderId}", adminOnly, 200, samlProvider, "",
		`query($o: ID!, $saml: ID!) { organization(id: $o) { samlProvider(id: $saml) { id } } }`},
	{"PATCH", "/orgs/{organizationId}/saml/{samlProviderId}", adminOnly, 200, samlProvider, `{"label":"Entra"}`,
		`mutation($o: ID!, $saml: ID!) { updateSAMLProvider(organizationId: $o, id: $saml, input: {label: "Entra"}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/saml/{samlProviderId}", adminOnly, 205, samlProvider, "",
		`mutation($o: ID!, $saml: ID!) { deleteSAMLProvider(organizationId: $o, id: $saml) }`},
	{"POST", "/orgs/{organizationId}/ping", member, 200, org("/ping"), "", `mutation($o: ID!) { pingOrganization(organizationId: $o) { gitbookVisitorClaims } }`},
	{"POST", "/orgs/{organizationId}/invites", adminOnly, 200, org("/invites"), `{"emails":["invitee@matrix.test"]}`,
		`mutation($o: ID!) { inviteUsersToOrganization(organizationId: $o, input: {emails: [{email: "invitee@matrix.test"}]}) { invited } }`},
	{"POST", "/orgs/{organizationId}/invites/{inviteId}", linkHolder, 200, func(f fixture) string { return "/orgs/" + f.org + "/invites/" + f.invite }, "",
		`mutation($o: ID!, $i: ID!) { joinOrganizationWithInvite(organizationId: $o, inviteId: $i) { id } }`},
	{"GET", "/orgs/{organizationId}/link-invites", adminOnly, 200, org("/link-invites"), "", `query($o: ID!) { organization(id: $o) { inviteLinkList { totalCount } } }`},
	{"POST", "/orgs/{organizationId}/link-invites", adminOnly, 201, org("/link-invites"), `{"role":"read"}`, `mutation($o: ID!) { createInviteLink(organizationId: $o, input: {role: READ}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/link-invites/{inviteId}", adminOnly, 204, func(f fixture) string { return "/orgs/" + f.org + "/link-invites/" + f.invite }, "",
		`mutation($o: ID!, $i: ID!) { deleteInviteLink(organizationId: $o, inviteId: $i) }`},
	{"GET", "/orgs/{organizationId}/members/{userId}/teams", insider, 200, func(f fixture) string { return "/orgs/" + f.org + "/members/" + f.admin + "/teams" }, "",
		`query($o: ID!, $a: ID!) { organization(id: $o) { member(userId: $a) { teamMemberships { totalCount } } } }`},
	{"GET", "/orgs/{organizationId}/members/{userId}/spaces", insider, 200, func(f fixture) string { return "/orgs/" + f.org + "/members/" + f.admin + "/spaces" }, "",
		`query($o: ID!, $a: ID!) { organization(id: $o) { member(userId: $a) { accessibleSpaces { totalCount } } } }`},

	{"POST", "/orgs/{organizationId}/spaces", creator, 201, org("/spaces"), `{"title":"New"}`, `mutation($o: ID!) { createSpace(organizationId: $o, input: {title: "New"}) { id } }`},
	{"GET", "/orgs/{organizationId}/spaces", member, 200, org("/spaces"), "", `query($o: ID!) { organization(id: $o) { spaces { totalCount } } }`},
	{"GET", "/spaces/{spaceId}", contentReader, 200, space(""), "", `query($s: ID!) { space(id: $s) { id } }`},
	{"PATCH", "/spaces/{spaceId}", contentEditor, 200, space(""), `{"title":"Renamed"}`, `mutation($s: ID!) { updateSpace(id: $s, input: {title: "Renamed"}) { id } }`},
	{"DELETE", "/spaces/{spaceId}", contentDelete, 204, space(""), "", `mutation($s: ID!) { deleteSpace(id: $s) }`},
	{"POST", "/spaces/{spaceId}/restore", contentAdmin, 200, space("/restore"), "", `mutation($s: ID!) { restoreSpace(id: $s) { id } }`},

	{"POST", "/spaces/{spaceId}/git/import", contentEditor, 204, space("/git/import"), `{"url":"https://93.184.216.34/docs.git","ref":"refs/heads/main"}`,
		`mutation($s: ID!) { importGitRepository(spaceId: $s, input: {url: "https://93.184.216.34/docs.git", ref: "refs/heads/main"}) { id } }`},
	{"POST", "/spaces/{spaceId}/git/export", contentEditor, 204, space("/git/export"), `{"url":"https://93.184.216.34/docs.git","ref":"refs/heads/main","commitMessage":"Sync"}`,
		`mutation($s: ID!) { exportToGitRepository(spaceId: $s, input: {url: "https://93.184.216.34/docs.git", ref: "refs/heads/main", commitMessage: "Sync"}) { id } }`},
	{"GET", "/spaces/{spaceId}/git/info", contentReader, 200, space("/git/info"), "", `query($s: ID!) { space(id: $s) { gitSyncJobs { totalCount } } }`},
	{"DELETE", "/spaces/{spaceId}/git/legacy-installation", contentEditor, 204, space("/git/legacy-installation"), "", `mutation($s: ID!) { deleteLegacyGitInstallation(spaceId: $s) }`},

	{"POST", "/orgs/{organizationId}/collections", creator, 201, org("/collections"), `{"title":"New"}`, `mutation($o: ID!) { createCollection(organizationId: $o, input: {title: "New"}) { id } }`},
	{"GET", "/orgs/{organizationId}/collections", member, 200, org("/collections"), "", `query($o: ID!) { organization(id: $o) { collections { totalCount } } }`},
	{"GET", "/collections/{collectionId}", contentReader, 200, collection(""), "", `query($c: ID!) { collection(id: $c) { id } }`},
	{"PATCH", "/collections/{collectionId}", contentAdmin, 200, collection(""), `{"title":"Renamed"}`, `mutation($c: ID!) { updateCollection(id: $c, input: {title: "Renamed"}) { id } }`},
	{"DELETE", "/collections/{collectionId}", contentDelete, 204, collection(""), "", `mutation($c: ID!) { deleteCollection(id: $c) }`},
	{"GET", "/collections/{collectionId}/spaces", contentReader, 200, collection("/spaces"), "", `query($c: ID!) { collection(id: $c) { spaces { totalCount } } }`},

	{"PUT", "/orgs/{organizationId}/teams", creator, 201, org("/teams"), `{"title":"New"}`, `mutation($o: ID!) { createTeam(organizationId: $o, input: {title: "New"}) { id } }`},
	{"GET", "/orgs/{organizationId}/teams", insider, 200, org("/teams"), "", `query($o: ID!) { organization(id: $o) { teams { totalCount } } }`},
	{"GET", "/orgs/{organizationId}/teams/{teamId}", insider, 200, team(""), "", `query($o: ID!, $t: ID!) { organization(id: $o) { team(id: $t) { id } } }`},
	{"PATCH", "/orgs/{organizationId}/teams/{teamId}", teamManager, 200, team(""), `{"title":"Renamed"}`, `mutation($o: ID!, $t: ID!) { updateTeam(organizationId: $o, teamId: $t, input: {title: "Renamed"}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/teams/{teamId}", teamManager, 204, team(""), "", `mutation($o: ID!, $t: ID!) { deleteTeam(organizationId: $o, teamId: $t) }`},
	{"GET", "/orgs/{organizationId}/teams/{teamId}/members", insider, 200, team("/members"), "", `query($o: ID!, $t: ID!) { organization(id: $o) { team(id: $t) { memberList { totalCount } } } }`},
	{"PUT", "/orgs/{organizationId}/teams/{teamId}/members", teamManager, 204, team("/members"), `{"add":["admin@matrix.test"]}`,
		`mutation($o: ID!, $t: ID!) { updateTeamMembers(organizationId: $o, teamId: $t, input: {add: ["admin@matrix.test"]}) { id } }`},
	{"PUT", "/orgs/{organizationId}/teams/{teamId}/members/{userId}", teamManager, 204, func(f fixture) string { return "/orgs/" + f.org + "/teams/" + f.team + "/members/" + f.victim }, "",
		`mutation($o: ID!, $t: ID!, $u: ID!) { setTeamMember(organizationId: $o, teamId: $t, userId: $u, input: {}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/teams/{teamId}/members/{userId}", teamManager, 204, func(f fixture) string { return "/orgs/" + f.org + "/teams/" + f.team + "/members/" + f.victim }, "",
		`mutation($o: ID!, $t: ID!, $u: ID!) { removeTeamMember(organizationId: $o, teamId: $t, userId: $u) }`},

	{"POST", "/spaces/{spaceId}/permissions", contentAdmin, 204, space("/permissions"), `{"role":"read","users":["VICTIM"]}`,
		`mutation($s: ID!, $u: ID!) { grantSpaceAccess(spaceId: $s, input: {role: READ, users: [$u]}) { id } }`},
	{"GET", "/spaces/{spaceId}/permissions/users", contentReader, 200, space("/permissions/users"), "", `query($s: ID!) { space(id: $s) { userPermissions { totalCount } } }`},
	{"PATCH", "/spaces/{spaceId}/permissions/users/{userId}", contentAdmin, 204, func(f fixture) string { return "/spaces/" + f.space + "/permissions/users/" + f.victim }, `{"role":"comment"}`,
		`mutation($s: ID!, $u: ID!) { updateSpaceUserPermission(spaceId: $s, userId: $u, input: {role: COMMENT}) }`},
	{"DELETE", "/spaces/{spaceId}/permissions/users/{userId}", contentAdmin, 204, func(f fixture) string { return "/spaces/" + f.space + "/permissions/users/" + f.victim }, "",
		`mutation($s: ID!, $u: ID!) { removeSpaceUserPermission(spaceId: $s, userId: $u) }`},
	{"GET", "/spaces/{spaceId}/permissions/teams", contentReader, 200, space("/permissions/teams"), "", `query($s: ID!) { space(id: $s) { teamPermissions { totalCount } } }`},
	{"PATCH", "/spaces/{spaceId}/permissions/teams/{teamId}", contentAdmin, 204, func(f fixture) string { return "/spaces/" + f.space + "/permissions/teams/" + f.team }, `{"role":"comment"}`,
		`mutation($s: ID!, $t: ID!) { updateSpaceTeamPermission(spaceId: $s, teamId: $t, input: {role: COMMENT}) }`},
	{"DELETE", "/spaces/{spaceId}/permissions/teams/{teamId}", contentAdmin, 204, func(f fixture) string { return "/spaces/" + f.space + "/permissions/teams/" + f.team }, "",
		`mutation($s: ID!, $t: ID!) { removeSpaceTeamPermission(spaceId: $s, teamId: $t) }`},
	{"POST", "/collections/{collectionId}/permissions", contentAdmin, 204, collection("/permissions"), `{"role":"read","users":["VICTIM"]}`,
		`mutation($c: ID!, $u: ID!) { grantCollectionAccess(collectionId: $c, input: {role: READ, users: [$u]}) { id } }`},
	{"GET", "/collections/{collectionId}/permissions/users", contentReader, 200, collection("/permissions/users"), "", `query($c: ID!) { collection(id: $c) { userPermissions { totalCount } } }`},
	{"PATCH", "/collections/{collectionId}/permissions/users/{userId}", contentAdmin, 204, func(f fixture) string { return "/collections/" + f.collection + "/permissions/users/" + f.victim }, `{"role":"comment"}`,
		`mutation($c: ID!, $u: ID!) { updateCollectionUserPermission(collectionId: $c, userId: $u, input: {role: COMMENT}) }`},
	{"DELETE", "/collections/{collectionId}/permissions/users/{userId}", contentAdmin, 204, func(f fixture) string { return "/collections/" + f.collection + "/permissions/users/" + f.victim }, "",
		`mutation($c: ID!, $u: ID!) { removeCollectionUserPermission(collectionId: $c, userId: $u) }`},
	{"GET", "/collections/{collectionId}/permissions/teams", contentReader, 200, collection("/permissions/teams"), "", `query($c: ID!) { collection(id: $c) { teamPermissions { totalCount } } }`},
	{"PATCH", "/collections/{collectionId}/permissions/teams/{teamId}", contentAdmin, 204, func(f fixture) string { return "/collections/" + f.collection + "/permissions/teams/" + f.team }, `{"role":"comment"}`,
		`mutation($c: ID!, $t: ID!) { updateCollectionTeamPermission(collectionId: $c, teamId: $t, input: {role: COMMENT}) }`},
	{"DELETE", "/collections/{collectionId}/permissions/teams/{teamId}", contentAdmin, 204, func(f fixture) string { return "/collections/" + f.collection + "/permissions/teams/" + f.team }, "",
		`mutation($c: ID!, $t: ID!) { removeCollectionTeamPermission(collectionId: $c, teamId: $t) }`},

	{"POST", "/orgs/{organizationId}/sites", siteEditor, 201, org("/sites"), `{"title":"New site"}`, `mutation($o: ID!) { createSite(organizationId: $o, input: {title: "New site"}) { id } }`},
	{"GET", "/orgs/{organizationId}/sites", insider, 200, org("/sites"), "", `query($o: ID!) { organization(id: $o) { sites { totalCount } } }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}", insider, 200, site(""), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { id } } }`},
	{"PATCH", "/orgs/{organizationId}/sites/{siteId}", siteEditor, 200, site(""), `{"title":"Renamed"}`, `mutation($o: ID!, $si: ID!) { updateSite(organizationId: $o, siteId: $si, input: {title: "Renamed"}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/sites/{siteId}", siteEditor, 204, site(""), "", `mutation($o: ID!, $si: ID!) { deleteSite(organizationId: $o, siteId: $si) }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/site-spaces", insider, 200, site("/site-spaces"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { siteSpaceList { totalCount } } } }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/site-spaces", siteEditor, 201, site("/site-spaces"), `{"spaceId":"SPACE"}`,
		`mutation($o: ID!, $si: ID!, $s: ID!) { addSiteSpace(organizationId: $o, siteId: $si, input: {spaceId: $s}) { id } }`},
	{"PATCH", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", siteEditor, 200, siteSpace(""), `{"path":"renamed"}`,
		`mutation($o: ID!, $si: ID!, $ss: ID!) { updateSiteSpace(organizationId: $o, siteId: $si, siteSpaceId: $ss, input: {path: "renamed"}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", siteEditor, 204, siteSpace(""), "",
		`mutation($o: ID!, $si: ID!, $ss: ID!) { deleteSiteSpace(organizationId: $o, siteId: $si, siteSpaceId: $ss) }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move", siteEditor, 200, siteSpace("/move"), `{"position":{"after":{"type":"site-space","siteSpace":"SITESPACE"}}}`,
		`mutation($o: ID!, $si: ID!, $ss: ID!) { sortSiteStructure(organizationId: $o, siteId: $si, input: {item: {type: "site-space", id: $ss}, position: {after: {type: "site-space", id: $ss}}}) { ... on SiteSpace { id } } }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/structure", insider, 200, site("/structure"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { structure { type } } } }`},
	{"PATCH", "/orgs/{organizationId}/sites/{siteId}/structure/sort", siteEditor, 200, site("/structure/sort"), `{"item":{"type":"site-space","id":"SITESPACE"},"position":{"before":{"type":"site-space","id":"SITESPACE"}}}`,
		`mutation($o: ID!, $si: ID!, $ss: ID!) { sortSiteStructure(organizationId: $o, siteId: $si, input: {item: {type: "site-space", id: $ss}, position: {before: {type: "site-space", id: $ss}}}) { ... on SiteSpace { id } } }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/sections", insider, 200, site("/sections"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { sections { totalCount } } } }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/sections", siteEditor, 201, site("/sections"), `{"spaceId":"SPACE"}`,
		`mutation($o: ID!, $si: ID!, $s: ID!) { createSiteSection(organizationId: $o, siteId: $si, input: {spaceId: $s}) { id } }`},
	{"PATCH", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", siteEditor, 200, section(""), `{"title":"Renamed"}`,
		`mutation($o: ID!, $si: ID!, $sc: ID!) { updateSiteSection(organizationId: $o, siteId: $si, siteSectionId: $sc, input: {title: "Renamed"}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", siteEditor, 204, section(""), "",
		`mutation($o: ID!, $si: ID!, $sc: ID!) { deleteSiteSection(organizationId: $o, siteId: $si, siteSectionId: $sc) }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move", siteEditor, 200, section("/move"), `{"position":{"after":{"type":"site-section","siteSection":"SECTION"}}}`,
		`mutation($o: ID!, $si: ID!, $sc: ID!) { sortSiteStructure(organizationId: $o, siteId: $si, input: {item: {type: "site-section", id: $sc}, position: {after: {type: "site-section", id: $sc}}}) { ... on SiteSection { id } } }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/section-groups", insider, 200, site("/section-groups"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { sectionGroups { totalCount } } } }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/section-groups", siteEditor, 201, site("/section-groups"), `{"title":"Group"}`,
		`mutation($o: ID!, $si: ID!) { createSiteSectionGroup(organizationId: $o, siteId: $si, input: {title: "Group"}) { id } }`},
	{"PATCH", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", siteEditor, 200, group(""), `{"title":"Renamed"}`,
		`mutation($o: ID!, $si: ID!, $sg: ID!) { updateSiteSectionGroup(organizationId: $o, siteId: $si, siteSectionGroupId: $sg, input: {title: "Renamed"}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", siteEditor, 204, group(""), "",
		`mutation($o: ID!, $si: ID!, $sg: ID!) { deleteSiteSectionGroup(organizationId: $o, siteId: $si, siteSectionGroupId: $sg) }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move", siteEditor, 200, group("/move"), `{"position":{"before":{"type":"site-section-group","id":"GROUP"}}}`,
		`mutation($o: ID!, $si: ID!, $sg: ID!) { sortSiteStructure(organizationId: $o, siteId: $si, input: {item: {type: "site-section-group", id: $sg}, position: {before: {type: "site-section-group", id: $sg}}}) { ... on SiteSectionGroup { id } } }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections", siteEditor, 201, group("/sections"), `{"sectionId":"SECTION"}`,
		`mutation($o: ID!, $si: ID!, $sg: ID!, $sc: ID!) { addSectionToGroup(organizationId: $o, siteId: $si, siteSectionGroupId: $sg, input: {sectionId: $sc}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", siteEditor, 204, func(f fixture) string { return group("/sections/" + f.section)(f) }, "",
		`mutation($o: ID!, $si: ID!, $sg: ID!, $sc: ID!) { removeSectionFromGroup(organizationId: $o, siteId: $si, siteSectionGroupId: $sg, siteSectionId: $sc) }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/share-links", siteEditor, 200, site("/share-links"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { shareLinks { totalCount } } } }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/share-links", siteEditor, 201, site("/share-links"), `{"name":"Partners"}`,
		`mutation($o: ID!, $si: ID!) { createShareLink(organizationId: $o, siteId: $si, input: {name: "Partners"}) { id } }`},
	{"PATCH", "/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", siteEditor, 200, shareLink(), `{"active":false}`,
		`mutation($o: ID!, $si: ID!, $sl: ID!) { updateShareLink(organizationId: $o, siteId: $si, shareLinkId: $sl, input: {active: false}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", siteEditor, 204, shareLink(), "",
		`mutation($o: ID!, $si: ID!, $sl: ID!) { deleteShareLink(organizationId: $o, siteId: $si, shareLinkId: $sl) }`},

	{"GET", "/urls/content", contentReader, 200, func(f fixture) string { return "/urls/content?url=https://app.bindery.test/s/" + f.space + "/" }, "",
		`query($su: String!) { contentByUrl(url: $su) { space { id } } }`},
	{"GET", "/urls/published", anyone, 200, func(f fixture) string { return "/urls/published?url=https://bindery.test/sites/" + f.site + "/" }, "",
		`mutation($pu: String!) { resolvePublishedContentByUrl(input: {url: $pu}) { content { siteSpace } } }`},
	{"POST", "/urls/published", anyone, 200, fixed("/urls/published"), `{"url":"https://bindery.test/sites/SITE/"}`,
		`mutation($pu: String!) { resolvePublishedContentByUrl(input: {url: $pu}) { content { siteSpace } } }`},
	{"GET", "/urls/embed", anyone, 200, fixed("/urls/embed?url=https://127.0.0.1/"), "", `{ embedByUrl(url: "https://127.0.0.1/") { type } }`},
	{"GET", "/custom-hostnames/{hostname}", siteEditor, 200, hostname, "", `query($h: String!) { customHostname(hostname: $h) { status } }`},
	{"PATCH", "/custom-hostnames/{hostname}", siteEditor, 204, hostname, "", `mutation($h: String!) { revalidateCustomHostname(hostname: $h) { status } }`},
	{"DELETE", "/custom-hostnames/{hostname}", siteEditorDelete, 205, hostname, "", `mutation($h: String!) { removeCustomHostname(hostname: $h) }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/publish", siteEditor, 200, site("/publish"), "", `mutation($o: ID!, $si: ID!) { publishSite(organizationId: $o, siteId: $si) { id } }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/unpublish", siteEditor, 200, site("/unpublish"), "", `mutation($o: ID!, $si: ID!) { unpublishSite(organizationId: $o, siteId: $si) { id } }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/published", insider, 200, site("/published"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { publishedContent { site { id } } } } }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/publishing/preview", siteEditor, 200, site("/publishing/preview"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { publishingPreview { url } } } }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/search", insider, 200, site("/search"), `{"query":"fixture"}`, `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { searchContent(query: "fixture") { totalCount } } } }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/adaptive-schema", insider, 200, site("/adaptive-schema"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { adaptiveSchema { updatedAt } } } }`},
	{"PUT", "/orgs/{organizationId}/sites/{siteId}/adaptive-schema", siteEditor, 200, site("/adaptive-schema"), `{"jsonSchema":{"type":"object","properties":{},"additionalProperties":false}}`,
		`mutation($o: ID!, $si: ID!) { updateSiteAdaptiveSchema(organizationId: $o, siteId: $si, jsonSchema: {type: "object", properties: {}, additionalProperties: false}) { updatedAt } }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions", insider, 200, site("/adaptive-schema/template-conditions"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { adaptiveTemplateConditions { condition } } } }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/insights/events", insider, 204, site("/insights/events"),
		`{"events":[{"type":"page_view","session":{"visitorId":"v"},"location":{"url":"https://bindery.test/sites/x/","siteSection":null,"siteSpace":null,"siteShareKey":null,"space":null,"revision":null,"page":null}}]}`,
		`mutation($o: ID!, $si: ID!) { trackSiteEvents(organizationId: $o, siteId: $si, events: [{type: "page_view", session: {}, location: {url: "https://bindery.test/sites/x/"}}]) }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/insights/events/aggregate", insider, 200, site("/insights/events/aggregate"), `{"range":"last7Days","select":[{"column":"eventsCount"}]}`,
		`query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { insights(query: {range: "last7Days", select: [{column: "eventsCount"}]}) } } }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/customization", insider, 200, site("/customization"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { customization } } }`},
	{"PUT", "/orgs/{organizationId}/sites/{siteId}/customization", siteEditor, 200, site("/customization"), `{"title":"Styled"}`,
		`mutation($o: ID!, $si: ID!) { updateSiteCustomization(organizationId: $o, siteId: $si, settings: {title: "Styled"}) }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", insider, 200, siteSpace("/customization"), "", `query($o: ID!, $si: ID!, $ss: ID!) { organization(id: $o) { site(id: $si) { siteSpaceCustomization(siteSpaceId: $ss) } } }`},
	{"PATCH", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", siteEditor, 200, siteSpace("/customization"), `{"title":"Variant"}`,
		`mutation($o: ID!, $si: ID!, $ss: ID!) { overrideSiteSpaceCustomization(organizationId: $o, siteId: $si, siteSpaceId: $ss, overrides: {title: "Variant"}) }`},
	{"DELETE", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", siteEditor, 204, siteSpace("/customization"), "",
		`mutation($o: ID!, $si: ID!, $ss: ID!) { deleteSiteSpaceCustomization(organizationId: $o, siteId: $si, siteSpaceId: $ss) }`},
	{"POST", "/orgs/{organizationId}/storage/upload", siteEditor, 201, org("/storage/upload"), `{"kind":"customization_font","file":{"name":"a.woff2","type":"font/woff2","size":100}}`,
		`mutation($o: ID!) { generateStorageUploadURL(organizationId: $o, input: {kind: "customization_font", file: {name: "a.woff2", type: "font/woff2", size: 100}}) { key } }`},
	{"GET", "/orgs/{organizationId}/fonts", insider, 200, org("/fonts"), "", `query($o: ID!) { organization(id: $o) { customFonts { totalCount } } }`},
	{"PUT", "/orgs/{organizationId}/fonts", siteEditor, 201, org("/fonts"), `{"fontFamily":"Matrix","fontFaces":[{"weight":400,"storageKey":"FONTKEY"}]}`,
		`mutation($o: ID!, $fk: String) { createCustomFont(organizationId: $o, input: {fontFamily: "Matrix", fontFaces: [{weight: 400, storageKey: $fk}]}) { id } }`},
	{"GET", "/orgs/{organizationId}/fonts/{fontId}", insider, 200, func(f fixture) string { return org("/fonts/" + f.font)(f) }, "", `query($o: ID!, $fo: ID!) { organization(id: $o) { customFont(id: $fo) { id } } }`},
	{"POST", "/orgs/{organizationId}/fonts/{fontId}", siteEditor, 201, func(f fixture) string { return org("/fonts/" + f.font)(f) }, `{"fontFamily":"Renamed"}`,
		`mutation($o: ID!, $fo: ID!) { updateCustomFont(organizationId: $o, fontId: $fo, input: {fontFamily: "Renamed"}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/fonts/{fontId}", siteEditor, 205, func(f fixture) string { return org("/fonts/" + f.font)(f) }, "",
		`mutation($o: ID!, $fo: ID!) { deleteCustomFont(organizationId: $o, fontId: $fo) }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/redirects", insider, 200, site("/redirects"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { redirects { totalCount } } } }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/redirects", siteEditor, 201, site("/redirects"), `{"source":"/gone","destination":{"kind":"site-space","siteSpaceId":"SITESPACE"}}`,
		`mutation($o: ID!, $si: ID!, $ss: ID!) { createSiteRedirect(organizationId: $o, siteId: $si, input: {source: "/gone", destination: {kind: "site-space", siteSpaceId: $ss}}) { id } }`},
	{"PUT", "/orgs/{organizationId}/sites/{siteId}/redirects", siteEditor, 200, site("/redirects"), `{"redirects":[{"source":"/bulk","destination":{"kind":"site-space","siteSpaceId":"SITESPACE"}}]}`,
		`mutation($o: ID!, $si: ID!, $ss: ID!) { bulkUpsertSiteRedirects(organizationId: $o, siteId: $si, input: {redirects: [{source: "/bulk", destination: {kind: "site-space", siteSpaceId: $ss}}]}) { results { status } } }`},
	{"PATCH", "/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", siteEditor, 200, func(f fixture) string { return site("/redirects/" + f.redirect)(f) }, `{"source":"/moved"}`,
		`mutation($o: ID!, $si: ID!, $rd: ID!) { updateSiteRedirect(organizationId: $o, siteId: $si, siteRedirectId: $rd, input: {source: "/moved"}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", siteEditor, 205, func(f fixture) string { return site("/redirects/" + f.redirect)(f) }, "",
		`mutation($o: ID!, $si: ID!, $rd: ID!) { deleteSiteRedirect(organizationId: $o, siteId: $si, siteRedirectId: $rd) }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/mcp-servers", adminOnly, 200, site("/mcp-servers"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { mcpServers { totalCount } } } }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/mcp-servers", adminOnly, 201, site("/mcp-servers"), `{"name":"Tools","url":"https://mcp.example.com/mcp","headers":{}}`,
		`mutation($o: ID!, $si: ID!) { createSiteMcpServer(organizationId: $o, siteId: $si, input: {name: "Tools", url: "https://mcp.example.com/mcp", headers: []}) { id } }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/mcp-servers/{siteMcpServerId}", adminOnly, 200, func(f fixture) string { return site("/mcp-servers/" + f.mcpServer)(f) }, "",
		`query($o: ID!, $si: ID!, $mcp: ID!) { organization(id: $o) { site(id: $si) { mcpServer(id: $mcp) { id } } } }`},
	{"PATCH", "/orgs/{organizationId}/sites/{siteId}/mcp-servers/{siteMcpServerId}", adminOnly, 200, func(f fixture) string { return site("/mcp-servers/" + f.mcpServer)(f) }, `{"name":"Renamed"}`,
		`mutation($o: ID!, $si: ID!, $mcp: ID!) { updateSiteMcpServer(organizationId: $o, siteId: $si, siteMcpServerId: $mcp, input: {name: "Renamed"}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/sites/{siteId}/mcp-servers/{siteMcpServerId}", adminOnly, 205, func(f fixture) string { return site("/mcp-servers/" + f.mcpServer)(f) }, "",
		`mutation($o: ID!, $si: ID!, $mcp: ID!) { deleteSiteMcpServer(organizationId: $o, siteId: $si, siteMcpServerId: $mcp) }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/redirect", insider, 200, site("/redirect?source=/old"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { redirect(source: "/old") { target } } } }`},
	{"GET", "/orgs/{organizationId}/sites/{siteId}/publishing/auth", siteEditor, 200, site("/publishing/auth"), "", `query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { publishingAuth { backend } } } }`},
	{"PATCH", "/orgs/{organizationId}/sites/{siteId}/publishing/auth", siteEditor, 200, site("/publishing/auth"), `{"backend":"custom","fallbackURL":"https://signin.example.com/"}`,
		`mutation($o: ID!, $si: ID!) { updateSitePublishingAuth(organizationId: $o, siteId: $si, input: {backend: "custom"}) { backend } }`},
	{"POST", "/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate", siteEditor, 200, site("/publishing/auth/regenerate"), "",
		`mutation($o: ID!, $si: ID!) { regenerateSitePublishingAuth(organizationId: $o, siteId: $si) { backend } }`},
}

func hostname(f fixture) string { return "/custom-hostnames/" + f.hostname }

func site(suffix string) func(fixture) string {
	return func(f fixture) string { return "/orgs/" + f.org + "/sites/" + f.site + suffix }
}
func siteSpace(suffix string) func(fixture) string {
	return func(f fixture) string {
		return "/orgs/" + f.org + "/sites/" + f.site + "/site-spaces/" + f.siteSpace + suffix
	}
}
func section(suffix string) func(fixture) string {
	return func(f fixture) string {
		return "/orgs/" + f.org + "/sites/" + f.site + "/sections/" + f.section + suffix
	}
}
func group(suffix string) func(fixture) string {
	return func(f fixture) string {
		return "/orgs/" + f.org + "/sites/" + f.site + "/section-groups/" + f.group + suffix
	}
}
func shareLink() func(fixture) string {
	return func(f fixture) string { return "/orgs/" + f.org + "/sites/" + f.site + "/share-links/" + f.shareLink }
}

func space(suffix string) func(fixture) string {
	return func(f fixture) string { return "/spaces/" + f.space + suffix }
}
func collection(suffix string) func(fixture) string {
	return func(f fixture) string { return "/collections/" + f.collection + suffix }
}
func team(suffix string) func(fixture) string {
	return func(f fixture) string { return "/orgs/" + f.org + "/teams/" + f.team + suffix }
}

func samlProvider(f fixture) string          { return "/orgs/" + f.org + "/saml/" + f.samlProvider }
func fixed(path string) func(fixture) string { return func(fixture) string { return path } }
func org(suffix string) func(fixture) string {
	return func(f fixture) string { return "/orgs/" + f.org + suffix }
}
func victim(suffix string) func(fixture) string {
	return func(f fixture) string { return "/orgs/" + f.org + "/members/" + f.victim + suffix }
}

func TestEveryRouteIsInTheMatrix(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range matrix {
		covered[c.method+" "+c.path] = true
	}
	for _, r := range rest.Routes() {
		if !covered[r.Method+" "+r.Path] {
			t.Errorf("%s %s has no row in the permission matrix", r.Method, r.Path)
		}
	}
}

// matrixParts is how many parallel subtests share the matrix's routes on each database, each
// with a database of its own: the matrix is the suite's longest test.
const matrixParts = 4

func TestPermissionMatrix(t *testing.T) {
	t.Parallel()
	for part := range matrixParts {
		t.Run(fmt.Sprintf("part%d", part+1), func(t *testing.T) {
			// Writes, which make fixtures, and reads are dealt out separately, so the parts take
			// about as long.
			var cases []matrixCase
			dealt := map[bool]int{}
			for _, c := range matrix {
				write := c.method != "GET"
				if dealt[write]%matrixParts == part {
					cases = append(cases, c)
				}
				dealt[write]++
			}
			eachDB(t, func(t *testing.T, e *env) { e.permissionMatrix(t, cases) })
		})
	}
}

// permissionMatrix calls each of cases as every kind of caller through both doors.
func (e *env) permissionMatrix(t *testing.T, cases []matrixCase) {
	e.withAnswers()
	orgID, admin := e.org("Matrix", "admin@matrix.test")
	_, otherAdmin := e.org("Other", "admin@other.test")
	callers := map[string]account{"admin": admin, "other-org": otherAdmin, "non-member": e.member("", "loner@else.test", "")}
	for _, r := range roles[1:7] {
		callers[r] = e.member(orgID, r+"@matrix.test", r)
	}
	n := 0
	// Reads share one fixture; every write that acts gets its own, so cases do not disturb each other.
	newFixture := func(path string) fixture {
		n++
		return e.matrixFixture(path, orgID, admin, n)
	}
	callers["read-token"], callers["space-token"] = e.matrixTokens(admin, orgID)
	shared := newFixture(sharedFixturePath)
	for _, c := range cases {
		var unchanged *fixture // for the callers whose call changes nothing: they share one
		for _, role := range roles {
			for _, door := range []string{"rest", "graphql"} {
				want := expectFor(c, role)
				f := shared
				switch {
				case c.method == "GET" || asks(c):
				case changesNothing(c, role, want):
					if unchanged == nil {
						made := newFixture(c.path)
						unchanged = &made
					}
					f = *unchanged
				default:
					f = newFixture(c.path)
				}
				caller := callers[role]
				if door == "rest" {
					var body any
					if c.body != "" {
						body = strings.NewReplacer("SPECNEW", f.spec+"-new", "SPECSLUG", f.spec, "ORGID", f.org, "VICTIM", f.victim, "REVIEWER", f.admin, "SITESPACE", f.siteSpace, "SPACE", f.space, "SITE", f.site, "SECTION", f.section, "GROUP", f.group, "FONTKEY", f.fontKey).Replace(c.body)
					}
					before := e.lastEventSeq()
					if got := e.call(caller.Token, c.method, c.url(f), body); got.Status != want {
						t.Errorf("%s %s as %s: REST status %d, want %d (%s)", c.method, c.path, role, got.Status, want, got.Body)
					} else if role == "admin" && c.method != "GET" && !asks(c) && want < 300 && e.lastEventSeq() == before && unevented[c.method+" "+c.path] == "" {
						t.Errorf("%s %s as admin wrote no event", c.method, c.path)
					}
					e.stayOutside(orgID, role, caller)
					continue
				}
				g := e.gql(caller.Token, c.gql, map[string]any{"o": f.org, "u": f.victim, "a": f.admin, "i": f.invite, "s": f.space, "c": f.collection, "t": f.team,
					"si": f.site, "ss": f.siteSpace, "sl": f.shareLink, "rd": f.redirect, "mcp": f.mcpServer, "h": f.hostname, "su": "https://app.bindery.test/s/" + f.space + "/", "pu": "https://bindery.test/sites/" + f.site + "/", "sc": f.section, "sg": f.group,
					"cr": f.changeRequest, "r": f.revision, "p": f.page, "d": f.document, "f": f.file, "rc": f.reusableContent,
					"cm": f.comment, "rp": f.reply, "ccm": f.crComment, "crp": f.crReply, "rv": f.review,
					"tr": f.translation, "ge": f.glossaryEntry,
					"sp": f.spec, "spn": f.spec + "-new", "sv": f.specVersion, "ig": f.integration, "in": f.installation, "tk": f.token,
					"wh": f.webhook, "wd": f.delivery, "ae": f.auditEvent, "saml": f.samlProvider, "fk": f.fontKey, "fo": f.font})
				e.stayOutside(orgID, role, caller)
				wantCode := map[int]string{http.StatusForbidden: "FORBIDDEN", http.StatusNotFound: "NOT_FOUND"}[want]
				gotCode := ""
				if len(g.Errors) > 0 {
					gotCode, _ = g.Errors[0].Extensions["code"].(string)
				}
				if gotCode != wantCode {
					t.Errorf("%s %s as %s: GraphQL code %q, want %q (%v)", c.method, c.path, role, gotCode, wantCode, strings.TrimSpace(fmt.Sprint(g.Errors)))
				}
			}
		}
	}
}

// matrixFixture makes what a matrix case of the route path acts on, in organization orgID whose
// admin is admin; n numbers it among the test's fixtures.
func (e *env) matrixFixture(path, orgID string, admin account, n int) fixture {
	f := fixture{org: orgID, admin: admin.ID, victim: e.member(orgID, fmt.Sprintf("victim%d@matrix.test", n), "read").ID}
	if strings.Contains(path, "/user/tokens") {
		tokens, err := e.res.ListAllAPITokens(e.t.Context(), fmt.Sprintf("victim%d@matrix.test", n))
		if err != nil || len(tokens) != 1 {
			e.t.Fatalf("victim's tokens: %v, %v", tokens, err)
		}
		f.token = tokens[0].ID
	}
	if strings.Contains(path, "/saml") || path == sharedFixturePath {
		f.samlProvider = e.call(admin.Token, "POST", "/orgs/"+orgID+"/saml", `{"label":"Fixture"}`).want(http.StatusCreated).object()["id"].(string)
	}
	if strings.Contains(path, "invite") {
		f.invite = e.call(admin.Token, "POST", "/orgs/"+orgID+"/link-invites", `{"role":"read"}`).want(http.StatusCreated).object()["id"].(string)
	}
	f.space, f.collection, f.team = e.matrixContent(path, admin, orgID, f.victim)
	if strings.Contains(path, "reusable-content") || path == sharedFixturePath {
		f.reusableContent = e.addReusableContent(f.space, ".gitbook/includes/notice.md", "---\ntitle: Notice\n---\n\nA **shared** notice.\n")
	}
	if strings.Contains(path, "/content") || strings.Contains(path, "change-requests") || strings.Contains(path, "revisions") || strings.Contains(path, "/documents/") || strings.Contains(path, "/computed/") {
		f.page, f.file, f.changeRequest, f.revision = e.matrixPages(admin, f.space)
	}
	if strings.Contains(path, "/documents/") || path == sharedFixturePath {
		f.document = e.call(admin.Token, "GET", "/spaces/"+f.space+"/content/page/"+f.page, nil).want(http.StatusOK).object()["documentId"].(string)
	}
	if strings.Contains(path, "comment") || strings.Contains(path, "review") {
		f.comment, f.reply, f.crComment, f.crReply, f.review = e.matrixDiscussion(admin, f.space, f.changeRequest)
	}
	if strings.Contains(path, "/git") { // a queued import: git/info has something to show
		e.call(admin.Token, "POST", "/spaces/"+f.space+"/git/import", `{"url":"https://93.184.216.34/docs.git","ref":"refs/heads/main"}`).want(http.StatusNoContent)
	}
	if strings.Contains(path, "/fonts") || path == sharedFixturePath {
		f.fontKey, _ = e.uploadFont(admin.Token, orgID, fontBytes, len(fontBytes))
		f.font = e.call(admin.Token, "PUT", "/orgs/"+orgID+"/fonts", map[string]any{"fontFamily": "Fixture", "fontFaces": []any{map[string]any{"weight": 400, "storageKey": f.fontKey}}}).want(http.StatusCreated).object()["id"].(string)
	}
	if strings.Contains(path, "sites/{siteId}") || strings.Contains(path, "/spaces/collections") || strings.Contains(path, "/custom-hostnames") || path == "/urls/published" {
		var published string
		f.site, f.siteSpace, f.shareLink, published = e.matrixSite(admin, orgID)
		if f.space == "" {
			f.space = published
		}
		if strings.Contains(path, "section") || strings.Contains(path, "/spaces/collections") {
			f.section, f.group = e.matrixSections(admin, orgID, f.site)
		}
		site := "/orgs/" + orgID + "/sites/" + f.site
		if strings.Contains(path, "/redirect") || path == sharedFixturePath {
			f.redirect = e.call(admin.Token, "POST", site+"/redirects", map[string]any{"source": "/old", "destination": map[string]any{"kind": "site-space", "siteSpaceId": f.siteSpace}}).want(http.StatusCreated).object()["id"].(string)
		}
		if strings.Contains(path, "/mcp-servers") || path == sharedFixturePath {
			f.mcpServer = e.call(admin.Token, "POST", site+"/mcp-servers", map[string]any{"name": "Fixture", "url": "https://mcp.example.com/mcp", "headers": map[string]any{}}).want(http.StatusCreated).object()["id"].(string)
		}
		if strings.Contains(path, "/custom-hostnames") || path == sharedFixturePath {
			f.hostname = fmt.Sprintf("docs%d.matrix.test", n)
			e.gql(admin.Token, `mutation($o: ID!, $s: ID!, $h: String) { setSiteHostname(organizationId: $o, siteId: $s, hostname: $h) { status } }`,
				map[string]any{"o": orgID, "s": f.site, "h": f.hostname}).ok(nil)
		}
		if strings.Contains(path, "/adaptive-schema") || path == sharedFixturePath {
			e.call(admin.Token, "PUT", site+"/adaptive-schema", `{"jsonSchema":{"type":"object","properties":{},"additionalProperties":false}}`).want(http.StatusOK)
		}
	}
	if strings.Contains(path, "translation") {
		var source string
		f.translation, f.glossaryEntry, source = e.matrixTranslation(admin, orgID)
		if f.space == "" {
			f.space = source
		}
	}
	e.matrixOpenAPI(path, admin, &f, n)
	e.matrixEvents(path, admin, &f)
	return f
}

// changesNothing reports whether role's call of c, answered want, leaves the fixture as it was: a
// refusal, or a delete of content the caller cannot see (answered like one of missing content).
// A call that changed it anyway fails its own check, whatever later callers then see.
func changesNothing(c matrixCase, role string, want int) bool {
	if want >= 400 {
		return true
	}
	switch c.policy {
	case contentDelete, contentEditorDelete, contentCreatorDelete:
		return role == "guest" || role == "non-member" || role == "other-org" || role == "space-token"
	}
	return false
}

// stayOutside undoes an outsider's joining through an invite link, so later cases still see them
// as outsiders.
func (e *env) stayOutside(orgID, role string, a account) {
	e.t.Helper()
	if role == "non-member" || role == "other-org" {
		if _, err := e.store.RemoveMember(e.t.Context(), orgID, a.ID); err != nil {
			e.t.Fatal(err)
		}
	}
}

// matrixContent creates, as the admin, the content a route acts on: a space (in the trash for
// the restore route), a collection, and a team that holds the victim, each only when the path
// names it; the victim and the team get a role on the content.
func (e *env) matrixContent(path string, admin account, orgID, victim string) (spaceID, collectionID, teamID string) {
	e.t.Helper()
	if strings.Contains(path, "team") || strings.Contains(path, "permissions") {
		teamID = e.call(admin.Token, "PUT", "/orgs/"+orgID+"/teams", `{"title":"Fixture","members":["`+victim+`"]}`).want(http.StatusCreated).object()["id"].(string)
	}
	grant := `{"role":"read","users":["` + victim + `"]}`
	if teamID != "" {
		grant = `{"role":"read","teams":["` + teamID + `"],"users":["` + victim + `"]}`
	}
	if strings.Contains(path, "/spaces") {
		spaceID = e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Fixture"}`).want(http.StatusCreated).object()["id"].(string)
		e.call(admin.Token, "POST", "/spaces/"+spaceID+"/permissions", grant).want(http.StatusNoContent)
	}
	if strings.Contains(path, "collection") {
		collectionID = e.call(admin.Token, "POST", "/orgs/"+orgID+"/collections", `{"title":"Fixture"}`).want(http.StatusCreated).object()["id"].(string)
		e.call(admin.Token, "POST", "/collections/"+collectionID+"/permissions", grant).want(http.StatusNoContent)
	}
	if strings.HasSuffix(path, "/restore") {
		e.call(admin.Token, "DELETE", "/spaces/"+spaceID, nil).want(http.StatusNoContent)
	}
	return spaceID, collectionID, teamID
}

// matrixSite creates, as the admin, a site publishing a fresh space, and a share link of it.
func (e *env) matrixSite(admin account, orgID string) (siteID, siteSpaceID, shareLinkID, space string) {
	e.t.Helper()
	space = e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Published"}`).want(http.StatusCreated).object()["id"].(string)
	siteID = e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites", `{"title":"Fixture site","spaces":["`+space+`"]}`).want(http.StatusCreated).object()["id"].(string)
	var list struct{ Items []struct{ ID string } }
	e.call(admin.Token, "GET", "/orgs/"+orgID+"/sites/"+siteID+"/site-spaces", nil).want(http.StatusOK).decode(&list)
	shareLinkID = e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites/"+siteID+"/share-links", `{"name":"Fixture"}`).want(http.StatusCreated).object()["id"].(string)
	return siteID, list.Items[0].ID, shareLinkID, space
}

// matrixSections gives a site, as the admin, a section of its own (its root site spaces move into
// a first one) and a group holding it.
func (e *env) matrixSections(admin account, orgID, siteID string) (sectionID, groupID string) {
	e.t.Helper()
	space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Sectioned"}`).want(http.StatusCreated).object()["id"].(string)
	base := "/orgs/" + orgID + "/sites/" + siteID
	sectionID = e.call(admin.Token, "POST", base+"/sections", `{"spaceId":"`+space+`"}`).want(http.StatusCreated).object()["id"].(string)
	groupID = e.call(admin.Token, "POST", base+"/section-groups", `{"title":"Fixture","sections":["`+sectionID+`"]}`).want(http.StatusCreated).object()["id"].(string)
	return sectionID, groupID
}

// unevented lists the routes that answer a write method without changing anything the audit log,
// webhooks or subscribers follow, and why. Every other successful write of the matrix must commit
// an event (docs/events.md).
var unevented = map[string]string{
	"POST /orgs/{organizationId}/ping":                                                        "records the caller's activity (last seen), not a change anyone follows",
	"POST /orgs/{organizationId}/join":                                                        "the matrix's admin already belongs: nothing changes (a newcomer's join writes member_joined)",
	"POST /orgs/{organizationId}/invites/{inviteId}":                                          "the matrix's admin already belongs: nothing changes (a newcomer's join writes member_joined)",
	"POST /spaces/{spaceId}/content/computed/document":                                        "computes a document from a source and stores nothing",
	"POST /spaces/{spaceId}/content/computed/revision":                                        "computes pages from a source and stores nothing",
	"DELETE /spaces/{spaceId}/git/legacy-installation":                                        "Bindery never makes a legacy installation: there is never one to remove",
	"POST /orgs/{organizationId}/webhook-deliveries/{deliveryId}/redeliver":                   "sends an event again: the delivery log records it, it is not a new event",
	"PATCH /custom-hostnames/{hostname}":                                                      "a DNS check that finds what the last one found changes nothing (a new status writes site_hostname_updated)",
	"POST /orgs/{organizationId}/sites/{siteId}/publish":                                      "the matrix's site is published already: publishing it again changes nothing (site_published follows an unpublish)",
	"POST /integrations/{integrationName}/installations":                                      "the matrix's integration is installed already: installing it again answers the installation it has",
	"POST /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move":                "the matrix moves the section after itself: it stays where it is",
	"POST /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move":     "the matrix moves the group before itself: it stays where it is",
	"POST /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections": "the matrix's section is in the group already: it stays where it is",
	"DELETE /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization":    "the matrix's site space has no overrides: there are none to remove",
	"POST /orgs/{organizationId}/sites/{siteId}/insights/events":                              "visitors' events are the site's insights, kept apart from the organization's stream of changes",
	"POST /orgs/{organizationId}/sites/{siteId}/insights/events/aggregate":                    "a read: it counts events and changes nothing",
	"POST /orgs/{organizationId}/storage/upload":                                              "gives a signed upload URL: nothing is stored until the file arrives, and a file alone changes nothing until a font names it",
	"POST /urls/published": "a look-up: the short-lived read token it answers with is the caller's own",
}

// lastEventSeq is the sequence of the newest event of the test's database.
func (e *env) lastEventSeq() int64 {
	e.t.Helper()
	seq, err := e.res.Store.LastEventSeq(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return seq
}
