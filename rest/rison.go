package rest

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// Rison (https://github.com/Nanonid/rison) is JSON written for URLs: (a:1,b:'x y',c:!t,d:!(1,2))
// is {"a":1,"b":"x y","c":true,"d":[1,2]}. The contract passes a preview's claims in it.

// maxRisonDepth bounds nesting, so that a hostile query cannot exhaust the stack.
const maxRisonDepth = 32

// risonToJSON decodes a Rison object into JSON.
func risonToJSON(s string) ([]byte, error) {
	p := &risonParser{s: s}
	if !strings.HasPrefix(s, "(") {
		return nil, errors.New("an object starts with (")
	}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if p.i != len(p.s) {
		return nil, errors.New("unexpected text after the object at " + strconv.Itoa(p.i))
	}
	return json.Marshal(v)
}

type risonParser struct {
	s string
	i int
}

func (p *risonParser) fail(what string) error {
	return errors.New(what + " at " + strconv.Itoa(p.i))
}

func (p *risonParser) value(depth int) (any, error) {
	if depth > maxRisonDepth {
		return nil, p.fail("nested too deeply")
	}
	if p.i >= len(p.s) {
		return nil, p.fail("value expected")
	}
	switch c := p.s[p.i]; {
	case c == '(':
		p.i++
		obj := map[string]any{}
		for p.i < len(p.s) && p.s[p.i] != ')' {
			if len(obj) > 0 {
				if p.s[p.i] != ',' {
					return nil, p.fail(", expected")
				}
				p.i++
			}
			k, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			key, ok := k.(string)
			if !ok {
				return nil, p.fail("a key must be a string")
			}
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, p.fail(": expected")
			}
			p.i++
			if obj[key], err = p.value(depth + 1); err != nil {
				return nil, err
			}
		}
		if p.i >= len(p.s) {
			return nil, p.fail(") expected")
		}
		p.i++
		return obj, nil
	case c == '!':
		if p.i+1 >= len(p.s) {
			return nil, p.fail("! ends the text")
		}
		p.i += 2
		switch p.s[p.i-1] {
		case 't':
			return true, nil
		case 'f':
			return false, nil
		case 'n':
			return nil, nil
		case '(':
			arr := []any{}
			for p.i < len(p.s) && p.s[p.i] != ')' {
				if len(arr) > 0 {
					if p.s[p.i] != ',' {
						return nil, p.fail(", expected")
					}
					p.i++
				}
				v, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if p.i >= len(p.s) {
				return nil, p.fail(") expected")
			}
			p.i++
			return arr, nil
		}
		return nil, p.fail("unknown !")
	case c == '\'':
		var b strings.Builder
		for p.i++; p.i < len(p.s); p.i++ {
			switch p.s[p.i] {
			case '!':
				p.i++
				if p.i >= len(p.s) {
					return nil, p.fail("! ends the text")
				}
				b.WriteByte(p.s[p.i])
			case '\'':
				p.i++
				return b.String(), nil
			default:
				b.WriteByte(p.s[p.i])
			}
		}
		return nil, p.fail("' expected")
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.i
		for p.i < len(p.s) && strings.IndexByte("0123456789.-+eE", p.s[p.i]) >= 0 {
			p.i++
		}
		f, err := strconv.ParseFloat(p.s[start:p.i], 64)
		if err != nil {
			return nil, p.fail("bad number")
		}
		return f, nil
	default:
		start := p.i
		for p.i < len(p.s) && strings.IndexByte(" '!:(),*@$", p.s[p.i]) < 0 {
			p.i++
		}
		if p.i == start {
			return nil, p.fail("value expected")
		}
		return p.s[start:p.i], nil
	}
}
