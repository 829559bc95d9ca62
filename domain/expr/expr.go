// Package expr evaluates GitBook content expressions (evaluated content) with expr-lang
// (github.com/expr-lang/expr).
//
// An expression sees two objects, space and page, each with the string map vars (the space's and
// the page's variables), plus expr-lang's built-in functions and a few of ours (see Evaluator).
// Evaluation is bounded: an expression is at most MaxLength characters and maxNodes syntax nodes, and
// every value it builds or hands to a function is charged, by size, to a budget of maxSize units
// (a byte of a string, an element of a list or map) with a deadline of timeLimit, so that no
// expression can make the server hang or run out of memory. docs/document-format.md describes the
// rules for writers.
package expr

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	exprlang "github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"

	"github.com/bindery/bindery/domain/document"
)

// Env is what expressions see: space.vars and page.vars (maps of strings).
type Env struct{ SpaceVars, PageVars map[string]string }

// Mode: Deterministic evaluates only expressions whose inputs are deterministic (no now(), no
// random...); All evaluates everything.
type Mode int

const (
	// All evaluates every expression (a page read with evaluated=true).
	All Mode = iota
	// Deterministic leaves as written the expressions that call now, today or date with no
	// arguments (a page read with evaluated=deterministic-only).
	Deterministic
)

// Limits of one evaluation.
const (
	// MaxLength is the longest expression evaluated, in characters, as the contract's Expression
	// schema allows.
	MaxLength = 1024
	// maxNodes bounds the expression's syntax tree.
	maxNodes = 200
	// maxSize is the budget of one evaluation: the sizes of every value an operation builds or
	// receives (a string's bytes, a list's or map's elements, deeply; anything else counts 1) add
	// up to at most this. Lists made by ranges (1..n) and literals also count toward expr-lang's
	// own memory budget, set to the same number.
	maxSize = 1 << 18
	// timeLimit bounds one evaluation's running time (checked each time a value is charged).
	timeLimit = time.Second
)

// nonDeterministic lists the functions whose result depends on when they run: an expression
// calling one is left as written under Deterministic. date counts only without arguments.
var nonDeterministic = map[string]bool{"now": true, "today": true, "date": true}

var (
	errBudget  = errors.New("expression exceeds its budget (too much data or work)")
	errTimeout = errors.New("expression took too long")
)

// Evaluator returns a document.Evaluator over env in mode. Each call compiles the expression with
// expr.Compile, over the env {"space":{"vars":{…}},"page":{"vars":{…}}} plus the built-ins, and:
//
//   - an expression that does not compile, or names a variable that does not exist, is an error;
//   - under Deterministic, an expression whose syntax tree calls a non-deterministic function (now,
//     today, date with no arguments) is left as written (ok=false, no error);
//   - the result becomes a string: nil → "", strings as they are, booleans and integers as fmt
//     writes them, floats in their shortest decimal form (from 1e21 on with an exponent), times in
//     RFC 3339, durations as "1h30m0s", lists, maps and structures as JSON;
//   - evaluation is bounded: at most MaxLength characters and maxNodes syntax nodes, a size budget
//     charged with every value the expression builds or passes to a function or operator, and a
//     deadline. Going past one is an error, so that no expression hangs or exhausts memory.
//
// Beyond expr-lang's built-ins (upper, lower, trim, split, join, replace, len, map, filter, …),
// expressions may call:
//
//   - now() and today() (the date as "2006-01-02"), read from now (time.Now when nil), once per
//     evaluation: non-deterministic;
//   - date() (now, non-deterministic), date(s), date(s, layout) and date(s, layout, zone): a time
//     parsed from s, as expr-lang's date;
//   - capitalize(s): s with its first letter in upper case;
//   - default(v, fallback): fallback when v is nil or "", else v.
//
// A variable named in full (space.vars.x, page.vars["x"]) must exist, unless it is read with ?. or
// on the left of ?? (space.vars?.x, space.vars.x ?? "none"); a variable looked up by a computed
// name (get(space.vars, name)) reads nil when missing.
//
// The evaluator never panics and is safe for concurrent use; each call evaluates afresh.
func Evaluator(env Env, mode Mode, now func() time.Time) document.Evaluator {
	if now == nil {
		now = time.Now
	}
	vars := environment{Space: space{Vars: toAny(env.SpaceVars)}, Page: page{Vars: toAny(env.PageVars)}}
	return func(expression string) (value string, ok bool, err error) {
		defer func() {
			if p := recover(); p != nil {
				value, ok, err = "", false, fmt.Errorf("evaluation failed: %v", p)
			}
		}()
		return evaluate(expression, vars, mode, now)
	}
}

