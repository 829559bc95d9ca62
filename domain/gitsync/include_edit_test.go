package gitsync

import "testing"

func TestIncludeText(t *testing.T) {
	const path = ".gitbook/includes/tide-table.md"
	for _, c := range []struct{ name, text, title, body, want string }{
		{"unchanged keeps bytes", "---\ntitle: Tides\ndescription: x\n---\n\n\nHigh.\r\n", "Tides", "High.\n", "---\ntitle: Tides\ndescription: x\n---\n\n\nHigh.\r\n"},
		{"body keeps front matter", "---\ntitle: Tides\n---\n\nHigh.\n", "Tides", "Low.\n", "---\ntitle: Tides\n---\n\nLow.\n"},
		{"title set in front matter", "---\ntitle: Tides\ndescription: x\n---\n\nHigh.\n", "Moons", "High.\n", "---\ntitle: Moons\ndescription: x\n---\n\nHigh.\n"},
		{"title added to front matter", "---\ndescription: x\n---\n\nHigh.\n", "Moons", "High.\n", "---\ndescription: x\ntitle: Moons\n---\n\nHigh.\n"},
		{"no front matter, name's title", "High.\n", "Tide table", "Low.\n", "Low.\n"},
		{"no front matter, new title", "High.\n", "Moons", "High.\n", "---\ntitle: Moons\n---\n\nHigh.\n"},
	} {
		got := IncludeText(c.text, path, c.title, c.body)
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
		if includeTitle(got, path) != c.title || IncludeMarkdown(got) != IncludeMarkdown(c.want) {
			t.Errorf("%s: reads back as %q, %q", c.name, includeTitle(got, path), IncludeMarkdown(got))
		}
	}
}
