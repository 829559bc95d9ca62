package domain

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/jobs"

	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/storage"
)

// Every change that commits writes its event in the same transaction (storage's outbox): a
// domain method names the change with emit, on the context it passes to the one Store write
// that makes it. Subscribers, webhooks and the audit log all read those events.

// The event types Bindery writes. Where GitBook's contract names an event (its Event schema),
// the name is the contract's.
const (
	EventSpaceCreated            = "space_created"
	EventSpaceUpdated            = "space_updated"
	EventSpaceDeleted            = "space_deleted"
	EventSpaceRestored           = "space_restored"
	EventSpaceVisibilityUpdated  = "space_visibility_updated" // contract
	EventSpaceContentUpdated     = "space_content_updated"    // contract
	EventSpaceGitSyncStarted     = "space_gitsync_started"    // contract
	EventSpaceGitSyncCompleted   = "space_gitsync_completed"  // contract
	EventChangeRequestOpened     = "change_request_opened"
	EventChangeRequestUpdated    = "change_request_updated"
	EventChangeRequestMerged     = "change_request_merged"
	EventChangeRequestClosed     = "change_request_closed"
	EventChangeRequestReviewed   = "change_request_review_submitted"
	EventChangeRequestReviewerRm = "change_request_reviewer_removed"
	EventCommentCreated          = "comment_created"
	EventCommentUpdated          = "comment_updated"
	EventCommentDeleted          = "comment_deleted"
	EventCommentReplyCreated     = "comment_reply_created"
	EventCommentReplyUpdated     = "comment_reply_updated"
	EventMemberInvited           = "member_invited"
	EventMemberJoined            = "member_joined"
	EventMemberRoleUpdated       = "member_role_updated"
	EventMemberRemoved           = "member_removed"
	EventTeamCreated             = "team_created"
	EventTeamDeleted             = "team_deleted"
	EventTeamMembersUpdated      = "team_members_updated"
	EventPermissionUpdated       = "permission_updated"
	EventPermissionRemoved       = "permission_removed"
	EventOrganizationUpdated     = "organization_updated"
	EventSiteCreated             = "site_created"
	EventSiteUpdated             = "site_updated"
	EventSiteDeleted             = "site_deleted"
	EventSiteSpaceAdded          = "site_space_added"
	EventSiteSpaceUpdated        = "site_space_updated"
	EventSiteSpaceRemoved        = "site_space_removed"
	EventSiteMcpServerCreated    = "site_mcp_server_created"
	EventSiteMcpServerUpdated    = "site_mcp_server_updated"
	EventSiteMcpServerDeleted    = "site_mcp_server_deleted"
	EventCollectionCreated       = "collection_created"
	EventCollectionUpdated       = "collection_updated"
	EventCollectionDeleted       = "collection_deleted"
	EventTranslationCreated      = "translation_created"
	EventTranslationDeleted      = "translation_deleted"
	EventTranslationRunStarted   = "translation_run_started"
	EventTranslationRunFinished  = "translation_run_finished"
	EventUserSignedIn            = "user_signed_in"
	EventUserSignedOut           = "user_signed_out"
	EventUserPasswordChanged     = "user_password_changed"

	EventSitePublished             = "site_published"
	EventSiteUnpublished           = "site_unpublished"
	EventSiteStructureUpdated      = "site_structure_updated"
	EventSiteSectionCreated        = "site_section_created"
	EventSiteSectionUpdated        = "site_section_updated"
	EventSiteSectionDeleted        = "site_section_deleted"
	EventSiteCustomizationUpdated  = "site_customization_updated"
	EventSiteAdaptiveSchemaUpdated = "site_adaptive_schema_updated"
	EventSiteVisitorAuthUpdated    = "site_visitor_auth_updated"
	EventSiteShareLinkCreated      = "site_share_link_created"
	EventSiteShareLinkUpdated      = "site_share_link_updated"
	EventSiteShareLinkDeleted      = "site_share_link_deleted"
	EventSiteRedirectCreated       = "site_redirect_created"
	EventSiteRedirectUpdated       = "site_redirect_updated"
	EventSiteRedirectDeleted       = "site_redirect_deleted"
	EventSiteHostnameUpdated       = "site_hostname_updated"
	EventSiteHostnameRemoved       = "site_hostname_removed"
	EventCustomFontCreated         = "custom_font_created"
	EventCustomFontUpdated         = "custom_font_updated"
	EventCustomFontDeleted         = "custom_font_deleted"
	EventInviteLinkCreated         = "invite_link_created"
	EventInviteLinkDeleted         = "invite_link_deleted"
	EventMemberSSOUpdated          = "member_sso_updated"
	EventSAMLProviderCreated       = "saml_provider_created"
	EventSAMLProviderUpdated       = "saml_provider_updated"
	EventSAMLProviderDeleted       = "saml_provider_deleted"
	EventTeamUpdated               = "team_updated"
	EventAgentInstructionsUpdated  = "agent_instructions_updated"
	EventTranslationUpdated        = "translation_updated"
	EventGlossaryUpdated           = "translation_glossary_updated"
	EventOpenAPISpecCreated        = "openapi_spec_created"
	EventOpenAPISpecUpdated        = "openapi_spec_updated"
	EventChangeRequestReviewersAsk = "change_request_reviewers_requested"
	EventWebhookCreated            = "webhook_created"
	EventWebhookUpdated            = "webhook_updated"
	EventWebhookSecretRotated      = "webhook_secret_rotated"
	EventWebhookDeleted            = "webhook_deleted"
	EventWebhookDisabled           = "webhook_disabled"
	EventIntegrationPublished      = "integration_published"
	EventInstallationSetup         = "installation_setup"       // contract
	EventSpaceInstallationSetup    = "space_installation_setup" // contract
	EventInstallationTokenCreated  = "installation_token_created"
)