// environment is the env expressions see.
type environment struct {
	Space space `expr:"space"`
	Page  page  `expr:"page"`
}

// space and page are distinct types so that type errors name the right one.
type space struct {
	Vars map[string]any `expr:"vars"`
}

type page struct {
	Vars map[string]any `expr:"vars"`
}

func toAny(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func evaluate(expression string, env environment, mode Mode, now func() time.Time) (string, bool, error) {
	if utf8.RuneCountInString(expression) > MaxLength {
		return "", false, fmt.Errorf("expression longer than %d characters", MaxLength)
	}
	if strings.TrimSpace(expression) == "" {
		return "", false, errors.New("empty expression")
	}
	r := newRun(now)
	program, err := exprlang.Compile(expression, r.options(env)...)
	if err != nil {
		return "", false, message(err)
	}
	if err := checkVariables(program.Node(), env); err != nil {
		return "", false, err
	}
	if mode == Deterministic && !deterministic(program.Node()) {
		return "", false, nil
	}
	machine := vm.VM{MemoryBudget: maxSize}
	out, err := machine.Run(program, env)
	if err != nil {
		return "", false, message(err)
	}
	s, err := r.format(out)
	if err != nil {
		return "", false, err
	}
	return s, true, nil
}

// message makes an expr-lang error one line: the message and its position, without the snippet.
func message(err error) error {
	switch {
	case errors.Is(err, errBudget):
		return errBudget
	case errors.Is(err, errTimeout):
		return errTimeout
	}
	var fe *file.Error
	if errors.As(err, &fe) {
		msg := fe.Message
		if msg == "memory budget exceeded" {
			return errBudget
		}
		if fe.Snippet != "" { // bound to the source: a position, the column counted from 1
			msg = fmt.Sprintf("%s (%d:%d)", msg, fe.Line, fe.Column+1)
		}
		return errors.New(msg)
	}
	return err
}

// ---------------------------------------------------------------------------------------------
// Analysis

// callName returns the function a call node calls by name.
func callName(n ast.Node) (string, int, bool) {
	switch n := n.(type) {
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok {
			return id.Value, len(n.Arguments), true
		}
	case *ast.BuiltinNode:
		return n.Name, len(n.Arguments), true
	}
	return "", 0, false
}

// visitor adapts a function to ast.Visitor.
type visitor func(node *ast.Node)

func (v visitor) Visit(node *ast.Node) { v(node) }

// deterministic reports whether the expression calls no non-deterministic function.
func deterministic(root ast.Node) bool {
	ok := true
	ast.Walk(&root, visitor(func(node *ast.Node) {
		if name, args, isCall := callName(*node); isCall && nonDeterministic[name] && (name != "date" || args == 0) {
			ok = false
		}
	}))
	return ok
}

// checkVariables refuses a variable named in full (space.vars.x, page.vars["x"]) that does not
// exist, unless it is read with ?. or on the left of ??.
func checkVariables(root ast.Node, env environment) error {
	spared := map[ast.Node]bool{}
	var missing []ast.Node
	names := map[ast.Node]string{}
	ast.Walk(&root, visitor(func(node *ast.Node) {
		switch n := (*node).(type) {
		case *ast.BinaryNode:
			if n.Operator == "??" {
				spared[unwrap(n.Left)] = true
			}
		case *ast.MemberNode:
			if name, ok := missingVariable(n, env); ok {
				missing = append(missing, n)
				names[n] = name
			}
		}
	}))
	for _, n := range missing {
		if !spared[n] {
			return fmt.Errorf("undefined variable %s", names[n])
		}
	}
	return nil
}

// missingVariable reports whether n is space.vars.x or page.vars.x ($env.space.vars.x, …) read
// without ?., for an x that does not exist.
func missingVariable(n *ast.MemberNode, env environment) (string, bool) {
	prop, ok := n.Property.(*ast.StringNode)
	if !ok || n.Optional {
		return "", false
	}
	vars, ok := unwrap(n.Node).(*ast.MemberNode)
	if !ok {
		return "", false
	}
	if field, ok := vars.Property.(*ast.StringNode); !ok || field.Value != "vars" {
		return "", false
	}
	var name string
	switch root := unwrap(vars.Node).(type) {
	case *ast.IdentifierNode: // space
		name = root.Value
	case *ast.MemberNode: // $env.space
		env, isEnv := unwrap(root.Node).(*ast.IdentifierNode)
		field, isField := root.Property.(*ast.StringNode)
		if !isEnv || env.Value != "$env" || !isField {
			return "", false
		}
		name = field.Value
	default:
		return "", false
	}
	var m map[string]any
	switch name {
	case "space":
		m = env.Space.Vars
	case "page":
		m = env.Page.Vars
	default:
		return "", false
	}
	if _, ok := m[prop.Value]; ok {
		return "", false
	}
	return name + ".vars." + prop.Value, true
}

// unwrap returns the node under optional chaining and the budget's wrappers.
func unwrap(n ast.Node) ast.Node {
	for {
		switch c := n.(type) {
		case *ast.ChainNode:
			n = c.Node
			continue
		case *ast.CallNode:
			if id, ok := c.Callee.(*ast.IdentifierNode); ok && isLimit(id.Value) && len(c.Arguments) > 0 {
				n = c.Arguments[len(c.Arguments)-1]
				continue
			}
		}
		return n
	}
}

// ---------------------------------------------------------------------------------------------
// Budget

// newRun starts the budget and the clock of one evaluation.
func newRun(now func() time.Time) *run {
	return &run{budget: maxSize, deadline: time.Now().Add(timeLimit), clock: now}
}

// run is the state of one evaluation.
type run struct {
	budget   int // units left
	deadline time.Time
	clock    func() time.Time
	now      *time.Time // read once per evaluation
}

// Names of the budget's functions, which the limiter wraps around values.
const (
	limitAny    = "_limit"
	limitString = "_limitString"
)

// Names of the per-iteration ticks, one per result type so that type checking is unchanged.
const (
	tickAny    = "_tick"
	tickBool   = "_tickBool"
	tickInt    = "_tickInt"
	tickFloat  = "_tickFloat"
	tickString = "_tickString"
)

func isLimit(name string) bool {
	switch name {
	case limitAny, limitString, tickAny, tickBool, tickInt, tickFloat, tickString:
		return true
	}
	return false
}

// step charges n units of work and checks the deadline.
func (r *run) step(n int) error {
	if time.Now().After(r.deadline) {
		return errTimeout
	}
	r.budget -= n
	if r.budget < 0 {
		return errBudget
	}
	return nil
}

// charge counts v against the budget and the deadline.
func (r *run) charge(v any) error {
	if time.Now().After(r.deadline) {
		return errTimeout
	}
	r.budget -= size(v, r.budget)
	if r.budget < 0 {
		return errBudget
	}
	return nil
}

// size is v's size (a string's bytes, a list's or map's elements, deeply, at least 1 each),
// counted up to just past limit.
func size(v any, limit int) int {
	switch v := v.(type) {
	case nil, bool, int, int64, float64, time.Time, time.Duration:
		return 1
	case string:
		return max(1, len(v))
	case []int:
		return 1 + len(v)
	case []float64:
		return 1 + len(v)
	case []string:
		n := 1
		for _, s := range v {
			if n > limit {
				break
			}
			n += max(1, len(s))
		}
		return n
	case []any:
		n := 1
		for _, x := range v {
			if n > limit {
				break
			}
			n += size(x, limit-n)
		}
		return n
	case map[string]any:
		n := 1
		for k, x := range v {
			if n > limit {
				break
			}
			n += max(1, len(k)) + size(x, limit-n-len(k))
		}
		return n
	}
	return sizeOf(reflect.ValueOf(v), limit)
}

func sizeOf(v reflect.Value, limit int) int {
	switch v.Kind() {
	case reflect.String:
		return max(1, v.Len())
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return 1
		}
		return sizeOf(v.Elem(), limit)
	case reflect.Slice, reflect.Array:
		n := 1
		for i := 0; i < v.Len() && n <= limit; i++ {
			n += sizeOf(v.Index(i), limit-n)
		}
		return n
	case reflect.Map:
		n := 1
		for it := v.MapRange(); it.Next() && n <= limit; {
			n += sizeOf(it.Key(), limit-n)
			n += sizeOf(it.Value(), limit-n)
		}
		return n
	}
	return 1
}

