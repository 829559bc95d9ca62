package expr

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	exprlang "github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
)

// Visitor conditions (site spaces and site sections) are boolean expressions over the visitor's
// claims, e.g. `visitor.claims.plan == "pro"`. They run in the same bounded evaluator as page
// expressions (length, syntax nodes, size budget, per-iteration charge, deadline), because a
// condition is stored and evaluated on every read of a site's structure: an unbounded one would
// take the server down on each read, and again after each restart.

// CheckCondition compiles a condition and runs it once for a visitor with no claims, so that a
// condition that is not boolean, does not compile, or exceeds the budget is refused when it is
// written. A condition that merely fails for that visitor (comparing a missing claim with a
// number, say) is accepted: it will not hold for such visitors.
func CheckCondition(condition string) error {
	program, r, err := compileCondition(condition)
	if err != nil {
		return err
	}
	if _, err := runCondition(program, r, nil); errors.Is(err, errBudget) || errors.Is(err, errTimeout) {
		return err
	}
	return nil
}

// ConditionHolds evaluates a condition for a visitor with claims. It fails closed: a condition
// that does not compile, fails, exceeds its budget or panics does not hold.
func ConditionHolds(condition string, claims map[string]any) (holds bool) {
	defer func() {
		if recover() != nil {
			holds = false
		}
	}()
	program, r, err := compileCondition(condition)
	if err != nil {
		return false
	}
	out, err := runCondition(program, r, claims)
	return err == nil && out
}

func compileCondition(condition string) (*vm.Program, *run, error) {
	if utf8.RuneCountInString(condition) > MaxLength {
		return nil, nil, fmt.Errorf("expression longer than %d characters", MaxLength)
	}
	if strings.TrimSpace(condition) == "" {
		return nil, nil, errors.New("empty expression")
	}
	r := newRun(time.Now)
	opts := append(r.options(conditionEnv(nil)), exprlang.AsBool(), exprlang.Patch(negation{}),
		exprlang.Function(truthyName, func(args ...any) (any, error) { return truthy(args[0]), nil }, new(func(any) bool)))
	program, err := exprlang.Compile(condition, opts...)
	if err != nil {
		return nil, nil, message(err)
	}
	return program, r, nil
}

func runCondition(program *vm.Program, r *run, claims map[string]any) (holds bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			holds, err = false, fmt.Errorf("evaluation failed: %v", p)
		}
	}()
	// The claims are the visitor's: charge them like any value the expression receives.
	if err := r.charge(claims); err != nil {
		return false, err
	}
	machine := vm.VM{MemoryBudget: maxSize}
	out, err := machine.Run(program, conditionEnv(claims))
	if err != nil {
		return false, message(err)
	}
	b, ok := out.(bool)
	return ok && b, nil
}

// conditionEnv is what a condition sees: the visitor and their claims.
func conditionEnv(claims map[string]any) map[string]any {
	if claims == nil {
		claims = map[string]any{}
	}
	return map[string]any{"visitor": map[string]any{"claims": claims}}
}

// truthyName is the function negation calls.
const truthyName = "truthy"

// negation makes a condition's ! (and not) read its operand as GitBook's conditions (JavaScript)
// do: a missing claim, false, "" and 0 are false, anything else true. So
// `!visitor.claims.unsigned.beta` holds for a visitor without that claim, where expr-lang's own !
// would fail on nil.
type negation struct{}

func (negation) Visit(node *ast.Node) {
	if n, ok := (*node).(*ast.UnaryNode); ok && (n.Operator == "!" || n.Operator == "not") {
		n.Node = &ast.CallNode{Callee: &ast.IdentifierNode{Value: truthyName}, Arguments: []ast.Node{n.Node}}
	}
}

// truthy is v's truth as JavaScript's.
func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case int:
		return v != 0
	case int64:
		return v != 0
	case float64:
		return v != 0 && v == v
	case []any:
		return true
	case map[string]any:
		return true
	}
	return true
}
