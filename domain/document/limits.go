package document

import (
	"errors"
	"fmt"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Limits of a stored page's content. Markdown is small to send but its document tree can be far
// larger (a 1 MB table of 2,500 columns × 200 rows read back as a 115 MB document), so what a page
// may hold is bounded when it is written (CheckMarkdown), and what a read may build is bounded
// while it is built (Convert).
const (
	// MaxBlocks bounds the blocks of one page (paragraphs, headings, list items, …).
	MaxBlocks = 20_000
	// MaxTableCells bounds the cells of all the tables of one page.
	MaxTableCells = 20_000
	// MaxNesting bounds how deeply blocks nest (lists in quotes in lists…).
	MaxNesting = maxDepth
	// MaxReadNodes bounds the keyed nodes a read builds from stored markdown: comfortably above
	// what content within the write limits makes.
	MaxReadNodes = 200_000
)

// ErrTooLarge reports stored content whose document tree would pass MaxReadNodes.
var ErrTooLarge = errors.New("the content is too large to read as a document")

// CheckMarkdown reports markdown that would make a page larger than the limits above, naming
// which one.
func CheckMarkdown(markdownText string) error {
	root := markdown.Parser().Parse(text.NewReader([]byte(markdownText)))
	blocks, cells, deepest := 0, 0, 0
	var walk func(n ast.Node, depth int) error
	walk = func(n ast.Node, depth int) error {
		for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
			if ch.Type() != ast.TypeBlock {
				continue
			}
			switch ch.(type) {
			case *extast.TableCell:
				if cells++; cells > MaxTableCells {
					return fmt.Errorf("its tables hold more than %d cells", MaxTableCells)
				}
				continue // a cell's content is inline
			case *extast.TableRow, *extast.TableHeader:
			default:
				if blocks++; blocks > MaxBlocks {
					return fmt.Errorf("it holds more than %d blocks", MaxBlocks)
				}
			}
			if deepest = max(deepest, depth+1); deepest > MaxNesting {
				return fmt.Errorf("its blocks nest more than %d levels deep", MaxNesting)
			}
			if err := walk(ch, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(root, 0)
}