// limiter is an expr-lang patch that wraps a call to the budget around every operation's operands
// and result, so that whatever an expression builds or reads is charged:
//
//   - calls (functions, built-ins, methods): each argument and the result;
//   - binary operators (+, .., ==, in, contains, matches, …; not the short-circuit ones): each
//     operand and the result;
//   - list and map literals, and slices: the result.
//
// Literals, predicates and values of fixed size (numbers, booleans, times, durations) are not
// wrapped. Strings are wrapped by a function typed string → string, so that type checking sees
// the same types; anything else by one typed any → any.
type limiter struct{}

func (limiter) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok && isLimit(id.Value) {
			return
		}
		for i := range n.Arguments {
			wrap(&n.Arguments[i])
		}
	case *ast.BuiltinNode:
		for i := range n.Arguments {
			wrap(&n.Arguments[i])
		}
	case *ast.BinaryNode:
		switch n.Operator {
		case "&&", "||", "and", "or", "??":
			return
		}
		wrap(&n.Left)
		wrap(&n.Right)
	case *ast.PredicateNode:
		tick(n)
		return
	case *ast.ArrayNode, *ast.MapNode, *ast.SliceNode:
	default:
		return
	}
	wrap(node)
}

// tick makes each run of a predicate body (one iteration of map, filter, reduce, all, sortBy…)
// charge the budget with the body's size in syntax nodes and check the deadline. Without it a
// predicate over numbers and booleans would charge nothing, so `all(1..200000, # > 0 && …)` or
// nested loops would run unbounded by the budget and unchecked by the deadline: now the work of
// all iterations together is bounded by maxSize nodes evaluated.
func tick(p *ast.PredicateNode) {
	if p.Node == nil {
		return
	}
	n := max(1, countNodes(p.Node))
	name := tickAny
	if t := p.Node.Type(); t != nil {
		switch t.Kind() {
		case reflect.Bool:
			name = tickBool
		case reflect.Int:
			name = tickInt
		case reflect.Float64:
			name = tickFloat
		case reflect.String:
			name = tickString
		}
	}
	ast.Patch(&p.Node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: name},
		Arguments: []ast.Node{&ast.IntegerNode{Value: n}, p.Node}})
}

