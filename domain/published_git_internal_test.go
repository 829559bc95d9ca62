package domain

import (
	"testing"

	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

func TestEditOnGitURL(t *testing.T) {
	page := func(setup, git string) *PublishedPage {
		row := &storage.Space{}
		if setup != "" {
			row.GitSync = &setup
		}
		p := &PublishedPage{space: &PublishedSiteSpace{src: &ContentSource{row: row}}, page: &model.RevisionPage{}}
		if git != "" {
			p.page.Git = model.JSON(git)
		}
		return p
	}
	file := `{"oid":"abc","path":"guides/setup.md"}`
	for _, c := range []struct{ name, setup, git, want string }{
		{"github", `{"url":"https://github.com/acme/docs.git","ref":"main"}`, file, "https://github.com/acme/docs/blob/main/guides/setup.md"},
		{"github project directory and ref", `{"url":"https://github.com/acme/mono","ref":"refs/heads/release/2","projectDirectory":"docs"}`, file, "https://github.com/acme/mono/blob/release/2/docs/guides/setup.md"},
		{"gitlab by host", `{"url":"https://gitlab.com/acme/group/docs.git","ref":"main"}`, file, "https://gitlab.com/acme/group/docs/-/blob/main/guides/setup.md"},
		{"self-hosted gitlab by provider", `{"url":"https://git.acme.test/team/docs","ref":"main","provider":"gitlab"}`, file, "https://git.acme.test/team/docs/-/blob/main/guides/setup.md"},
		{"credentials dropped", `{"url":"https://user:secret@github.com/acme/docs","ref":"main"}`, file, "https://github.com/acme/docs/blob/main/guides/setup.md"},
		{"escaped path", `{"url":"https://github.com/acme/docs","ref":"main"}`, `{"oid":"a","path":"a b/c#d.md"}`, "https://github.com/acme/docs/blob/main/a%20b/c%23d.md"},
		{"unknown host", `{"url":"https://git.example.com/acme/docs","ref":"main"}`, file, ""},
		{"ssh remote", `{"url":"git@github.com:acme/docs.git","ref":"main"}`, file, ""},
		{"plain http", `{"url":"http://github.com/acme/docs","ref":"main"}`, file, ""},
		{"no ref", `{"url":"https://github.com/acme/docs","ref":""}`, file, ""},
		{"no repository path", `{"url":"https://github.com/acme","ref":"main"}`, file, ""},
		{"page not from a file", `{"url":"https://github.com/acme/docs","ref":"main"}`, "", ""},
		{"no git sync", "", file, ""},
	} {
		if got := EditOnGitURL(page(c.setup, c.git)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
