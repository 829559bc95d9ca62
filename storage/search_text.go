package storage

import (
	"regexp"
	"strconv"
	"strings"
)

// TextSection is the part of a page's markdown under one heading, as plain text. The part
// before the first heading has no anchor and no title.
type TextSection struct {
	Anchor string // the heading's slug, unique in the page
	Title  string // the heading's text
	Text   string // the section's body as plain text, lines joined by newlines
}

var (
	atxHeading   = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	fence        = regexp.MustCompile("^ {0,3}(```|~~~)")
	gitbookBlock = regexp.MustCompile(`^\s*\{%.*%\}\s*$`)
	tableRule    = regexp.MustCompile(`^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$`)
	linkOrImage  = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTag      = regexp.MustCompile(`</?[a-zA-Z][^>]*>`)
	listMarker   = regexp.MustCompile(`^\s*(?:[-*+>]|\d+[.)])\s+`)
	inlineMarks  = strings.NewReplacer("**", "", "__", "", "~~", "", "`", "", "|", " ", "\\", "")
)

// MarkdownSections splits markdown into sections at its ATX headings (# …), outside fenced code.
// Code is kept as text; links and images keep their text, HTML tags and GitBook block tags
// ({% hint %}…) fall away. The first section holds the text before the first heading (it is
// left out when empty).
func MarkdownSections(markdown string) []TextSection {
	var out []TextSection
	cur := TextSection{}
	var lines []string
	used := map[string]int{}
	flush := func() {
		cur.Text = strings.TrimSpace(strings.Join(lines, "\n"))
		if cur.Anchor != "" || cur.Text != "" {
			out = append(out, cur)
		}
		lines = nil
	}
	inFence := false
	for _, line := range strings.Split(markdown, "\n") {
		line = strings.TrimRight(line, "\r")
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			lines = append(lines, line)
			continue
		}
		if m := atxHeading.FindStringSubmatch(line); m != nil {
			flush()
			title := inlineText(m[2])
			anchor := anchorOf(title)
			if n := used[anchor]; n > 0 {
				used[anchor] = n + 1
				anchor += "-" + strconv.Itoa(n+1)
			} else {
				used[anchor] = 1
			}
			cur = TextSection{Anchor: anchor, Title: title}
			continue
		}
		if gitbookBlock.MatchString(line) || tableRule.MatchString(line) {
			continue
		}
		if t := inlineText(listMarker.ReplaceAllString(line, "")); t != "" {
			lines = append(lines, t)
		}
	}
	flush()
	return out
}

// inlineText strips inline markdown from one line.
func inlineText(s string) string {
	s = linkOrImage.ReplaceAllString(s, "$1")
	s = htmlTag.ReplaceAllString(s, " ")
	s = inlineMarks.Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// anchorOf is a heading's anchor: its Slug, like page slugs.
func anchorOf(title string) string {
	if s := Slug(title); s != "" {
		return s
	}
	return "section"
}

// maxIndexedBody bounds the text indexed per page (PostgreSQL's tsvector holds at most 1 MiB).
const maxIndexedBody = 256 << 10

// searchBody is the text indexed for a page: its description and its markdown as plain text.
func searchBody(description *string, markdown string) string {
	var b strings.Builder
	if description != nil {
		b.WriteString(*description)
		b.WriteByte('\n')
	}
	for _, s := range MarkdownSections(markdown) {
		if s.Title != "" {
			b.WriteString(s.Title)
			b.WriteByte('\n')
		}
		b.WriteString(s.Text)
		b.WriteByte('\n')
	}
	body := b.String()
	if len(body) > maxIndexedBody {
		cut := maxIndexedBody
		for cut > 0 && !utf8RuneStart(body[cut]) {
			cut--
		}
		body = body[:cut]
	}
	return strings.ToValidUTF8(body, "")
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
