package domain

import (
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/expr"
)

// Visitor conditions are expressions over the visitor's claims, e.g. `visitor.claims.plan ==
// "pro"`, evaluated by the one bounded evaluator (domain/expr). They must be boolean and within
// the evaluator's budgets: a condition that cannot be checked to give true or false, or that is
// too costly, is refused when it is written, not when a visitor arrives.

// compileCondition checks a condition. Errors: Invalid naming field, with the evaluator's message
// and position.
func compileCondition(field, condition string) error {
	if err := expr.CheckCondition(condition); err != nil {
		return apperr.Invalidf(field, "%s", err.Error())
	}
	return nil
}

// conditionHolds evaluates a condition for a visitor; a condition that fails to evaluate (a
// missing claim compared with a number, say, or one past its budget) does not hold.
func conditionHolds(condition *string, claims map[string]any) bool {
	if condition == nil {
		return true
	}
	return expr.ConditionHolds(*condition, claims)
}
