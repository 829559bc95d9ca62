package gitsync

import (
	"bytes"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/bindery/bindery/domain/text"
	"go.yaml.in/yaml/v3"
)

// Content is a space's content in Git Sync terms: the page tree, the files and the redirects.
type Content struct {
	Pages     []*Page
	Files     []*File
	Includes  []*Include
	Redirects map[string]string
	// Readme and Summary are the paths (relative to the root) of the first page and of the table
	// of contents; Root is the synced root inside the project directory ("" for itself).
	Root, Readme, Summary string
	// Config is .gitbook.yaml as read: Write writes it back unchanged while it still names the
	// content's root and redirects.
	Config []byte
}

// Page is one page: a document (a markdown file), a group (a SUMMARY.md heading) or a link (a
// SUMMARY.md entry pointing at a URL).
type Page struct {
	Kind  string // document, group, link
	Title string
	// LinkTitle is the title shown in the table of contents when it differs from the page's
	// ([Title](page.md "Link title")).
	LinkTitle string
	// Path is the markdown file (relative to the root); OID its blob when read from Git.
	Path, OID string
	// Slug is the page's last path segment in Bindery (derived from the file or folder name).
	Slug     string
	Markdown string
	Front    FrontMatter
	// FrontText is the front matter as written (between its --- lines): Write writes it back
	// while it still says what Front says, so GitBook's own YAML style (folded descriptions,
	// keys Bindery does not read) survives a round trip.
	FrontText string
	URL       string // link pages
	// Anchor is the id of a group heading's anchor (## Title <a href="#id" id="id"></a>): the
	// group's slug when it differs from its title's.
	Anchor string
	Pages  []*Page
}

// File is one file under .gitbook/assets/ (or wherever a page's reference put it).
type File struct {
	Name, Path, OID string
	Data            []byte
}

// FrontMatter is the YAML header of a page file.
type FrontMatter struct {
	Description string  `yaml:"description,omitempty"`
	Icon        string  `yaml:"icon,omitempty"`
	Emoji       string  `yaml:"emoji,omitempty"`
	Hidden      bool    `yaml:"hidden,omitempty"`
	NoIndex     bool    `yaml:"noIndex,omitempty"`
	Layout      *Layout `yaml:"layout,omitempty"`
}

// Layout is GitBook's front matter layout block.
type Layout struct {
	Width           string      `yaml:"width,omitempty"`
	Cover           *Cover      `yaml:"cover,omitempty"`
	Title           *Visibility `yaml:"title,omitempty"`
	Description     *Visibility `yaml:"description,omitempty"`
	TableOfContents *Visibility `yaml:"tableOfContents,omitempty"`
	Outline         *Visibility `yaml:"outline,omitempty"`
	Pagination      *Visibility `yaml:"pagination,omitempty"`
	Metadata        *Visibility `yaml:"metadata,omitempty"`
}

// Visibility is one layout element's switch.
type Visibility struct {
	Visible bool `yaml:"visible"`
}

// Cover is the cover's switch, its size (GitBook's "hero", "full" or "background") and its mask
// (GitBook's fade over the cover image, such as "none").
type Cover struct {
	Visible bool   `yaml:"visible"`
	Size    string `yaml:"size,omitempty"`
	Mask    string `yaml:"mask,omitempty"`
}

// AssetsDir is where files live, relative to the root.
const AssetsDir = ".gitbook/assets"

// IncludesDir is where GitBook keeps reusable content, relative to the root: one markdown file
// each, which pages include with {% include "<path relative to the page>" %}.
const IncludesDir = ".gitbook/includes"

// Include is one reusable content, a markdown file under IncludesDir.
type Include struct {
	Path, OID string
	// Title is the front matter's title, else the file's name made a title.
	Title string
	// Text is the file as written, front matter and all: export writes it back unchanged.
	Text string
}

type bookConfig struct {
	Root      string `yaml:"root"`
	Structure struct {
		Readme  string `yaml:"readme"`
		Summary string `yaml:"summary"`
	} `yaml:"structure"`
	Redirects map[string]string `yaml:"redirects"`
}