// EventTypes lists every event type with a label, in the order docs/events.md lists them.
var EventTypes = []struct{ Type, Label string }{
	{EventSpaceCreated, "Space created"},
	{EventSpaceUpdated, "Space updated"},
	{EventSpaceDeleted, "Space deleted"},
	{EventSpaceRestored, "Space restored"},
	{EventSpaceVisibilityUpdated, "Space visibility updated"},
	{EventSpaceContentUpdated, "Space content updated"},
	{EventSpaceGitSyncStarted, "Git Sync started"},
	{EventSpaceGitSyncCompleted, "Git Sync completed"},
	{EventChangeRequestOpened, "Change request opened"},
	{EventChangeRequestUpdated, "Change request updated"},
	{EventChangeRequestMerged, "Change request merged"},
	{EventChangeRequestClosed, "Change request closed"},
	{EventChangeRequestReviewed, "Change request review submitted"},
	{EventChangeRequestReviewerRm, "Change request reviewer removed"},
	{EventCommentCreated, "Comment created"},
	{EventCommentUpdated, "Comment updated"},
	{EventCommentDeleted, "Comment deleted"},
	{EventCommentReplyCreated, "Comment reply created"},
	{EventCommentReplyUpdated, "Comment reply updated"},
	{EventMemberInvited, "Member invited"},
	{EventMemberJoined, "Member joined"},
	{EventMemberRoleUpdated, "Member role updated"},
	{EventMemberRemoved, "Member removed"},
	{EventTeamCreated, "Team created"},
	{EventTeamDeleted, "Team deleted"},
	{EventTeamMembersUpdated, "Team members updated"},
	{EventPermissionUpdated, "Permission granted or changed"},
	{EventPermissionRemoved, "Permission removed"},
	{EventOrganizationUpdated, "Organization updated"},
	{EventSiteCreated, "Site created"},
	{EventSiteUpdated, "Site updated"},
	{EventSiteDeleted, "Site deleted"},
	{EventSiteSpaceAdded, "Space added to a site"},
	{EventSiteSpaceUpdated, "Site space updated"},
	{EventSiteSpaceRemoved, "Space removed from a site"},
	{EventSiteMcpServerCreated, "Site MCP server added"},
	{EventSiteMcpServerUpdated, "Site MCP server updated"},
	{EventSiteMcpServerDeleted, "Site MCP server removed"},
	{EventCollectionCreated, "Collection created"},
	{EventCollectionUpdated, "Collection updated"},
	{EventCollectionDeleted, "Collection deleted"},
	{EventTranslationCreated, "Translation created"},
	{EventTranslationDeleted, "Translation deleted"},
	{EventTranslationRunStarted, "Translation run started"},
	{EventTranslationRunFinished, "Translation run finished"},
	{EventUserSignedIn, "User signed in"},
	{EventUserSignedOut, "User signed out"},
	{EventUserPasswordChanged, "User password changed"},
	{EventSitePublished, "Site published"},
	{EventSiteUnpublished, "Site unpublished"},
	{EventSiteStructureUpdated, "Site structure reordered"},
	{EventSiteSectionCreated, "Site section created"},
	{EventSiteSectionUpdated, "Site section updated"},
	{EventSiteSectionDeleted, "Site section deleted"},
	{EventSiteCustomizationUpdated, "Site customization updated"},
	{EventSiteAdaptiveSchemaUpdated, "Site adaptive schema updated"},
	{EventSiteVisitorAuthUpdated, "Site visitor authentication updated"},
	{EventSiteShareLinkCreated, "Share link created"},
	{EventSiteShareLinkUpdated, "Share link updated"},
	{EventSiteShareLinkDeleted, "Share link deleted"},
	{EventSiteRedirectCreated, "Site redirect created"},
	{EventSiteRedirectUpdated, "Site redirect updated"},
	{EventSiteRedirectDeleted, "Site redirect deleted"},
	{EventSiteHostnameUpdated, "Custom host name set or checked"},
	{EventSiteHostnameRemoved, "Custom host name removed"},
	{EventCustomFontCreated, "Custom font created"},
	{EventCustomFontUpdated, "Custom font updated"},
	{EventCustomFontDeleted, "Custom font deleted"},
	{EventInviteLinkCreated, "Invite link created"},
	{EventInviteLinkDeleted, "Invite link deleted"},
	{EventMemberSSOUpdated, "Member single sign-on updated"},
	{EventSAMLProviderCreated, "SAML provider created"},
	{EventSAMLProviderUpdated, "SAML provider updated"},
	{EventSAMLProviderDeleted, "SAML provider deleted"},
	{EventTeamUpdated, "Team updated"},
	{EventAgentInstructionsUpdated, "Agent instructions updated"},
	{EventTranslationUpdated, "Translation updated"},
	{EventGlossaryUpdated, "Translation glossary updated"},
	{EventOpenAPISpecCreated, "OpenAPI specification created"},
	{EventOpenAPISpecUpdated, "OpenAPI specification updated"},
	{EventChangeRequestReviewersAsk, "Change request reviewers requested"},
	{EventWebhookCreated, "Webhook created"},
	{EventWebhookUpdated, "Webhook updated"},
	{EventWebhookSecretRotated, "Webhook secret rotated"},
	{EventWebhookDeleted, "Webhook deleted"},
	{EventWebhookDisabled, "Webhook disabled"},
	{EventIntegrationPublished, "Integration published"},
	{EventInstallationSetup, "Integration installed"},
	{EventSpaceInstallationSetup, "Integration installed on a space"},
	{EventInstallationTokenCreated, "Installation token created"},
}

