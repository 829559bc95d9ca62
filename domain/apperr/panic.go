package apperr

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
)

// LogPanic logs a recovered panic with the goroutine's stack, for every door.
func LogPanic(ctx context.Context, msg string, p any) {
	slog.ErrorContext(ctx, msg, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
}
