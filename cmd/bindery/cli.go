package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/bindery/bindery/rest"
	"github.com/urfave/cli/v3"
)

// version and commit are set at build time:
// -ldflags "-X main.version=1.2.0 -X main.commit=$(git rev-parse HEAD)".
var (
	version = "dev"
	commit  = ""
)

// Exit codes: 1 for a command that ran and failed, 2 for a command line that was not understood
// (nothing was opened, migrated or created).
const (
	exitFailure = 1
	exitUsage   = 2
)

// usageError is a command line the CLI did not understand. It is reported before any command
// touches a database or a file.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// exitCode maps what Run returned to the process's exit status.
func exitCode(err error) int {
	var u usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &u):
		return exitUsage
	}
	return exitFailure
}

// commitHash is the -X value, else the VCS revision the toolchain stamped, else "unknown".
func commitHash() string {
	if commit != "" {
		return commit
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && s.Value != "" {
				return s.Value
			}
		}
	}
	return "unknown"
}

// versionText is what `bindery version` and `bindery --version` print.
func versionText() string {
	return fmt.Sprintf("bindery %s\ncommit: %s\ngo: %s %s/%s\n", version, commitHash(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version, commit and Go version, and exit",
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Present() {
				return usageError{fmt.Sprintf("version takes no arguments, got %q", cmd.Args().First())}
			}
			fmt.Fprint(cmd.Root().Writer, versionText())
			return nil
		},
	}
}

// strict makes every command of the tree refuse what it does not understand: a flag parse error,
// a missing required flag, an unknown sub-command or stray arguments become a usageError, with the
// command's help on stderr. Commands with sub-commands but no action of their own (admin, admin
// token…) refuse to run bare. Without this, urfave/cli shows help and exits 0, or (with a default
// command) runs serve on a typo, which migrates the database it points at.
func strict(cmd *cli.Command) {
	cmd.OnUsageError = func(_ context.Context, c *cli.Command, err error, _ bool) error {
		return usage(c, err.Error())
	}
	if cmd.Action == nil {
		cmd.Action = func(_ context.Context, c *cli.Command) error {
			if c.Args().Present() {
				return usage(c, fmt.Sprintf("unknown command %q", c.Args().First()))
			}
			return usage(c, "missing command")
		}
	} else if cmd.ArgsUsage == "" && len(cmd.Commands) == 0 {
		action := cmd.Action
		cmd.Action = func(ctx context.Context, c *cli.Command) error {
			if c.Args().Present() {
				return usage(c, fmt.Sprintf("unexpected argument %q", c.Args().First()))
			}
			return action(ctx, c)
		}
	}
	for _, sub := range cmd.Commands {
		strict(sub)
	}
}

// usage prints the error and the command's help on stderr and returns the usageError.
func usage(cmd *cli.Command, msg string) error {
	root := cmd.Root()
	w := root.ErrWriter
	if w == nil {
		w = os.Stderr
	}
	fmt.Fprintf(w, "bindery: %s\n\n", msg)
	saved := root.Writer
	root.Writer = w
	if cmd == root {
		_ = cli.ShowRootCommandHelp(cmd)
	} else {
		_ = cli.ShowSubcommandHelp(cmd)
	}
	root.Writer = saved
	return usageError{msg}
}

// setupLogging installs the JSON logger at the chosen level. Durations are logged as numbers of
// milliseconds by the code that logs them (keys ending in _ms).
func setupLogging(w io.Writer, level string) error {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.TrimSpace(level))); err != nil {
		return fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
	}
	slog.SetDefault(slog.New(rest.LogHandler{Handler: slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l})}))
	return nil
}

func init() {
	cli.VersionPrinter = func(cmd *cli.Command) { fmt.Fprint(cmd.Root().Writer, versionText()) }
}
