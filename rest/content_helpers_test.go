package rest_test

import (
	"bytes"
	"encoding/json"
	"mime"
	"mime/multipart"
	"net/http/httptest"
	"net/textproto"
)

// target is a GraphQL ContentTarget: the space itself, or one of its change requests.
func target(spaceID, changeRequestID string) map[string]any {
	t := map[string]any{"spaceId": spaceID}
	if changeRequestID != "" {
		t["changeRequestId"] = changeRequestID
	}
	return t
}

// createPage adds a page through GraphQL and returns its id.
func (e *env) createPage(token string, to map[string]any, input map[string]any) string {
	e.t.Helper()
	var data struct {
		CreatePage struct{ Page struct{ ID string } }
	}
	e.gql(token, `mutation($t: ContentTarget!, $in: CreatePageInput!) { createPage(target: $t, input: $in) { page { id } } }`,
		map[string]any{"t": to, "in": input}).ok(&data)
	return data.CreatePage.Page.ID
}

// updatePage changes a page through GraphQL.
func (e *env) updatePage(token string, to map[string]any, pageID string, input map[string]any) gqlResult {
	e.t.Helper()
	return e.gql(token, `mutation($t: ContentTarget!, $p: ID!, $in: UpdatePageInput!) { updatePage(target: $t, pageId: $p, input: $in) { revision { id } page { id title markdown } } }`,
		map[string]any{"t": to, "p": pageID, "in": input})
}

// openChangeRequest opens a change request through REST and returns its id.
func (e *env) openChangeRequest(token, spaceID, subject string) string {
	e.t.Helper()
	body, _ := json.Marshal(map[string]string{"subject": subject})
	return e.call(token, "POST", "/spaces/"+spaceID+"/change-requests", string(body)).want(201).object()["id"].(string)
}

// upload sends a file through a GraphQL multipart request and returns the answer.
func (e *env) upload(token string, to map[string]any, name string, content []byte) gqlResult {
	e.t.Helper()
	return e.uploadTyped(token, to, name, "application/octet-stream", content)
}

// uploadTyped is upload with the content type the client declares for the file's part.
func (e *env) uploadTyped(token string, to map[string]any, name, contentType string, content []byte) gqlResult {
	e.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	ops, _ := json.Marshal(map[string]any{
		"query":     `mutation($t: ContentTarget!, $f: Upload!) { uploadFile(target: $t, file: $f) { revision { id } file { id name contentType size downloadURL dimensions { width height } } } }`,
		"variables": map[string]any{"t": to, "f": nil},
	})
	_ = w.WriteField("operations", string(ops))
	_ = w.WriteField("map", `{"0":["variables.f"]}`)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", mime.FormatMediaType("form-data", map[string]string{"name": "0", "filename": name}))
	h.Set("Content-Type", contentType)
	part, _ := w.CreatePart(h)
	_, _ = part.Write(content)
	_ = w.Close()
	req := httptest.NewRequest("POST", "/graphql", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	_, rec := e.serve(req, token, nil)
	out := gqlResult{t: e.t, Status: rec.Code}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		e.t.Fatalf("GraphQL upload answer %d is not JSON: %s", rec.Code, rec.Body)
	}
	return out
}

// uploadFile uploads a file and returns its id.
func (e *env) uploadFile(token string, to map[string]any, name string, content []byte) string {
	e.t.Helper()
	var data struct {
		UploadFile struct{ File struct{ ID string } }
	}
	e.upload(token, to, name, content).ok(&data)
	return data.UploadFile.File.ID
}

// matrixPages gives a space content to read: a page and a file on the space, a change request
// editing the page, and the space revision holding both.
func (e *env) matrixPages(admin account, spaceID string) (pageID, fileID, changeRequestID, revisionID string) {
	e.t.Helper()
	to := target(spaceID, "")
	pageID = e.createPage(admin.Token, to, map[string]any{"title": "Fixture page", "markdown": "# Hello\n\nWorld"})
	fileID = e.uploadFile(admin.Token, to, "note.txt", []byte("fixture file"))
	revisionID = e.call(admin.Token, "GET", "/spaces/"+spaceID, nil).want(200).object()["revision"].(string)
	changeRequestID = e.openChangeRequest(admin.Token, spaceID, "Fixture change")
	e.updatePage(admin.Token, target(spaceID, changeRequestID), pageID, map[string]any{"markdown": "# Hello\n\nChanged"}).ok(nil)
	return pageID, fileID, changeRequestID, revisionID
}
