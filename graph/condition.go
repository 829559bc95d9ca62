package graph

import (
	"github.com/bindery/bindery/graph/apperr"
	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
)

// Visitor conditions are expr-lang expressions over the visitor's claims, e.g.
// `visitor.claims.plan == "pro"`. They must be boolean: a condition that cannot be checked to
// give true or false is refused when it is written, not when a visitor arrives.

// conditionEnv is what a condition sees: the visitor and their claims.
func conditionEnv(claims map[string]any) map[string]any {
	if claims == nil {
		claims = map[string]any{}
	}
	return map[string]any{"visitor": map[string]any{"claims": claims}}
}

// compileCondition checks a condition. Errors: Invalid naming field, with expr's message and
// position.
func compileCondition(field, condition string) (*vm.Program, error) {
	program, err := expr.Compile(condition, expr.Env(conditionEnv(nil)), expr.AsBool())
	if err != nil {
		return nil, apperr.Invalidf(field, "%s", err.Error())
	}
	return program, nil
}

// conditionHolds evaluates a condition for a visitor; a condition that fails to evaluate (a
// missing claim compared with a number, say) does not hold.
func conditionHolds(condition *string, claims map[string]any) bool {
	if condition == nil {
		return true
	}
	program, err := expr.Compile(*condition, expr.Env(conditionEnv(nil)), expr.AsBool())
	if err != nil {
		return false
	}
	out, err := expr.Run(program, conditionEnv(claims))
	holds, ok := out.(bool)
	return err == nil && ok && holds
}