// emit returns ctx carrying ev, completed with who acts (the caller in ctx, else the system),
// when, and payload as its compact JSON body: the Store write given that context commits it.
func (r *App) emit(ctx context.Context, ev *storage.Event, payload any) context.Context {
	r.fillEvent(ctx, ev, payload)
	return storage.WithEvent(ctx, ev)
}

func (r *App) fillEvent(ctx context.Context, ev *storage.Event, payload any) {
	if a := authz.ActorFrom(ctx); a != nil && a.UserID != "" {
		ev.ActorType, ev.ActorID, ev.ActorLabel, ev.Source = "user", a.UserID, a.Email, "ui"
		if a.TokenID != "" && !strings.HasPrefix(a.TokenID, "session:") { // an API token, not a browser session
			ev.TokenID, ev.Source = a.TokenID, "api"
		}
	} else {
		ev.ActorType, ev.ActorID, ev.Source = "system", "system", "workflow"
	}
	ev.CreatedAt = r.Now()
	if payload != nil {
		if b, err := json.Marshal(payload); err == nil {
			ev.Payload = string(b)
		}
	}
}

// spaceEvent is an event about a space.
func spaceEvent(typ string, sp *storage.Space) *storage.Event {
	return &storage.Event{Type: typ, OrganizationID: sp.OrganizationID, SpaceID: sp.ID, TargetType: "space", TargetID: sp.ID, TargetLabel: sp.Title}
}

// crEvent is an event about a change request of a space.
func crEvent(typ string, sp *storage.Space, cr *storage.ChangeRequest) *storage.Event {
	return &storage.Event{Type: typ, OrganizationID: sp.OrganizationID, SpaceID: sp.ID, ChangeRequestID: cr.ID, TargetType: "change-request", TargetID: cr.ID, TargetLabel: cr.Subject}
}