// countNodes is the size of a syntax tree.
func countNodes(root ast.Node) int {
	n := 0
	ast.Walk(&root, visitor(func(*ast.Node) { n++ }))
	return n
}

// wrap puts the budget's function around *node unless its size is fixed or it is a literal.
func wrap(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.NilNode, *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.StringNode, *ast.ConstantNode,
		*ast.PredicateNode, *ast.PointerNode:
		return
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok && isLimit(id.Value) {
			return
		}
	}
	t := (*node).Type()
	if fixedSize(t) {
		return
	}
	name := limitAny
	if t != nil && t.Kind() == reflect.String {
		name = limitString
	}
	ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: name}, Arguments: []ast.Node{*node}})
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	locationType = reflect.TypeFor[*time.Location]()
)

func fixedSize(t reflect.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Func:
		return true
	}
	return t == timeType || t == locationType
}

// ---------------------------------------------------------------------------------------------
// Functions

// options configures one compilation: the env, the node limit, the budget's patch and functions,
// our functions, and bounded versions of expr-lang's built-ins whose output can outgrow their
// input (repeat, replace, join) or whose work can (uniq).
func (r *run) options(env any) []exprlang.Option {
	ticked := func(args ...any) (any, error) {
		n, _ := args[0].(int)
		return args[1], r.step(n)
	}
	return []exprlang.Option{
		exprlang.Env(env),
		exprlang.Function(tickAny, ticked, new(func(int, any) any)),
		exprlang.Function(tickBool, ticked, new(func(int, bool) bool)),
		exprlang.Function(tickInt, ticked, new(func(int, int) int)),
		exprlang.Function(tickFloat, ticked, new(func(int, float64) float64)),
		exprlang.Function(tickString, ticked, new(func(int, string) string)),
		exprlang.MaxNodes(maxNodes),
		exprlang.Patch(limiter{}),
		exprlang.Function(limitAny, func(args ...any) (any, error) {
			return args[0], r.charge(args[0])
		}, new(func(any) any)),
		exprlang.Function(limitString, func(args ...any) (any, error) {
			return args[0], r.charge(args[0])
		}, new(func(string) string)),
		exprlang.Function("now", func(args ...any) (any, error) {
			return r.time(), nil
		}, new(func() time.Time)),
		exprlang.Function("today", func(args ...any) (any, error) {
			return r.time().Format(time.DateOnly), nil
		}, new(func() string)),
		exprlang.Function("date", r.date,
			new(func() time.Time),
			new(func(string) time.Time),
			new(func(string, string) time.Time),
			new(func(string, string, string) time.Time)),
		exprlang.Function("timezone", func(args ...any) (any, error) {
			name, err := stringArg("timezone", args, 0)
			if err != nil {
				return nil, err
			}
			return location(name)
		}, new(func(string) *time.Location)),
		exprlang.Function("capitalize", func(args ...any) (any, error) {
			s, err := stringArg("capitalize", args, 0)
			if err != nil {
				return nil, err
			}
			first, n := utf8.DecodeRuneInString(s)
			if n == 0 {
				return s, nil
			}
			return string(unicode.ToUpper(first)) + s[n:], nil
		}, new(func(string) string)),
		exprlang.Function("default", func(args ...any) (any, error) {
			if args[0] == nil || args[0] == "" {
				return args[1], nil
			}
			return args[0], nil
		}, new(func(any, any) any)),
		exprlang.Function("repeat", r.repeat, new(func(string, int) string)),
		exprlang.Function("replace", r.replace, new(func(string, string, string) string)),
		exprlang.Function("join", r.join, new(func(any) string), new(func(any, string) string)),
		exprlang.Function("uniq", r.uniq, new(func(any) []any)),
	}
}

