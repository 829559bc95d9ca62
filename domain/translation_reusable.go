package domain

import (
	"context"

	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/gitsync"
	"github.com/bindery/bindery/domain/translator"
	"github.com/bindery/bindery/storage"
)

// A run translates the source's reusable contents as it does its pages: each is one unit of the
// translation memory (its title and the text runs of its markdown, markup kept), and the result
// space gets them translated, their files' front matter kept, so that every translated page
// that includes one shows it in the target language.

// reusableSources are the units a run sends for reusable contents: a page-like version (id,
// title, content) with the markdown without its front matter; texts holds each one's stored
// file by content id, for translatedIncludes.
func (r *App) reusableSources(ctx context.Context, t *storage.Translation, instructions string, terms []translator.Term, includes []*storage.ReusableContentVersion) (units []*sourcePage, texts map[string]string, err error) {
	texts, err = markdownByContent(ctx, r.Store, includes, func(v *storage.ReusableContentVersion) *string { return v.ContentID })
	if err != nil {
		return nil, nil, err
	}
	for _, v := range includes {
		p := &sourcePage{version: &storage.PageVersion{PageID: v.ReusableContentID, Title: v.Title, ContentID: v.ContentID}}
		if v.ContentID != nil {
			p.markdown = gitsync.IncludeMarkdown(texts[*v.ContentID])
		}
		p.texts = append(p.texts, v.Title)
		p.runs = document.TextRuns(p.markdown)
		for _, tr := range p.runs {
			p.texts = append(p.texts, tr.Text)
		}
		p.terms = termsIn(terms, p.texts)
		p.key = pageKey(t, instructions, p)
		units = append(units, p)
	}
	return units, texts, nil
}

// translatedIncludes are the source's reusable contents in their translation (from memory):
// the translated title and markdown written into each one's file, front matter kept, and the
// contents those files need.
func translatedIncludes(orgID string, includes []*storage.ReusableContentVersion, units []*sourcePage, texts map[string]string, memory map[string]*storage.TranslatedPage) ([]*storage.ReusableContentVersion, []*storage.PageContent) {
	out := make([]*storage.ReusableContentVersion, len(includes))
	var contents []*storage.PageContent
	for i, v := range includes {
		c := *v
		out[i] = &c
		m := memory[units[i].key]
		if m == nil {
			continue
		}
		c.Title = m.Title
		if v.ContentID == nil {
			continue
		}
		path := ""
		if g := readBlobGit(v.Git); g != nil {
			path = g.Path
		}
		text := gitsync.IncludeText(texts[*v.ContentID], path, m.Title, m.Markdown)
		id := storage.ContentID(orgID, text)
		c.ContentID = &id
		contents = append(contents, &storage.PageContent{Markdown: text})
	}
	return out, contents
}
