package rest_test

import (
	"net/http"
	"testing"
)

func TestTemplates(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Templates", "admin@templates.test")
		reader := e.member(orgID, "reader@templates.test", "read")
		space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
		e.createPage(admin.Token, target(space, ""), map[string]any{"title": "Overview", "markdown": "# Mine"})

		// A built-in template adds its pages after the existing ones; taken slugs get a suffix.
		res := e.call(admin.Token, "POST", "/spaces/"+space+"/content/template", `{"id":"getting-started"}`).want(http.StatusCreated)
		if len(res.Body) != 0 {
			t.Errorf("template answer has a body: %s", res.Body)
		}
		var pages struct {
			Pages []struct {
				Title, Path, Markdown string
			}
		}
		e.call(admin.Token, "GET", "/spaces/"+space+"/content/pages", nil).want(http.StatusOK).decode(&pages)
		var paths []string
		for _, p := range pages.Pages {
			paths = append(paths, p.Path)
		}
		if len(paths) != 4 || paths[0] != "overview" || paths[1] != "overview-2" || paths[2] != "quickstart" || paths[3] != "faq" {
			t.Fatalf("paths after the template = %v", paths)
		}
		if pages.Pages[0].Markdown != "# Mine" || pages.Pages[2].Markdown == "" {
			t.Errorf("markdown = %q / %q", pages.Pages[0].Markdown, pages.Pages[2].Markdown)
		}

		// Placeholders: a file of the target must be bound.
		e.call(admin.Token, "POST", "/spaces/"+space+"/content/template", `{"id":"product-docs"}`).wantError(http.StatusBadRequest)
		e.call(admin.Token, "POST", "/spaces/"+space+"/content/template", `{"id":"product-docs","params":{"contentRefs":{"logo":{"kind":"file","file":"nope"}}}}`).wantError(http.StatusBadRequest)
		e.call(admin.Token, "POST", "/spaces/"+space+"/content/template", `{"id":"product-docs","params":{"contentRefs":{"other":{"kind":"file","file":"x"}}}}`).wantError(http.StatusBadRequest)
		e.call(admin.Token, "POST", "/spaces/"+space+"/content/template", `{"id":"no-such-template"}`).wantError(http.StatusBadRequest)
		e.call(admin.Token, "POST", "/spaces/"+space+"/content/template", `{}`).wantError(http.StatusBadRequest)
		e.call(reader.Token, "POST", "/spaces/"+space+"/content/template", `{"id":"getting-started"}`).wantError(http.StatusForbidden)

		logo := e.uploadFile(admin.Token, target(space, ""), "logo.png", []byte("logo bytes"))
		cr := e.openChangeRequest(admin.Token, space, "Product docs")
		e.call(admin.Token, "POST", "/spaces/"+space+"/content/template",
			`{"id":"product-docs","changeRequestId":"`+cr+`","params":{"contentRefs":{"logo":{"kind":"file","file":"`+logo+`"}}}}`).want(http.StatusCreated)
		e.call(admin.Token, "GET", "/spaces/"+space+"/content/pages", nil).want(http.StatusOK).decode(&pages)
		if len(pages.Pages) != 4 {
			t.Errorf("the space changed before the change request was merged: %d root pages", len(pages.Pages))
		}
		var inCR struct {
			Pages []struct{ Title, Path, Markdown string }
		}
		e.call(admin.Token, "GET", "/spaces/"+space+"/change-requests/"+cr+"/content/pages", nil).want(http.StatusOK).decode(&inCR)
		if len(inCR.Pages) != 7 || inCR.Pages[4].Title != "Welcome" || inCR.Pages[4].Markdown != "# Welcome\n\n![Logo](.gitbook/assets/logo.png)\n\nEverything you need to use the product.\n" {
			t.Fatalf("change request pages = %+v", inCR.Pages)
		}

		// A space marked as a template is listed and copies its pages, sharing their content.
		var list struct {
			Organization struct{ Templates []struct{ ID, Source string } }
		}
		e.gql(admin.Token, `mutation($s: ID!) { setSpaceTemplate(spaceId: $s, template: true) { isTemplate } }`, map[string]any{"s": space}).ok(nil)
		if code := e.gql(reader.Token, `mutation($s: ID!) { setSpaceTemplate(spaceId: $s, template: false) { isTemplate } }`, map[string]any{"s": space}).code(); code != "FORBIDDEN" {
			t.Errorf("reader marking a template: %s", code)
		}
		e.gql(admin.Token, `query($o: ID!) { organization(id: $o) { templates { id source } } }`, map[string]any{"o": orgID}).ok(&list)
		if n := len(list.Organization.Templates); n != 4 || list.Organization.Templates[3].ID != space || list.Organization.Templates[3].Source != "space" {
			t.Fatalf("templates = %+v", list.Organization.Templates)
		}
		other := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Copy"}`).want(http.StatusCreated).object()["id"].(string)
		var applied struct {
			ApplyTemplate struct{ ID string }
		}
		e.gql(admin.Token, `mutation($s: ID!, $t: ID!) { applyTemplate(target: {spaceId: $s}, templateId: $t) { id } }`, map[string]any{"s": other, "t": space}).ok(&applied)
		var copied struct {
			Pages []struct{ Title, Path, Markdown string }
		}
		e.call(admin.Token, "GET", "/spaces/"+other+"/content/pages", nil).want(http.StatusOK).decode(&copied)
		if len(copied.Pages) != 4 || copied.Pages[0].Markdown != "# Mine" || copied.Pages[3].Path != "faq" {
			t.Errorf("copied pages = %+v", copied.Pages)
		}
		var files struct{ Items []struct{ Name string } }
		e.call(admin.Token, "GET", "/spaces/"+other+"/content/files", nil).want(http.StatusOK).decode(&files)
		if len(files.Items) != 1 || files.Items[0].Name != "logo.png" {
			t.Errorf("copied files = %+v", files.Items)
		}
		// Another organization cannot use it.
		otherOrg, otherAdmin := e.org("Elsewhere", "admin@elsewhere.test")
		foreign := e.call(otherAdmin.Token, "POST", "/orgs/"+otherOrg+"/spaces", `{"title":"Foreign"}`).want(http.StatusCreated).object()["id"].(string)
		e.call(otherAdmin.Token, "POST", "/spaces/"+foreign+"/content/template", `{"id":"`+space+`"}`).wantError(http.StatusBadRequest)
	})
}