// time is now, read once per evaluation.
func (r *run) time() time.Time {
	if r.now == nil {
		t := r.clock()
		r.now = &t
	}
	return *r.now
}

// dateLayouts are the layouts date(s) tries, as expr-lang's date.
var dateLayouts = []string{
	time.DateOnly, time.TimeOnly, time.DateTime, time.RFC3339, time.RFC822, time.RFC850, time.RFC1123,
}

func (r *run) date(args ...any) (any, error) {
	if len(args) == 0 {
		return r.time(), nil
	}
	var s, layout, zone string
	for i, p := range []*string{&s, &layout, &zone}[:min(len(args), 3)] {
		var err error
		if *p, err = stringArg("date", args, i); err != nil {
			return nil, err
		}
	}
	switch len(args) {
	case 1:
		for _, layout := range dateLayouts {
			if t, err := time.Parse(layout, s); err == nil {
				return t, nil
			}
		}
		return nil, fmt.Errorf("invalid date %s", s)
	case 2:
		return time.Parse(layout, s)
	default:
		loc, err := location(zone)
		if err != nil {
			return nil, err
		}
		return time.ParseInLocation(layout, s, loc)
	}
}

// locations caches time zones: loading one reads the system's zone files.
var locations sync.Map // name → *time.Location

func location(name string) (*time.Location, error) {
	if loc, ok := locations.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	locations.Store(name, loc)
	return loc, nil
}

