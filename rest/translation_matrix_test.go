package rest_test

import "net/http"

// The permission matrix rows of translations and the glossary: members with the create role
// manage translations; reading one follows its spaces (the fixtures' spaces inherit the
// organization role, so guests do not see them); any member reads the glossary, the create role
// changes it.

func init() { matrix = append(matrix, translationMatrix()...) }

func translationMatrix() []matrixCase {
	tr := func(suffix string) func(fixture) string {
		return func(f fixture) string { return "/orgs/" + f.org + "/translations/" + f.translation + suffix }
	}
	entry := func(f fixture) string { return "/orgs/" + f.org + "/translations-glossary/" + f.glossaryEntry }
	return []matrixCase{
		{"GET", "/orgs/{organizationId}/translations", member, 200, org("/translations"), "", `query($o: ID!) { organization(id: $o) { translations { totalCount } } }`},
		{"POST", "/orgs/{organizationId}/translations", creator, 201, org("/translations"), `{"language":"fr","source":{"space":"SPACE","language":"en"}}`,
			`mutation($o: ID!, $s: ID!) { createTranslation(organizationId: $o, input: {language: FR, source: {space: $s, language: EN}}) { id } }`},
		{"GET", "/orgs/{organizationId}/translations/{translationId}", contentReader, 200, tr(""), "", `query($o: ID!, $tr: ID!) { organization(id: $o) { translation(id: $tr) { id } } }`},
		{"PUT", "/orgs/{organizationId}/translations/{translationId}", contentCreator, 200, tr(""), `{"instructions":{"object":"document","data":{},"nodes":[]}}`,
			`mutation($o: ID!, $tr: ID!) { updateTranslation(organizationId: $o, translationId: $tr, input: {instructions: {object: "document", data: {}, nodes: []}}) { id } }`},
		{"DELETE", "/orgs/{organizationId}/translations/{translationId}", contentCreatorDelete, 204, tr(""), "",
			`mutation($o: ID!, $tr: ID!) { deleteTranslation(organizationId: $o, translationId: $tr) }`},
		{"POST", "/orgs/{organizationId}/translations/{translationId}/run", contentCreator, 204, tr("/run"), "",
			`mutation($o: ID!, $tr: ID!) { runTranslation(organizationId: $o, translationId: $tr) { id } }`},
		{"GET", "/orgs/{organizationId}/translations-glossary", member, 200, org("/translations-glossary"), "", `query($o: ID!) { organization(id: $o) { glossary { totalCount } } }`},
		{"PUT", "/orgs/{organizationId}/translations-glossary", creator, 204, org("/translations-glossary"), `{"operations":[{"type":"insert","translations":{"en":"Term","fr":"Terme"}}]}`,
			`mutation($o: ID!) { updateGlossary(organizationId: $o, input: {operations: [{type: INSERT, translations: {en: "Term", fr: "Terme"}}]}) }`},
		{"GET", "/orgs/{organizationId}/translations-glossary/{glossaryEntryId}", member, 200, entry, "", `query($o: ID!, $ge: ID!) { organization(id: $o) { glossaryEntry(id: $ge) { id } } }`},
	}
}

// matrixTranslation creates, as the admin, a source space, a translation of it and a glossary
// entry.
func (e *env) matrixTranslation(admin account, orgID string) (translationID, entryID, source string) {
	e.t.Helper()
	source = e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Source"}`).want(http.StatusCreated).object()["id"].(string)
	translationID = e.call(admin.Token, "POST", "/orgs/"+orgID+"/translations", `{"language":"de","source":{"space":"`+source+`","language":"en"}}`).want(http.StatusCreated).object()["id"].(string)
	e.call(admin.Token, "PUT", "/orgs/"+orgID+"/translations-glossary", `{"operations":[{"type":"insert","translations":{"en":"Fixture","de":"Vorrichtung"}}]}`).want(http.StatusNoContent)
	var list struct{ Items []struct{ ID string } }
	e.call(admin.Token, "GET", "/orgs/"+orgID+"/translations-glossary", nil).want(http.StatusOK).decode(&list)
	return translationID, list.Items[len(list.Items)-1].ID, source
}
