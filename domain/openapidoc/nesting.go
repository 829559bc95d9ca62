package openapidoc

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/oasdiff/yaml"
)

// MaxDepth bounds how deeply a document nests: objects and arrays, counted in its JSON form.
// Real specifications stay within a few dozen levels.
const MaxDepth = 256

// MaxWork bounds what decoding a document may cost: the sum, over its bytes, of how deeply each
// is nested. kin-openapi decodes every schema by decoding again all that it holds, so its work
// grows with size times depth, not size alone; this is as much as a document of MaxSize bytes
// whose content sits 16 levels deep on average (real specifications average under 10).
const MaxWork = 16 * MaxSize

// checkCtxEvery is how many bytes the nesting scan reads between looks at its context.
const checkCtxEvery = 64 << 10

// checkNesting refuses a document that nests deeper than MaxDepth or whose decoding would cost
// more than the work left of budget (MaxWork for one document, shared with the files it
// references), in one pass over its bytes, before the library decodes it. It returns the work
// the document costs. A document that is neither JSON nor YAML is left to the library to
// refuse. Errors: *Problem at location, ctx's error.
func checkNesting(ctx context.Context, data []byte, location string, budget int) (int, error) {
	js := data
	if !json.Valid(data) {
		// YAML (flow YAML too, whose quotes are not JSON's): what the library decodes is its
		// JSON form. What does not convert, the library refuses before decoding anything.
		var err error
		if js, err = yaml.YAMLToJSON(data); err != nil {
			return 0, nil
		}
	}
	depth, work, inString, escaped := 0, 0, false, false
	for i, c := range js {
		if i%checkCtxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > MaxDepth {
				return 0, &Problem{Location: location, Message: fmt.Sprintf("the document nests deeper than %d levels of objects and arrays: move deeply nested schemas to components and refer to them with $ref", MaxDepth)}
			}
		case c == '}' || c == ']':
			depth--
		}
		if work += depth; work > budget {
			return 0, &Problem{Location: location, Message: fmt.Sprintf("the document is too large for how deeply it nests: its size in bytes times their average depth must stay within %d (%d bytes at an average depth of 16)", MaxWork, MaxSize)}
		}
	}
	return work, nil
}