// Read interprets a snapshot in GitBook's layout: .gitbook.yaml, SUMMARY.md (or the folder tree),
// pages with front matter, files under .gitbook/assets/.
func Read(files map[string]Blob) (*Content, error) {
	var cfg bookConfig
	c := &Content{Redirects: map[string]string{}}
	if b, ok := files[".gitbook.yaml"]; ok {
		if err := yaml.Unmarshal(b.Data, &cfg); err != nil {
			return nil, fmt.Errorf(".gitbook.yaml: %s", firstLine(err.Error()))
		}
		c.Config = b.Data
	}
	if cfg.Root != "" {
		root, ok := CleanPath(strings.TrimPrefix(cfg.Root, "./"))
		if !ok && path.Clean(cfg.Root) != "." && path.Clean(strings.TrimPrefix(cfg.Root, "./")) != "." {
			return nil, fmt.Errorf(".gitbook.yaml: root %q leaves the repository", cfg.Root)
		}
		if ok {
			c.Root = root
		}
	}
	// Everything below is relative to the root.
	under := map[string]Blob{}
	for p, b := range files {
		if c.Root == "" {
			under[p] = b
		} else if strings.HasPrefix(p, c.Root+"/") {
			under[strings.TrimPrefix(p, c.Root+"/")] = b
		}
	}
	var ok bool
	if c.Readme, ok = configPath(cfg.Structure.Readme, "README.md"); !ok {
		return nil, fmt.Errorf(".gitbook.yaml: structure.readme %q leaves the root", cfg.Structure.Readme)
	}
	if c.Summary, ok = configPath(cfg.Structure.Summary, "SUMMARY.md"); !ok {
		return nil, fmt.Errorf(".gitbook.yaml: structure.summary %q leaves the root", cfg.Structure.Summary)
	}
	for from, to := range cfg.Redirects {
		c.Redirects[from] = to
	}

	r := &reader{files: under, used: map[string]bool{}}
	if sum, ok := under[c.Summary]; ok {
		c.Pages = r.summary(string(sum.Data), path.Dir(c.Summary))
		if _, ok := under[c.Readme]; ok && !r.used[c.Readme] {
			c.Pages = append([]*Page{r.page(c.Readme, "")}, c.Pages...)
		}
	} else {
		c.Pages = r.folder("", c.Readme)
	}
	r.slugs(c.Pages, c.Readme)

	names := map[string]bool{}
	paths := make([]string, 0)
	for p := range under {
		if strings.HasPrefix(p, AssetsDir+"/") {
			paths = append(paths, p)
		}
	}
	c.Includes = readIncludes(under)
	if c.Root != "" {
		// GitBook keeps .gitbook/ at the root of the synced section, which may hold the root
		// that .gitbook.yaml names: its includes count too (those under the root win). Like
		// every path of the content, theirs is relative to the root ("../.gitbook/includes/x.md"),
		// which is how pages include them and where export writes them back.
		up := upFrom(c.Root)
		var outer []*Include
		for _, inc := range readIncludes(files) {
			if !strings.HasPrefix(inc.Path, c.Root+"/") {
				inc.Path = up + inc.Path
				outer = append(outer, inc)
			}
		}
		c.Includes = mergeIncludes(c.Includes, outer)
	}
	sort.Strings(paths)
	for _, p := range paths {
		name := path.Base(p)
		if names[name] {
			continue // file names are unique in a revision; the first path wins
		}
		names[name] = true
		b := under[p]
		c.Files = append(c.Files, &File{Name: name, Path: p, OID: b.OID, Data: b.Data})
	}
	return c, nil
}

// includeTag finds the include tags of a markdown text: {% include "path" %}.
var includeTag = regexp.MustCompile(`\{%\s*include\s+"([^"]+)"\s*%\}`)