// commentEvent is an event about a comment or a reply (its thread's comment in CommentID when a
// reply: subscribers follow threads).
func commentEvent(typ string, t *thread, c *storage.Comment) *storage.Event {
	ev := &storage.Event{Type: typ, OrganizationID: t.row.OrganizationID, SpaceID: t.row.ID, CommentID: c.ID, TargetType: "comment", TargetID: c.ID}
	if c.ParentID != nil {
		ev.CommentID, ev.TargetType = *c.ParentID, "comment-reply"
	}
	if t.cr != nil {
		ev.ChangeRequestID = t.cr.ID
	}
	return ev
}

// memberEvent is an event about a member of an organization.
func memberEvent(typ, orgID, userID string) *storage.Event {
	return &storage.Event{Type: typ, OrganizationID: orgID, SubjectUserID: userID, TargetType: "member", TargetID: userID}
}

// permissionEvent is an event about the roles granted on a space or a collection.
func permissionEvent(typ, orgID, kind, id string) *storage.Event {
	ev := &storage.Event{Type: typ, OrganizationID: orgID, TargetType: kind, TargetID: id}
	if kind == storage.TargetSpace {
		ev.SpaceID = id
	} else {
		ev.CollectionID = id
	}
	return ev
}

func teamEvent(typ, orgID, teamID string) *storage.Event {
	return &storage.Event{Type: typ, OrganizationID: orgID, TeamID: teamID, TargetType: "team", TargetID: teamID}
}

func collectionEvent(typ string, c *storage.Collection) *storage.Event {
	return &storage.Event{Type: typ, OrganizationID: c.OrganizationID, CollectionID: c.ID, TargetType: "collection", TargetID: c.ID, TargetLabel: c.Title}
}

func siteEvent(typ, orgID, siteID, title string) *storage.Event {
	return &storage.Event{Type: typ, OrganizationID: orgID, SiteID: siteID, TargetType: "site", TargetID: siteID, TargetLabel: title}
}

// siteObjectEvent is an event about a part of a site (a section, a share link, a redirect…), or
// about the site itself when kind is "site".
func siteObjectEvent(typ string, site *storage.Site, kind, id, label string) *storage.Event {
	return &storage.Event{Type: typ, OrganizationID: site.OrganizationID, SiteID: site.ID, TargetType: kind, TargetID: id, TargetLabel: label}
}

// orgObjectEvent is an event about an organization's setting or one of its objects that no
// other event kind names (an invite link, a SAML provider, a webhook…).
func orgObjectEvent(typ, orgID, kind, id, label string) *storage.Event {
	return &storage.Event{Type: typ, OrganizationID: orgID, TargetType: kind, TargetID: id, TargetLabel: label}
}

func translationEvent(typ string, t *storage.Translation) *storage.Event {
	return &storage.Event{Type: typ, OrganizationID: t.OrganizationID, SpaceID: t.SourceSpaceID, TargetType: "translation", TargetID: t.ID}
}

func gitSyncEvent(typ string, job *storage.GitSyncJob) *storage.Event {
	return &storage.Event{Type: typ, OrganizationID: job.OrganizationID, SpaceID: job.SpaceID, TargetType: "space", TargetID: job.SpaceID}
}

// pruneEventsArgs is the periodic job that deletes events older than the operator's retention.
type pruneEventsArgs struct{}

func (pruneEventsArgs) Kind() string { return "prune_events" }

// PruneEventsInterval is how often events past their retention are deleted.
const PruneEventsInterval = time.Hour

func init() {
	addJobKinds(func(r *App, reg *jobs.Registry) {
		jobs.Add(reg, func(ctx context.Context, _ *jobs.Job[pruneEventsArgs]) error {
			_, err := r.PruneEvents(ctx)
			return err
		})
		jobs.Every(reg, PruneEventsInterval, pruneEventsArgs{})
	})
}

// PruneEvents deletes the events older than the operator's retention (none when it is 0) and
// returns how many.
func (r *App) PruneEvents(ctx context.Context) (int64, error) {
	if r.Settings.EventRetention <= 0 {
		return 0, nil
	}
	return r.Store.PruneEvents(ctx, r.Now().Add(-r.Settings.EventRetention))
}
