package main

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v3"
)

// readmeSection is the text of one "## " section of README.md.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "\n## "+heading+"\n")
	if start < 0 {
		t.Fatalf("README.md has no section %q", heading)
	}
	text = text[start+1:]
	if end := strings.Index(text[3:], "\n## "); end >= 0 {
		text = text[:end+3]
	}
	return text
}

// tableRows are the cells of a markdown table's body rows whose first cell starts with prefix.
func tableRows(text, prefix string) [][]string {
	var rows [][]string
	for line := range strings.SplitSeq(text, "\n") {
		if !strings.HasPrefix(line, "| "+prefix) {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	return rows
}

var codeSpan = regexp.MustCompile("`([^`]*)`")

// TestReadmeListsEveryServeFlag keeps README.md's configuration table and serve's flags one
// list: every flag has a row with its environment variable and default, and no row names a flag
// that does not exist.
func TestReadmeListsEveryServeFlag(t *testing.T) {
	serve := app().Command("serve")
	rows := map[string][]string{}
	for _, row := range tableRows(readmeSection(t, "Configuration"), "`--") {
		name := strings.TrimPrefix(codeSpan.FindStringSubmatch(row[0])[1], "--")
		if _, dup := rows[name]; dup {
			t.Errorf("README.md lists --%s twice", name)
		}
		rows[name] = row
	}
	for _, flag := range serve.Flags {
		f := flag.(cli.DocGenerationFlag)
		name := flag.Names()[0]
		row, ok := rows[name]
		if !ok {
			t.Errorf("README.md's configuration table has no row for --%s", name)
			continue
		}
		delete(rows, name)
		if env := f.GetEnvVars(); len(env) == 0 || !strings.Contains(row[1], "`"+env[0]+"`") {
			t.Errorf("--%s: README.md gives the environment %s, the flag reads %v", name, row[1], env)
		}
		// A zero value (0, false, "") is the flag's "none"; the README says what that means.
		if want := f.GetValue(); !slices.Contains([]string{"", `""`, "0", "false", "0s"}, want) && !sameDefault(row[2], want) {
			t.Errorf("--%s: README.md gives the default %s, the flag's is %s", name, row[2], want)
		}
	}
	for name := range rows {
		t.Errorf("README.md lists --%s, which serve does not have", name)
	}
}

// sameDefault reports whether the README's default cell states the flag's default value.
func sameDefault(cell, value string) bool {
	if unquoted, err := strconv.Unquote(value); err == nil {
		value = unquoted
	}
	for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
		if m[1] == value {
			return true
		}
		a, errA := time.ParseDuration(m[1])
		b, errB := time.ParseDuration(value)
		if errA == nil && errB == nil && a == b {
			return true
		}
	}
	return cell == value
}

// TestReadmeListsEveryOperatorCommand checks the operator commands' table the same way: each
// command once, each of its flags named (but --database and --json, which the text covers).
func TestReadmeListsEveryOperatorCommand(t *testing.T) {
	root := app()
	seen := map[string]bool{}
	for _, row := range tableRows(readmeSection(t, "Configuration"), "`bindery ") {
		if !strings.Contains(row[0], "`:") { // the serve table's heading, not a command's row
			continue
		}
		path := strings.Fields(codeSpan.FindStringSubmatch(row[0])[1])[1:]
		name := strings.Join(path, " ")
		if seen[name] {
			t.Errorf("README.md lists %q twice", name)
		}
		seen[name] = true
		cmd := root
		for _, p := range path {
			if cmd = cmd.Command(p); cmd == nil {
				t.Fatalf("README.md lists %q, which is not a command", name)
			}
		}
		var named []string
		for _, m := range codeSpan.FindAllStringSubmatch(row[1], -1) {
			if strings.HasPrefix(m[1], "--") {
				named = append(named, strings.TrimPrefix(m[1], "--"))
			}
		}
		for _, flag := range cmd.Flags {
			if n := flag.Names()[0]; n != "database" && n != "json" && !slices.Contains(named, n) {
				t.Errorf("README.md's row for %q does not name --%s", name, n)
			}
		}
		for _, n := range named {
			if !slices.ContainsFunc(cmd.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), n) }) {
				t.Errorf("README.md's row for %q names --%s, which it does not have", name, n)
			}
		}
	}
	for _, want := range []string{"admin bootstrap", "admin user create", "admin token create", "admin token list", "admin token revoke"} {
		if !seen[want] {
			t.Errorf("README.md's operator table has no row for %q", want)
		}
	}
}