func (r *run) repeat(args ...any) (any, error) {
	s, err := stringArg("repeat", args, 0)
	if err != nil {
		return nil, err
	}
	n, ok := toInt(args[1])
	if !ok {
		return nil, fmt.Errorf("repeat: argument 2 is %T, not an integer", args[1])
	}
	if n < 0 {
		return nil, fmt.Errorf("invalid argument for repeat (expected positive integer, got %d)", n)
	}
	if len(s) > 0 && n > r.budget/len(s) {
		return nil, errBudget
	}
	return strings.Repeat(s, n), nil
}

func (r *run) replace(args ...any) (any, error) {
	var s, old, repl string
	for i, p := range []*string{&s, &old, &repl} {
		var err error
		if *p, err = stringArg("replace", args, i); err != nil {
			return nil, err
		}
	}
	count := strings.Count(s, old)
	if grow := len(repl) - len(old); grow > 0 && count > 0 && grow > (r.budget-len(s))/count {
		return nil, errBudget
	}
	return strings.ReplaceAll(s, old, repl), nil
}

func (r *run) join(args ...any) (any, error) {
	sep := ""
	if len(args) == 2 {
		var err error
		if sep, err = stringArg("join", args, 1); err != nil {
			return nil, err
		}
	}
	v := reflect.ValueOf(args[0])
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return nil, fmt.Errorf("cannot join %T", args[0])
	}
	parts := make([]string, v.Len())
	total := 0
	for i := range parts {
		s, err := r.format(v.Index(i).Interface())
		if err != nil {
			return nil, err
		}
		parts[i] = s
		total += len(s) + len(sep)
		if total > r.budget {
			return nil, errBudget
		}
	}
	return strings.Join(parts, sep), nil
}

// uniq keeps the first of equal elements, as expr-lang's uniq, in linear time for strings,
// numbers and booleans (numbers compare by value: 1 and 1.0 are equal).
func (r *run) uniq(args ...any) (any, error) {
	v := reflect.ValueOf(args[0])
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return nil, fmt.Errorf("cannot uniq %T", args[0])
	}
	out := []any{}
	seen := map[any]bool{}
	var others []any // elements with no map key, compared one by one
	for i := range v.Len() {
		x := v.Index(i).Interface()
		key, ok := uniqKey(x)
		if ok {
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, x)
			continue
		}
		if len(others) > 0 {
			if err := r.charge(others); err != nil { // quadratic: charged as it goes
				return nil, err
			}
		}
		dup := false
		for _, o := range others {
			if reflect.DeepEqual(o, x) {
				dup = true
				break
			}
		}
		if !dup {
			others = append(others, x)
			out = append(out, x)
		}
	}
	return out, nil
}

// stringArg returns argument i of a call to fn, which must be a string (an argument of unknown
// type, say a variable, is checked when the expression runs).
func stringArg(fn string, args []any, i int) (string, error) {
	s, ok := args[i].(string)
	if !ok {
		return "", fmt.Errorf("%s: argument %d is %T, not a string", fn, i+1, args[i])
	}
	return s, nil
}

func toInt(v any) (int, bool) {
	switch v := v.(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return int(v), true
		}
	}
	return 0, false
}

func uniqKey(x any) (any, bool) {
	switch x := x.(type) {
	case nil, string, bool:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		if math.IsNaN(x) {
			return nil, false
		}
		return x, true
	}
	return nil, false
}

// ---------------------------------------------------------------------------------------------
// Results

// format writes a result as text (see Evaluator).
func (r *run) format(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case int:
		return strconv.Itoa(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case float64:
		return formatFloat(v), nil
	case time.Time:
		return v.Format(time.RFC3339), nil
	case time.Duration:
		return v.String(), nil
	case fmt.Stringer:
		return v.String(), nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map, reflect.Struct:
		if err := r.charge(v); err != nil {
			return "", err
		}
		b, err := json.Marshal(v)
		if err != nil {
			return "", fmt.Errorf("cannot write the result: %v", err)
		}
		return string(b), nil
	case reflect.Float32, reflect.Float64:
		return formatFloat(rv.Float()), nil
	}
	return fmt.Sprint(v), nil
}

// formatFloat writes f in its shortest decimal form, with an exponent from 1e21 on (as
// JavaScript writes numbers).
func formatFloat(f float64) string {
	if math.Abs(f) >= 1e21 {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
