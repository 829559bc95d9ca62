package storage

// An update names the fields of a row it writes with a typed set of the row's field constants
// (SpaceTitle|SpaceIcon): the graph says what it changed in the row it read, storage alone knows
// which columns that is. Each row type has its own field type, so one row's fields cannot be
// passed to another's update, and a misspelt field does not compile.

// columnsOf lists the columns of the fields in set, in the fields' order.
func columnsOf[F ~uint32](set F, columns map[F][]string) []string {
	var out []string
	for f := F(1); f != 0 && f <= set; f <<= 1 {
		if set&f != 0 {
			out = append(out, columns[f]...)
		}
	}
	return out
}

// OrganizationField is a field of an Organization that UpdateOrganization writes.
type OrganizationField uint32

// The organization fields.
const (
	OrganizationTitle OrganizationField = 1 << iota
	OrganizationEmailDomains
	OrganizationHostname
	OrganizationDefaultRole
	OrganizationDefaultContent
	OrganizationLogo
	OrganizationSSO
	OrganizationAI
	OrganizationInviteLinks
	OrganizationMergeRules
)

var organizationColumns = map[OrganizationField][]string{
	OrganizationTitle: {"title"}, OrganizationEmailDomains: {"email_domains"}, OrganizationHostname: {"hostname"},
	OrganizationDefaultRole: {"default_role"}, OrganizationDefaultContent: {"default_content_site"},
	OrganizationLogo: {"logo_url"}, OrganizationSSO: {"sso"}, OrganizationAI: {"ai"},
	OrganizationInviteLinks: {"invite_links"}, OrganizationMergeRules: {"merge_rules"},
}

// SpaceField is a field of a Space that UpdateSpace writes.
type SpaceField uint32

// The space fields. SpaceIcon is the emoji and the icon URL together: they exclude each other.
const (
	SpaceTitle SpaceField = 1 << iota
	SpaceIcon
	SpaceEditMode
	SpaceDefaultLevel
	SpaceLanguage
	SpaceMergeRules
	SpaceIsTemplate
)

var spaceColumns = map[SpaceField][]string{
	SpaceTitle: {"title"}, SpaceIcon: {"emoji", "icon_url"}, SpaceEditMode: {"edit_mode"},
	SpaceDefaultLevel: {"default_level"}, SpaceLanguage: {"language"}, SpaceMergeRules: {"merge_rules"},
	SpaceIsTemplate: {"is_template"},
}

// CollectionField is a field of a Collection that UpdateCollection writes.
type CollectionField uint32

// The collection fields.
const (
	CollectionTitle CollectionField = 1 << iota
	CollectionDescription
	CollectionDefaultLevel
)

var collectionColumns = map[CollectionField][]string{
	CollectionTitle: {"title"}, CollectionDescription: {"description"}, CollectionDefaultLevel: {"default_level"},
}

// CommentField is a field of a comment or reply that UpdateComment writes.
type CommentField uint32

// The comment fields. CommentBody is the body with its kind and when it was edited;
// CommentStatus is the status with who resolved it and when.
const (
	CommentBody CommentField = 1 << iota
	CommentStatus
)

var commentColumns = map[CommentField][]string{
	CommentBody: {"body_kind", "body", "edited_at"}, CommentStatus: {"status", "resolved_at", "resolved_by"},
}

// ChangeRequestField is a field of a ChangeRequest that UpdateChangeRequest and
// RequestReviewers write.
type ChangeRequestField uint32

// The change request fields.
const (
	ChangeRequestSubject ChangeRequestField = 1 << iota
	ChangeRequestDescription
	ChangeRequestStatus
)

var changeRequestColumns = map[ChangeRequestField][]string{
	ChangeRequestSubject: {"subject"}, ChangeRequestDescription: {"description"}, ChangeRequestStatus: {"status"},
}

// SiteField is a field of a Site that UpdateSite writes.
type SiteField uint32

// The site fields. SiteTitle also writes the title's folded form, which site lists sort by.
const (
	SiteTitle SiteField = 1 << iota
	SiteVisibility
	SiteBasename
	SiteAdaptiveContent
	SiteAgentsContext
)

var siteColumns = map[SiteField][]string{
	SiteTitle: {"title", "title_key"}, SiteVisibility: {"visibility"}, SiteBasename: {"basename"},
	SiteAdaptiveContent: {"adaptive_content"}, SiteAgentsContext: {"agents_context"},
}

// SiteSpaceField is a field of a SiteSpace that UpdateSiteSpace writes.
type SiteSpaceField uint32

// The site space fields.
const (
	SiteSpacePath SiteSpaceField = 1 << iota
	SiteSpaceCondition
	SiteSpaceSpace
)

var siteSpaceColumns = map[SiteSpaceField][]string{
	SiteSpacePath: {"path"}, SiteSpaceCondition: {"condition"}, SiteSpaceSpace: {"space_id"},
}

// ShareLinkField is a field of a ShareLink that UpdateShareLink writes.
type ShareLinkField uint32

// The share link fields.
const (
	ShareLinkActive ShareLinkField = 1 << iota
	ShareLinkName
)

var shareLinkColumns = map[ShareLinkField][]string{ShareLinkActive: {"active"}, ShareLinkName: {"name"}}

// SiteSectionField is a field of a SiteSection or SiteSectionGroup that UpdateSiteSection and
// UpdateSiteSectionGroup write (a group has a title and an icon only).
type SiteSectionField uint32

// The site section fields.
const (
	SiteSectionTitle SiteSectionField = 1 << iota
	SiteSectionPath
	SiteSectionCondition
	SiteSectionIcon
	SiteSectionDescription
)

var siteSectionColumns = map[SiteSectionField][]string{
	SiteSectionTitle: {"title"}, SiteSectionPath: {"path"}, SiteSectionCondition: {"condition"},
	SiteSectionIcon: {"icon"}, SiteSectionDescription: {"description"},
}

// TranslationRunField is a field of a TranslationRun that UpdateTranslationRun writes.
type TranslationRunField uint32

// The translation run fields. TranslationRunStatus is the status with when the run started;
// TranslationRunSource is the source revision with the number of pages it holds.
const (
	TranslationRunStatus TranslationRunField = 1 << iota
	TranslationRunSource
)

var translationRunColumns = map[TranslationRunField][]string{
	TranslationRunStatus: {"status", "started_at"}, TranslationRunSource: {"source_revision_id", "pages_total"},
}
