package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// Route is one /v1 endpoint.
type Route struct {
	Method, Path string
	h            handlerFunc
}

// Routes lists every /v1 endpoint, for documentation and for tests that must cover them all.
func Routes() []Route { return (*api)(nil).table() }

func (a *api) routes(r chi.Router) {
	for _, rt := range a.table() {
		r.Method(rt.Method, rt.Path, rt.h)
	}
}

// table lists every /v1 route in one place: method, path, handler. Paths and statuses are
// GitBook's management API (see ../shared/contract).
func (a *api) table() []Route {
	routes := []Route{
		{"GET", "/", a.getAPIInformation},
		{"GET", "/user", a.getAuthenticatedUser},
		{"GET", "/users/{userId}", a.getUserByID},
		{"GET", "/user/tokens", a.listMyTokens},
		{"DELETE", "/user/tokens/{tokenId}", a.revokeMyToken},

		{"GET", "/orgs", a.listOrganizations},
		{"GET", "/orgs/{organizationId}", a.getOrganization},
		{"PATCH", "/orgs/{organizationId}", a.updateOrganization},
		{"POST", "/orgs/{organizationId}/join", a.joinOrganization},
		{"GET", "/email-domains/{emailDomain}/orgs", a.getOrganizationsForEmailDomain},
		{"GET", "/orgs/{organizationId}/agent-instructions", a.getAgentInstructions},
		{"PUT", "/orgs/{organizationId}/agent-instructions", a.updateAgentInstructions},

		{"GET", "/orgs/{organizationId}/members", a.listMembers},
		{"GET", "/orgs/{organizationId}/members/{userId}", a.getMember},
		{"PATCH", "/orgs/{organizationId}/members/{userId}", a.updateMember},
		{"DELETE", "/orgs/{organizationId}/members/{userId}", a.removeMember},
		{"POST", "/orgs/{organizationId}/members/{userId}/sso", a.setMemberSSO},
		{"GET", "/orgs/{organizationId}/sso", a.listSSOProviderLogins},
		{"GET", "/orgs/{organizationId}/saml", a.listSAMLProviders},
		{"POST", "/orgs/{organizationId}/saml", a.createSAMLProvider},
		{"GET", "/orgs/{organizationId}/saml/{samlProviderId}", a.getSAMLProvider},
		{"PATCH", "/orgs/{organizationId}/saml/{samlProviderId}", a.updateSAMLProvider},
		{"DELETE", "/orgs/{organizationId}/saml/{samlProviderId}", a.deleteSAMLProvider},
		{"POST", "/orgs/{organizationId}/ping", a.ping},

		{"POST", "/orgs/{organizationId}/invites", a.inviteUsers},
		{"POST", "/orgs/{organizationId}/invites/{inviteId}", a.joinWithInvite},
		{"GET", "/orgs/{organizationId}/link-invites", a.listInviteLinks},
		{"POST", "/orgs/{organizationId}/link-invites", a.createInviteLink},
		{"DELETE", "/orgs/{organizationId}/link-invites/{inviteId}", a.deleteInviteLink},
		{"GET", "/orgs/{organizationId}/members/{userId}/teams", a.listMemberTeams},
		{"GET", "/orgs/{organizationId}/members/{userId}/spaces", a.listMemberSpaces},

		{"POST", "/orgs/{organizationId}/spaces", a.createSpace},
		{"GET", "/orgs/{organizationId}/spaces", a.listSpaces},
		{"GET", "/spaces/{spaceId}", a.getSpace},
		{"PATCH", "/spaces/{spaceId}", a.updateSpace},
		{"DELETE", "/spaces/{spaceId}", a.deleteSpace},
		{"POST", "/spaces/{spaceId}/restore", a.restoreSpace},

		{"POST", "/orgs/{organizationId}/collections", a.createCollection},
		{"GET", "/orgs/{organizationId}/collections", a.listCollections},
		{"GET", "/collections/{collectionId}", a.getCollection},
		{"PATCH", "/collections/{collectionId}", a.updateCollection},
		{"DELETE", "/collections/{collectionId}", a.deleteCollection},
		{"GET", "/collections/{collectionId}/spaces", a.listCollectionSpaces},

		{"PUT", "/orgs/{organizationId}/teams", a.createTeam},
		{"GET", "/orgs/{organizationId}/teams", a.listTeams},
		{"GET", "/orgs/{organizationId}/teams/{teamId}", a.getTeam},
		{"PATCH", "/orgs/{organizationId}/teams/{teamId}", a.updateTeam},
		{"DELETE", "/orgs/{organizationId}/teams/{teamId}", a.deleteTeam},
		{"GET", "/orgs/{organizationId}/teams/{teamId}/members", a.listTeamMembers},
		{"PUT", "/orgs/{organizationId}/teams/{teamId}/members", a.updateTeamMembers},
		{"PUT", "/orgs/{organizationId}/teams/{teamId}/members/{userId}", a.setTeamMember},
		{"DELETE", "/orgs/{organizationId}/teams/{teamId}/members/{userId}", a.removeTeamMember},

		{"POST", "/spaces/{spaceId}/permissions", a.grantSpaceAccess},
		{"GET", "/spaces/{spaceId}/permissions/users", a.listSpaceUsers},
		{"PATCH", "/spaces/{spaceId}/permissions/users/{userId}", a.updateGrant},
		{"DELETE", "/spaces/{spaceId}/permissions/users/{userId}", a.removeGrant},
		{"GET", "/spaces/{spaceId}/permissions/teams", a.listSpaceTeams},
		{"PATCH", "/spaces/{spaceId}/permissions/teams/{teamId}", a.updateGrant},
		{"DELETE", "/spaces/{spaceId}/permissions/teams/{teamId}", a.removeGrant},
		{"POST", "/collections/{collectionId}/permissions", a.grantCollectionAccess},
		{"GET", "/collections/{collectionId}/permissions/users", a.listCollectionUsers},
		{"PATCH", "/collections/{collectionId}/permissions/users/{userId}", a.updateGrant},
		{"DELETE", "/collections/{collectionId}/permissions/users/{userId}", a.removeGrant},
		{"GET", "/collections/{collectionId}/permissions/teams", a.listCollectionTeams},
		{"PATCH", "/collections/{collectionId}/permissions/teams/{teamId}", a.updateGrant},
		{"DELETE", "/collections/{collectionId}/permissions/teams/{teamId}", a.removeGrant},

		{"POST", "/spaces/{spaceId}/change-requests", a.createChangeRequest},
		{"GET", "/spaces/{spaceId}/change-requests", a.listChangeRequests},
		{"GET", "/orgs/{organizationId}/change-requests", a.listOrganizationChangeRequests},
		{"GET", "/spaces/{spaceId}/change-requests/{changeRequestId}/contributors", a.getChangeRequestContributors},
		{"GET", "/spaces/{spaceId}/change-requests/{changeRequestId}/changes", a.getChangeRequestChanges},
		{"GET", "/spaces/{spaceId}/revisions/{revisionId}/changes", a.getRevisionSemanticChanges},
		{"GET", "/spaces/{spaceId}/documents/{documentId}", a.getDocumentByID},
		{"POST", "/spaces/{spaceId}/content/computed/document", a.getComputedDocument},
		{"POST", "/spaces/{spaceId}/content/computed/revision", a.getComputedRevision},
		{"GET", "/spaces/{spaceId}/change-requests/{changeRequestId}", a.getChangeRequest},
		{"PATCH", "/spaces/{spaceId}/change-requests/{changeRequestId}", a.updateChangeRequest},
		{"POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/merge", a.mergeChangeRequest},
		{"POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/update", a.updateChangeRequestFromSpace},
		{"GET", "/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document", a.pageDocument},
		{"GET", "/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document", a.reusableContentDocument},
		{"POST", "/spaces/{spaceId}/content/template", a.applyTemplate},

		{"POST", "/orgs/{organizationId}/sites", a.createSite},
		{"GET", "/orgs/{organizationId}/sites", a.listSites},
		{"GET", "/orgs/{organizationId}/sites/{siteId}", a.getSite},
		{"PATCH", "/orgs/{organizationId}/sites/{siteId}", a.updateSite},
		{"DELETE", "/orgs/{organizationId}/sites/{siteId}", a.deleteSite},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/site-spaces", a.listSiteSpaces},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/site-spaces", a.addSiteSpace},
		{"PATCH", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", a.updateSiteSpace},
		{"DELETE", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", a.deleteSiteSpace},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move", a.moveSiteSpace},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/sections", a.listSiteSections},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/sections", a.addSiteSection},
		{"PATCH", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", a.updateSiteSection},
		{"DELETE", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", a.deleteSiteSection},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move", a.moveSiteSection},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/section-groups", a.listSiteSectionGroups},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/section-groups", a.addSiteSectionGroup},
		{"PATCH", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", a.updateSiteSectionGroup},
		{"DELETE", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", a.deleteSiteSectionGroup},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move", a.moveSiteSectionGroup},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections", a.addSectionToGroup},
		{"DELETE", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", a.removeSectionFromGroup},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/structure", a.getSiteStructure},
		{"PATCH", "/orgs/{organizationId}/sites/{siteId}/structure/sort", a.sortSiteStructure},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/share-links", a.listShareLinks},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/share-links", a.createShareLink},
		{"PATCH", "/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", a.updateShareLink},
		{"DELETE", "/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", a.deleteShareLink},
	}
	cr := "/spaces/{spaceId}/change-requests/{changeRequestId}"
	routes = append(routes, a.commentRoutes("/spaces/{spaceId}")...)
	routes = append(routes, a.commentRoutes(cr)...)
	routes = append(routes,
		Route{"GET", cr + "/requested-reviewers", a.listRequestedReviewers},
		Route{"POST", cr + "/requested-reviewers", a.requestReviewers},
		Route{"DELETE", cr + "/requested-reviewers/{userId}", a.removeRequestedReviewer},
		Route{"GET", cr + "/reviews", a.listReviews},
		Route{"POST", cr + "/reviews", a.submitReview},
		Route{"GET", cr + "/reviews/{reviewId}", a.getReview},
		Route{"GET", "/spaces/{spaceId}/search", a.searchSpace},
		Route{"GET", "/orgs/{organizationId}/search", a.searchOrganization},
		Route{"POST", "/orgs/{organizationId}/ask", a.askInOrganization},
		Route{"GET", "/orgs/{organizationId}/ask/stream", a.streamAskInOrganization},
		Route{"GET", "/orgs/{organizationId}/ask/questions", a.getRecommendedQuestionsInOrganization},
		Route{"GET", "/orgs/{organizationId}/ask/questions/stream", a.streamRecommendedQuestionsInOrganization},
		Route{"POST", "/orgs/{organizationId}/sites/{siteId}/ask", a.streamAskInSite},
		Route{"GET", "/orgs/{organizationId}/sites/{siteId}/ask/questions", a.streamRecommendedQuestionsInSite},
		Route{"POST", "/orgs/{organizationId}/sites/{siteId}/ai/response", a.streamAIResponseInSite},
	)
	routes = append(routes, a.sitePublishingRoutes()...)
	routes = append(routes, a.siteRedirectRoutes()...)
	routes = append(routes, a.customFontRoutes()...)
	routes = append(routes, a.siteMcpServerRoutes()...)
	routes = append(routes, a.sitePublishingAuthRoutes()...)
	routes = append(routes, a.customHostnameRoutes()...)
	routes = append(routes, a.urlRoutes()...)
	routes = append(routes, a.siteInsightsRoutes()...)
	routes = append(routes, a.translationRoutes()...)
	routes = append(routes, a.gitSyncRoutes()...)
	routes = append(routes, a.openAPIRoutes()...)
	routes = append(routes, a.integrationRoutes()...)
	routes = append(routes, a.eventRoutes()...)
	routes = append(routes, a.contentRoutes("/spaces/{spaceId}/content", a.spaceContent)...)
	routes = append(routes, a.contentRoutes("/spaces/{spaceId}/change-requests/{changeRequestId}/content", a.changeRequestContent)...)
	routes = append(routes, a.linkRoutes("/spaces/{spaceId}/content", a.spaceContent)...)
	routes = append(routes, a.linkRoutes("/spaces/{spaceId}/change-requests/{changeRequestId}/content", a.changeRequestContent)...)
	return append(routes, a.contentRoutes("/spaces/{spaceId}/revisions/{revisionId}", a.revisionContent)...)
}

// handlerFunc is a /v1 handler: it returns the status and the body to encode (nil: no body), or
// an error that errors.go turns into the contract's error body.
type handlerFunc func(w http.ResponseWriter, r *http.Request) (int, any, error)

func (h handlerFunc) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	status, body, err := h(w, r)
	switch {
	case err != nil:
		writeError(w, r, err)
	case status == 0: // the handler wrote the answer itself (a stream)
	case body == nil:
		w.WriteHeader(status)
	default:
		writeJSON(w, status, body)
	}
}

func ok(body any, err error) (int, any, error) {
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, body, nil
}

// deleted answers a DELETE as the contract's newer operations do: 205 when something was
// removed, 204 when there was nothing to remove.
func deleted(removed bool, err error) (int, any, error) {
	switch {
	case err != nil:
		return 0, nil, err
	case removed:
		return http.StatusResetContent, nil, nil
	}
	return http.StatusNoContent, nil, nil
}

// noContent answers 204 once the action succeeded, whatever it reported: DELETE is idempotent.
func noContent[T any](_ T, err error) (int, any, error) {
	if err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}
