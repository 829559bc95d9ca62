package rest_test

import (
	"fmt"
	"strings"
)

// The permission matrix rows of content and change requests.

func init() { matrix = append(matrix, contentMatrix()...) }

// computes reports a POST that only reads: computing content changes nothing.
func computes(c matrixCase) bool {
	return c.method == "POST" && strings.Contains(c.path, "/content/computed/")
}

func contentMatrix() []matrixCase {
	cr := func(suffix string) func(fixture) string {
		return func(f fixture) string { return "/spaces/" + f.space + "/change-requests/" + f.changeRequest + suffix }
	}
	rows := []matrixCase{
		{"POST", "/spaces/{spaceId}/change-requests", contentEditor, 201, space("/change-requests"), `{"subject":"New"}`,
			`mutation($s: ID!) { createChangeRequest(spaceId: $s, input: {subject: "New"}) { id } }`},
		{"GET", "/spaces/{spaceId}/change-requests", contentReader, 200, space("/change-requests"), "", `query($s: ID!) { space(id: $s) { changeRequestList { totalCount } } }`},
		{"GET", "/spaces/{spaceId}/change-requests/{changeRequestId}", contentReader, 200, cr(""), "", `query($s: ID!, $cr: ID!) { space(id: $s) { changeRequest(id: $cr) { id } } }`},
		{"GET", "/spaces/{spaceId}/change-requests/{changeRequestId}/contributors", contentReader, 200, cr("/contributors"), "", `query($s: ID!, $cr: ID!) { space(id: $s) { changeRequest(id: $cr) { contributors { count } } } }`},
		{"GET", "/spaces/{spaceId}/change-requests/{changeRequestId}/changes", contentReader, 200, cr("/changes"), "", `query($s: ID!, $cr: ID!) { space(id: $s) { changeRequest(id: $cr) { changes { more } } } }`},
		{"GET", "/spaces/{spaceId}/revisions/{revisionId}/changes", contentReader, 200,
			func(f fixture) string { return "/spaces/" + f.space + "/revisions/" + f.revision + "/changes" }, "",
			`query($s: ID!, $r: ID!) { space(id: $s) { revisionById(id: $r) { semanticChanges { more } } } }`},
		{"GET", "/spaces/{spaceId}/documents/{documentId}", contentReader, 200,
			func(f fixture) string { return "/spaces/" + f.space + "/documents/" + f.document }, "",
			`query($s: ID!, $d: ID!) { space(id: $s) { documentById(id: $d) } }`},
		{"POST", "/spaces/{spaceId}/content/computed/document", contentReader, 200, space("/content/computed/document"),
			`{"source":{"type":"builtin:openapi","dependencies":{"spec":{"ref":{"kind":"openapi","spec":"SPECSLUG"}}},"props":{"doc":"models"}},"seed":"s"}`,
			`query($s: ID!, $sp: String!) { space(id: $s) { computedDocument(source: {type: "builtin:openapi", dependencies: {spec: {ref: {kind: "openapi", spec: $sp}}}, props: {doc: "models"}}, seed: "s") } }`},
		{"POST", "/spaces/{spaceId}/content/computed/revision", contentReader, 200, space("/content/computed/revision"),
			`{"source":{"type":"builtin:openapi","dependencies":{"spec":{"ref":{"kind":"openapi","spec":"SPECSLUG"}}},"props":{"models":true}},"seed":"s"}`,
			`query($s: ID!, $sp: String!) { space(id: $s) { computedRevision(source: {type: "builtin:openapi", dependencies: {spec: {ref: {kind: "openapi", spec: $sp}}}, props: {models: true}}, seed: "s") } }`},
		{"GET", "/orgs/{organizationId}/change-requests", member, 200, org("/change-requests"), "", `query($o: ID!) { organization(id: $o) { changeRequestList { totalCount } } }`},
		{"PATCH", "/spaces/{spaceId}/change-requests/{changeRequestId}", contentEditor, 200, cr(""), `{"subject":"Renamed"}`,
			`mutation($s: ID!, $cr: ID!) { updateChangeRequest(spaceId: $s, changeRequestId: $cr, input: {subject: "Renamed"}) { id } }`},
		{"POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/merge", contentEditor, 200, cr("/merge"), "",
			`mutation($s: ID!, $cr: ID!) { mergeChangeRequest(spaceId: $s, changeRequestId: $cr) { result } }`},
		{"POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/update", contentEditor, 200, cr("/update"), "",
			`mutation($s: ID!, $cr: ID!) { updateChangeRequestFromSpace(spaceId: $s, changeRequestId: $cr) { result } }`},
		{"POST", "/spaces/{spaceId}/content/template", contentEditor, 201, space("/content/template"), `{"id":"getting-started"}`,
			`mutation($s: ID!) { applyTemplate(target: {spaceId: $s}, templateId: "getting-started") { id } }`},
		{"GET", "/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document", contentReader, 200,
			func(f fixture) string {
				return "/spaces/" + f.space + "/revisions/" + f.revision + "/page/" + f.page + "/document"
			}, "",
			`query($s: ID!, $r: ID!, $p: ID!) { space(id: $s) { revisionById(id: $r) { page(id: $p) { document } } } }`},
		{"GET", "/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document", contentReader, 200,
			func(f fixture) string {
				return "/spaces/" + f.space + "/revisions/" + f.revision + "/reusable-contents/" + f.reusableContent + "/document"
			}, "",
			`query($s: ID!, $r: ID!, $rc: ID!) { space(id: $s) { revisionById(id: $r) { reusableContent(id: $rc) { document } } } }`},
	}
	sources := []struct {
		prefix string
		url    func(fixture) string
		gql    string // opens the content in a query over $s, $cr, $r
	}{
		{"/spaces/{spaceId}/content", space("/content"), `space(id: $s) { content { %s } }`},
		{"/spaces/{spaceId}/change-requests/{changeRequestId}/content", cr("/content"), `space(id: $s) { changeRequest(id: $cr) { content { %s } } }`},
		{"/spaces/{spaceId}/revisions/{revisionId}", func(f fixture) string { return "/spaces/" + f.space + "/revisions/" + f.revision }, `space(id: $s) { revisionById(id: $r) { %s } }`},
	}
	for _, src := range sources {
		read := func(suffix func(fixture) string, field string) (func(fixture) string, string) {
			body := fmt.Sprintf(src.gql, field)
			var params []string
			for _, v := range []string{"s", "cr", "r", "p", "f", "rc"} {
				if strings.Contains(body+" ", "$"+v+")") || strings.Contains(body, "$"+v+" ") {
					params = append(params, "$"+v+": ID!")
				}
			}
			return func(f fixture) string { return src.url(f) + suffix(f) },
				"query(" + strings.Join(params, ", ") + ") { " + body + " }"
		}
		add := func(path string, suffix func(fixture) string, field string) {
			url, gql := read(suffix, field)
			rows = append(rows, matrixCase{"GET", src.prefix + path, contentReader, 200, url, "", gql})
		}
		add("", fixed(""), "id")
		add("/pages", fixed("/pages"), "pages { id }")
		add("/files", fixed("/files"), "files { totalCount }")
		add("/files/{fileId}", func(f fixture) string { return "/files/" + f.file }, "file(id: $f) { id }")
		add("/page/{pageId}", func(f fixture) string { return "/page/" + f.page }, "page(id: $p) { id }")
		add("/path/*", fixed("/path/fixture-page"), `pageByPath(path: "fixture-page") { id }`)
		add("/reusable-contents/{reusableContentId}", func(f fixture) string { return "/reusable-contents/" + f.reusableContent }, "reusableContent(id: $rc) { id }")
		if src.prefix != "/spaces/{spaceId}/revisions/{revisionId}" {
			add("/page/{pageId}/links", func(f fixture) string { return "/page/" + f.page + "/links" }, "page(id: $p) { links { status } }")
			add("/page/{pageId}/backlinks", func(f fixture) string { return "/page/" + f.page + "/backlinks" }, "page(id: $p) { backlinks { id } }")
			add("/files/{fileId}/backlinks", func(f fixture) string { return "/files/" + f.file + "/backlinks" }, "fileBacklinks(id: $f) { id }")
		}
	}
	return rows
}