// AddOutsideIncludes adds to c the reusable contents its pages include from outside the synced
// folder (outside: Snapshot.Outside), found by their path relative to the including page and
// recorded by it ("../.gitbook/includes/x.md"), so export writes each back where it was read;
// one named like an include inside the folder is left out (the inside one wins, as in Read).
// Includes these include are followed too.
func AddOutsideIncludes(c *Content, outside map[string]Blob) {
	if len(outside) == 0 {
		return
	}
	if c.Root != "" {
		// Outside paths are relative to the project directory; the content's, to the root.
		up, moved := upFrom(c.Root), make(map[string]Blob, len(outside))
		for p, b := range outside {
			moved[up+p] = b
		}
		outside = moved
	}
	names := map[string]bool{}
	for _, inc := range c.Includes {
		names[path.Base(inc.Path)] = true
	}
	var add func(from, text string)
	add = func(from, text string) {
		for _, m := range includeTag.FindAllStringSubmatch(text, -1) {
			p := path.Clean(path.Join(path.Dir(from), m[1]))
			b, ok := outside[p]
			if !ok || names[path.Base(p)] {
				continue
			}
			names[path.Base(p)] = true
			inc := &Include{Path: p, OID: b.OID, Title: includeTitle(string(b.Data), p), Text: string(b.Data)}
			c.Includes = append(c.Includes, inc)
			add(p, inc.Text)
		}
	}
	var walk func([]*Page)
	walk = func(pages []*Page) {
		for _, pg := range pages {
			if pg.Kind == "document" {
				add(pg.Path, pg.Markdown)
			}
			walk(pg.Pages)
		}
	}
	walk(c.Pages)
	for _, inc := range slices.Clone(c.Includes) {
		add(inc.Path, inc.Text)
	}
}

// upFrom is the relative path from folder dir up to where it starts ("a/b" → "../../").
func upFrom(dir string) string {
	return strings.Repeat("../", strings.Count(dir, "/")+1)
}

