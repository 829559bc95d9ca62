package document

import (
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// GitBook writes an annotation as a markdown footnote: the reference right after the annotated
// word (word[^1]) and the note's definition ([^1]: text) anywhere in the page. The annotation
// holds the word; its note is the annotation-body fragment.

// footnotes maps the footnote definitions goldmark collected (at the end of the document) by
// their index, which each reference carries.
func footnotes(root ast.Node) map[int]*extast.Footnote {
	notes := map[int]*extast.Footnote{}
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		list, ok := n.(*extast.FootnoteList)
		if !ok {
			continue
		}
		for ch := list.FirstChild(); ch != nil; ch = ch.NextSibling() {
			if note, ok := ch.(*extast.Footnote); ok {
				notes[note.Index] = note
			}
		}
	}
	return notes
}

// annotation appends the annotation footnote index makes of the word written just before it.
func (b *inlineBuilder) annotation(index int) {
	c := b.c
	note, ok := c.notes[index]
	if !ok || c.reading[index] {
		return // a note referring to itself: its reference is left out
	}
	word, marks := b.takeLastWord()
	n := Node{Object: ObjectInline, Type: "annotation", Key: c.key(), Data: map[string]any{}}
	n.Nodes = []Node{{Object: ObjectText, Leaves: []Leaf{{Text: word, Marks: marks}}}}
	if c.reading == nil {
		c.reading = map[int]bool{}
	}
	c.reading[index] = true
	key := c.key()
	body := c.containerBlocks(note)
	delete(c.reading, index)
	n.Fragments = []Fragment{{Key: key, Fragment: "annotation-body", Type: "annotation-body", Nodes: body}}
	b.inline(n)
}

// takeLastWord removes the word that ends the collected text and returns it with its marks; ""
// when the text ends with space or something that is not text.
func (b *inlineBuilder) takeLastWord() (string, []Mark) {
	if !b.open {
		return "", []Mark{}
	}
	s := b.buf.String()
	i := strings.LastIndexFunc(s, unicode.IsSpace) + 1
	word := s[i:]
	b.buf.Reset()
	b.buf.WriteString(s[:i])
	t := &b.out[len(b.out)-1]
	marks := t.Leaves[len(t.Leaves)-1].Marks
	b.flush()
	// The word may have been all of its leaf, and the leaf all of its node.
	if l := t.Leaves[len(t.Leaves)-1]; l.Text == "" {
		t.Leaves = t.Leaves[:len(t.Leaves)-1]
		if len(t.Leaves) == 0 {
			b.out = b.out[:len(b.out)-1]
		}
	}
	return word, marks
}