// readIncludes reads the markdown files under IncludesDir, by path.
func readIncludes(files map[string]Blob) []*Include {
	var out []*Include
	for p, b := range files {
		if strings.HasPrefix(p, IncludesDir+"/") && strings.HasSuffix(strings.ToLower(p), ".md") {
			text := string(b.Data)
			out = append(out, &Include{Path: p, OID: b.OID, Title: includeTitle(text, p), Text: text})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// mergeIncludes adds to first the includes of second whose name (path under IncludesDir) it
// does not have.
func mergeIncludes(first, second []*Include) []*Include {
	name := func(p string) string { return p[strings.LastIndex(p, IncludesDir+"/")+len(IncludesDir)+1:] }
	names := map[string]bool{}
	for _, inc := range first {
		names[name(inc.Path)] = true
	}
	for _, inc := range second {
		if !names[name(inc.Path)] {
			first = append(first, inc)
		}
	}
	return first
}

// includeTitle is a reusable content's title: its front matter's, else its file's name.
func includeTitle(text, p string) string {
	front, _ := splitFrontMatter(text)
	var meta struct {
		Title string `yaml:"title"`
	}
	if front != "" && yaml.Unmarshal([]byte(front), &meta) == nil && strings.TrimSpace(meta.Title) != "" {
		return strings.TrimSpace(meta.Title)
	}
	return humanize(strings.TrimSuffix(path.Base(p), path.Ext(p)))
}

// IncludeBody is a reusable content's markdown without its front matter.
func IncludeBody(text string) string {
	_, body := splitFrontMatter(text)
	return body
}

func configPath(v, def string) (string, bool) {
	if v == "" {
		return def, true
	}
	return CleanPath(strings.TrimPrefix(v, "./"))
}

type reader struct {
	files map[string]Blob
	used  map[string]bool
}

var (
	summaryItem = regexp.MustCompile(`^(\s*)[*+-]\s+\[((?:[^\]\\]|\\.)*)\]\(\s*(<[^>]*>|[^\s)]*)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\)\s*$`)
	// summaryGroup is a heading; a closing run of "#" follows a space (CommonMark).
	summaryGroup = regexp.MustCompile(`^#{2,}\s+(.+?)(?:\s+#+)?\s*$`)
	// headingAnchor is the anchor GitBook appends to a heading whose id differs from its text.
	headingAnchor = regexp.MustCompile(`\s+<a href="#([^"]*)" id="([^"]*)"></a>$`)
	// validSlug is the API's slug rule (model.CreatePageInput): a file or anchor name that
	// already follows it is the slug as it is.
	validSlug = regexp.MustCompile(`^[a-z0-9]+(?:[-_.][a-z0-9]+)*$`)
)

// summary builds the page tree a SUMMARY.md describes. dir is the summary's folder: links in it
// are relative to it.
func (r *reader) summary(text, dir string) []*Page {
	var root []*Page
	var group *Page
	type level struct {
		indent int
		page   *Page
	}
	var stack []level
	add := func(indent int, p *Page) {
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		switch {
		case len(stack) > 0:
			parent := stack[len(stack)-1].page
			parent.Pages = append(parent.Pages, p)
		case group != nil:
			group.Pages = append(group.Pages, p)
		default:
			root = append(root, p)
		}
		if p.Kind == "document" {
			stack = append(stack, level{indent, p})
		}
	}
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if m := summaryGroup.FindStringSubmatch(line); m != nil {
			title, anchor := m[1], ""
			if a := headingAnchor.FindStringSubmatch(title); a != nil && a[1] == a[2] {
				title, anchor = title[:len(title)-len(a[0])], a[1]
			}
			group = &Page{Kind: "group", Title: unescape(title), Anchor: anchor}
			root = append(root, group)
			stack = nil
			continue
		}
		m := summaryItem.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		indent := len(strings.ReplaceAll(m[1], "\t", "    "))
		title, target, linkTitle := unescape(m[2]), strings.Trim(m[3], "<>"), unescape(m[4])
		if u, err := url.Parse(target); err == nil && u.Scheme != "" {
			add(indent, &Page{Kind: "link", Title: title, URL: target})
			continue
		}
		target, _, _ = strings.Cut(target, "#")
		if t, err := url.PathUnescape(target); err == nil {
			target = t
		}
		p, ok := CleanPath(path.Join(dir, target))
		if !ok || r.used[p] || !strings.HasSuffix(strings.ToLower(p), ".md") {
			continue // outside the root, listed twice, or not a page
		}
		page := r.page(p, title)
		page.LinkTitle = linkTitle
		add(indent, page)
	}
	return root
}

// folder builds the page tree of a folder when there is no SUMMARY.md: its README (or the
// readme, at the root) first, then its markdown files and sub-folders by name. A sub-folder is a
// page of its own: its README.md, or an empty page named after it.
func (r *reader) folder(dir, readme string) []*Page {
	var pages []*Page
	entries := map[string]bool{}
	subdirs := map[string]bool{}
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	for p := range r.files {
		if !strings.HasPrefix(p, prefix) {
			continue
		}
		rest := strings.TrimPrefix(p, prefix)
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			if !strings.HasPrefix(rest, ".") {
				subdirs[rest[:i]] = true
			}
			continue
		}
		if strings.HasSuffix(strings.ToLower(rest), ".md") {
			entries[p] = true
		}
	}
	first := readme
	if dir != "" {
		first = prefix + "README.md"
	}
	if dir == "" && entries[first] {
		pages = append(pages, r.page(first, ""))
	}
	var names []string
	for p := range entries {
		if p != first && !strings.EqualFold(path.Base(p), "SUMMARY.md") {
			names = append(names, p)
		}
	}
	for d := range subdirs {
		names = append(names, prefix+d+"/")
	}
	sort.Strings(names)
	for _, n := range names {
		if !strings.HasSuffix(n, "/") {
			pages = append(pages, r.page(n, ""))
			continue
		}
		sub := strings.TrimSuffix(n, "/")
		children := r.folder(sub, readme)
		var page *Page
		if _, ok := r.files[sub+"/README.md"]; ok {
			page = r.page(sub+"/README.md", "")
		} else if len(children) > 0 {
			page = &Page{Kind: "document", Title: humanize(path.Base(sub)), Slug: path.Base(sub)}
		} else {
			continue
		}
		page.Pages = children
		pages = append(pages, page)
	}
	return pages
}

// page reads a markdown file: front matter, then the body. The title is title if given, else the
// first heading, else the file's name; a first heading equal to the title is the title, not
// content.
func (r *reader) page(p, title string) *Page {
	r.used[p] = true
	b := r.files[p]
	front, body := splitFrontMatter(string(b.Data))
	page := &Page{Kind: "document", Path: p, OID: b.OID, FrontText: front}
	_ = yaml.Unmarshal([]byte(front), &page.Front) // a front matter that is not YAML is ignored
	heading, rest := firstHeading(body)
	switch {
	case title == "" && heading != "":
		title, body = heading, rest
	case heading != "" && heading == title:
		body = rest
	case title == "":
		name := strings.TrimSuffix(path.Base(p), path.Ext(p))
		if strings.EqualFold(name, "README") && path.Dir(p) != "." {
			name = path.Base(path.Dir(p))
		}
		title = humanize(name)
	}
	page.Title, page.Markdown = title, body
	return page
}

// slugs gives each page the last segment of its path in Bindery (slugOf).
func (r *reader) slugs(pages []*Page, readme string) {
	for _, p := range pages {
		if p.Slug == "" && p.Kind != "link" {
			p.Slug = slugOf(p, readme)
		}
		r.slugs(p.Pages, readme)
	}
}

// slugOf is the slug a page reads back with: a group's anchor, else its title's; the root
// readme's title's; a document's file name, or its folder's for a README.
func slugOf(p *Page, readme string) string {
	switch {
	case p.Kind == "group" && p.Anchor != "":
		return nameSlug(p.Anchor)
	case p.Kind == "group" || p.Path == readme:
		return Slugify(p.Title)
	}
	name := strings.TrimSuffix(path.Base(p.Path), path.Ext(p.Path))
	if strings.EqualFold(name, "README") && path.Dir(p.Path) != "." {
		name = path.Base(path.Dir(p.Path))
	}
	return nameSlug(name)
}

// nameSlug is a file or anchor name as a slug: itself when it is one already.
func nameSlug(name string) string {
	if validSlug.MatchString(name) && len(name) <= 100 {
		return name
	}
	return Slugify(name)
}

func splitFrontMatter(text string) (front, body string) {
	text = strings.TrimPrefix(strings.ReplaceAll(text, "\r\n", "\n"), "\ufeff")
	if !strings.HasPrefix(text, "---\n") {
		return "", text
	}
	end := strings.Index(text[4:], "\n---")
	if end < 0 {
		return "", text
	}
	front = text[4 : 4+end]
	body = text[4+end+4:]
	if i := strings.IndexByte(body, '\n'); i >= 0 && strings.TrimSpace(body[:i]) == "" {
		body = body[i+1:]
	} else if strings.TrimSpace(body) == "" {
		body = ""
	}
	return front, body
}

// firstHeading returns the text of a level-1 heading opening the body, and the body after it.
func firstHeading(body string) (heading, rest string) {
	trimmed := strings.TrimLeft(body, "\n")
	line, after, _ := strings.Cut(trimmed, "\n")
	if !strings.HasPrefix(line, "# ") {
		return "", body
	}
	return closingHashes.ReplaceAllString(strings.TrimSpace(line[2:]), ""), strings.TrimLeft(after, "\n")
}

// closingHashes is a heading's optional closing run of "#": after a space, or the whole text.
var closingHashes = regexp.MustCompile(`(?:^|\s+)#+$`)

func unescape(s string) string {
	return regexp.MustCompile(`\\(.)`).ReplaceAllString(s, "$1")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// humanize turns a file name into a title: "getting-started" → "Getting started".
func humanize(name string) string {
	name = strings.TrimSpace(strings.NewReplacer("-", " ", "_", " ").Replace(name))
	if name == "" {
		return "Untitled"
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// Slugify derives a slug from a title or a name, as the API derives a page's (text.SlugOf).
func Slugify(s string) string { return text.SlugOf(s, 100, "page") }

// Write lays content out as files (relative to the project directory): .gitbook.yaml (when there
// are redirects or a root; the one read when the root moved), README.md, SUMMARY.md, one markdown
// file per document page at its Path, the files and the reusable contents at theirs, all under
// the root. Pages and files must have unique paths (Assign gives them).
func Write(c *Content) map[string][]byte {
	out := map[string][]byte{}
	var summary bytes.Buffer
	summary.WriteString("# Table of contents\n\n")
	var list func(pages []*Page, depth int)
	list = func(pages []*Page, depth int) {
		for _, p := range pages {
			indent := strings.Repeat("  ", depth)
			switch p.Kind {
			case "group":
				fmt.Fprintf(&summary, "\n## %s", escapeHeading(p.Title))
				if p.Slug != Slugify(p.Title) || p.Anchor != "" {
					// The slug a title would not give back travels as the heading's anchor.
					fmt.Fprintf(&summary, " <a href=\"#%s\" id=\"%s\"></a>", p.Slug, p.Slug)
				}
				summary.WriteString("\n\n")
				list(p.Pages, 0)
				continue
			case "link":
				target := p.URL
				if strings.ContainsAny(target, " ()<>") {
					target = "<" + target + ">"
				}
				fmt.Fprintf(&summary, "%s* [%s](%s)\n", indent, escapeLink(p.Title), target)
				continue
			}
			target := (&url.URL{Path: p.Path}).EscapedPath()
			if strings.ContainsAny(target, " ()") {
				target = "<" + p.Path + ">"
			}
			if p.LinkTitle != "" {
				fmt.Fprintf(&summary, "%s* [%s](%s \"%s\")\n", indent, escapeLink(p.Title), target, strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(p.LinkTitle))
			} else {
				fmt.Fprintf(&summary, "%s* [%s](%s)\n", indent, escapeLink(p.Title), target)
			}
			out[p.Path] = pageFile(p)
			list(p.Pages, depth+1)
		}
	}
	list(c.Pages, 0)
	summaryPath, keepConfig := "SUMMARY.md", false
	var cfg bookConfig
	if c.Config != nil && yaml.Unmarshal(c.Config, &cfg) == nil && configRoot(cfg.Root) == c.Root && sameRedirects(cfg.Redirects, c.Redirects) {
		keepConfig = true
		if p, ok := configPath(cfg.Structure.Summary, "SUMMARY.md"); ok {
			summaryPath = p
		}
	}
	out[summaryPath] = summary.Bytes()
	for _, f := range c.Files {
		out[f.Path] = f.Data
	}
	for _, inc := range c.Includes {
		p := inc.Path
		if p == "" {
			p = IncludesDir + "/" + Slugify(inc.Title) + ".md"
		}
		out[p] = []byte(inc.Text)
	}
	if c.Root != "" {
		// Paths are relative to the root: under it in the project directory, and what an
		// include outside it was read from ("../.gitbook/includes/x.md") back there.
		moved := make(map[string][]byte, len(out))
		for p, b := range out {
			moved[path.Join(c.Root, p)] = b
		}
		out = moved
	}
	switch {
	case keepConfig:
		out[".gitbook.yaml"] = c.Config
	case c.Root != "" || len(c.Redirects) > 0:
		cfg := bookConfig{Root: "./", Redirects: c.Redirects}
		if c.Root != "" {
			cfg.Root = "./" + c.Root + "/"
		}
		cfg.Structure.Readme, cfg.Structure.Summary = "README.md", "SUMMARY.md"
		b, _ := yaml.Marshal(cfg)
		out[".gitbook.yaml"] = b
	}
	return out
}

// configRoot is the root a .gitbook.yaml's root: names ("" for the project directory).
func configRoot(v string) string {
	root, ok := CleanPath(strings.TrimPrefix(v, "./"))
	if !ok {
		return ""
	}
	return root
}

// sameRedirects compares redirects, nil and empty alike.
func sameRedirects(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func pageFile(p *Page) []byte {
	var b bytes.Buffer
	if p.FrontText != "" && sameFront(p.FrontText, p.Front) {
		b.WriteString("---\n" + p.FrontText + "\n---\n\n")
	} else if front, _ := yaml.Marshal(p.Front); len(front) > 0 && string(front) != "{}\n" {
		b.WriteString("---\n")
		b.Write(front)
		b.WriteString("---\n\n")
	}
	heading := p.Title
	if closingHashes.MatchString(heading) {
		heading += " #" // a closing run, so the title's own "#" stay text
	}
	fmt.Fprintf(&b, "# %s\n\n", heading)
	b.WriteString(p.Markdown)
	if p.Markdown != "" && !strings.HasSuffix(p.Markdown, "\n") {
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// sameFront reports whether a front matter as written reads as front: what the page says now.
func sameFront(text string, front FrontMatter) bool {
	var was FrontMatter
	_ = yaml.Unmarshal([]byte(text), &was)
	a, _ := yaml.Marshal(was)
	b, _ := yaml.Marshal(front)
	return bytes.Equal(a, b)
}

func escapeLink(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(s)
}

// escapeHeading keeps a group's title one line that reads back as itself: a backslash, a
// closing "#" or an anchor-like "<" would otherwise be taken for syntax.
func escapeHeading(s string) string {
	return strings.NewReplacer("\n", " ", `\`, `\\`, "#", `\#`, "<", `\<`).Replace(s)
}

// Assign gives every document page and file a path, unique in the repository, from which Read
// gives the page its slug back: the path it was imported from when it still does and no other
// item took it, else one derived from its place in the tree (a page with children is its
// folder's README.md; the first root page is the readme when its slug is its title's), and
// files go under .gitbook/assets/.
func Assign(c *Content) {
	const readme = "README.md"
	taken := map[string]bool{"SUMMARY.md": true, ".gitbook.yaml": true}
	// Keep the imported paths first, in tree order.
	var keep func(pages []*Page)
	keep = func(pages []*Page) {
		for _, p := range pages {
			if p.Kind == "document" && p.Path != "" {
				cp, ok := CleanPath(p.Path)
				p.Path = ""
				if ok && strings.HasSuffix(cp, ".md") && !taken[cp] && slugOf(&Page{Kind: p.Kind, Title: p.Title, Path: cp}, readme) == p.Slug {
					p.Path = cp
					taken[cp] = true
				}
			}
			keep(p.Pages)
		}
	}
	keep(c.Pages)
	readmeGiven := taken[readme]
	var derive func(pages []*Page, dir string, root bool)
	derive = func(pages []*Page, dir string, root bool) {
		for i, p := range pages {
			folder := path.Join(dir, p.Slug)
			if p.Kind == "document" && p.Path == "" {
				var candidates []string
				switch {
				case root && i == 0 && !readmeGiven && Slugify(p.Title) == p.Slug:
					candidates = []string{readme}
					readmeGiven = true
				case len(p.Pages) > 0 || (dir != "" && strings.EqualFold(p.Slug, "readme")):
					// A file named README.md takes its folder's name as its slug.
				default:
					candidates = []string{folder + ".md"}
				}
				p.Path = firstFree(append(candidates, folder+"/README.md"), taken)
			}
			if p.Kind == "document" && strings.HasSuffix(p.Path, "/README.md") {
				folder = path.Dir(p.Path)
			}
			derive(p.Pages, folder, false)
		}
	}
	derive(c.Pages, "", true)
	for _, f := range c.Files {
		if cp, ok := CleanPath(f.Path); ok && !taken[cp] && !strings.HasSuffix(cp, ".md") {
			f.Path = cp
		} else {
			f.Path = unique(path.Join(AssetsDir, f.Name), taken)
		}
		taken[f.Path] = true
	}
}

// firstFree takes the first candidate no other item took, else a numbered variant of the last.
func firstFree(candidates []string, taken map[string]bool) string {
	for _, c := range candidates {
		if !taken[c] {
			taken[c] = true
			return c
		}
	}
	return unique(candidates[len(candidates)-1], taken)
}

// CheckOrder refuses a tree that SUMMARY.md cannot express: everything below a group's heading
// belongs to the group, so no page may follow a group at the root.
func CheckOrder(pages []*Page) error {
	var group *Page
	for _, p := range pages {
		switch {
		case p.Kind == "group":
			group = p
		case group != nil:
			return fmt.Errorf("the page %q follows the group %q at the root of the space: SUMMARY.md would put it inside the group; move it before the first group or into a group", p.Title, group.Title)
		}
	}
	return nil
}

func unique(p string, taken map[string]bool) string {
	ext := path.Ext(p)
	base := strings.TrimSuffix(p, ext)
	c := p
	for i := 2; taken[c]; i++ {
		c = fmt.Sprintf("%s-%d%s", base, i, ext)
	}
	taken[c] = true
	return c
}
