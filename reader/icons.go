package reader

import (
	"html/template"
	"strings"
)

// Icons: pages, sections and groups name an icon (GitBook uses Font Awesome names such as
// "book-open" or "rocket-launch"). The reader draws a small set of simple line icons of its own,
// chosen by the words of the name; a name it has no drawing for shows no icon.

var iconPaths = map[string]string{
	"book":     `<path d="M4 4h7a2 2 0 0 1 2 2v14a2 2 0 0 0-2-2H4z"/><path d="M20 4h-7a2 2 0 0 0-2 2v14a2 2 0 0 1 2-2h7z"/>`,
	"file":     `<path d="M6 2h8l5 5v15H6z"/><path d="M14 2v5h5"/>`,
	"folder":   `<path d="M3 6h6l2 2h10v12H3z"/>`,
	"gear":     `<circle cx="12" cy="12" r="3"/><circle cx="12" cy="12" r="8" stroke-dasharray="3 2"/>`,
	"code":     `<polyline points="8 6 2 12 8 18"/><polyline points="16 6 22 12 16 18"/>`,
	"house":    `<polyline points="3 11 12 3 21 11"/><path d="M5 10v11h14V10"/>`,
	"info":     `<circle cx="12" cy="12" r="9"/><line x1="12" y1="11" x2="12" y2="17"/><line x1="12" y1="7" x2="12" y2="7.5"/>`,
	"star":     `<polygon points="12 3 14.8 9 21 9.6 16.3 13.8 17.7 20 12 16.8 6.3 20 7.7 13.8 3 9.6 9.2 9"/>`,
	"user":     `<circle cx="12" cy="8" r="4"/><path d="M4 21c0-4 4-6 8-6s8 2 8 6"/>`,
	"lock":     `<rect x="5" y="11" width="14" height="10" rx="1"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/>`,
	"globe":    `<circle cx="12" cy="12" r="9"/><ellipse cx="12" cy="12" rx="4" ry="9"/><line x1="3" y1="12" x2="21" y2="12"/>`,
	"terminal": `<polyline points="4 7 9 12 4 17"/><line x1="11" y1="18" x2="20" y2="18"/>`,
	"bolt":     `<polygon points="13 2 4 14 11 14 10 22 20 9 13 9"/>`,
	"flag":     `<path d="M5 21V4h12l-2 4 2 4H5"/>`,
	"list":     `<line x1="8" y1="6" x2="21" y2="6"/><line x1="8" y1="12" x2="21" y2="12"/><line x1="8" y1="18" x2="21" y2="18"/><circle cx="4" cy="6" r="1"/><circle cx="4" cy="12" r="1"/><circle cx="4" cy="18" r="1"/>`,
	"search":   `<circle cx="11" cy="11" r="7"/><line x1="16" y1="16" x2="21" y2="21"/>`,
	"key":      `<circle cx="8" cy="15" r="4"/><path d="M11 12l9-9M17 6l3 3"/>`,
	"rocket":   `<path d="M12 2c4 3 5 8 3 13H9C7 10 8 5 12 2z"/><path d="M9 15l-3 4h4M15 15l3 4h-4"/><circle cx="12" cy="9" r="1.5"/>`,
	"bulb":     `<path d="M9 18h6M10 21h4"/><path d="M12 3a6 6 0 0 0-4 10.5c.8.8 1 1.5 1 2.5h6c0-1 .2-1.7 1-2.5A6 6 0 0 0 12 3z"/>`,
	"chat":     `<path d="M4 5h16v11H9l-5 4z"/>`,
	"cube":     `<path d="M12 2l9 5v10l-9 5-9-5V7z"/><path d="M3 7l9 5 9-5M12 12v10"/>`,
	"plug":     `<path d="M9 2v6M15 2v6M6 8h12v4a6 6 0 0 1-12 0zM12 18v4"/>`,
	"shield":   `<path d="M12 2l8 3v6c0 5-3.5 9-8 11-4.5-2-8-6-8-11V5z"/>`,
	"chart":    `<line x1="4" y1="20" x2="20" y2="20"/><rect x="6" y="11" width="3" height="7"/><rect x="11" y="6" width="3" height="12"/><rect x="16" y="14" width="3" height="4"/>`,
	"tag":      `<path d="M3 3h8l10 10-8 8L3 11z"/><circle cx="7.5" cy="7.5" r="1"/>`,
	"heart":    `<path d="M12 20s-8-5-8-11a4.5 4.5 0 0 1 8-2.5A4.5 4.5 0 0 1 20 9c0 6-8 11-8 11z"/>`,
}

// iconWords maps the words of Font Awesome names to the drawings above.
var iconWords = map[string]string{
	"book": "book", "books": "book", "file": "file", "page": "file", "note": "file", "folder": "folder",
	"gear": "gear", "gears": "gear", "cog": "gear", "sliders": "gear", "wrench": "gear", "screwdriver": "gear", "code": "code", "brackets": "code",
	"house": "house", "home": "house", "info": "info", "circle-info": "info", "question": "info", "star": "star", "user": "user", "users": "user",
	"people": "user", "lock": "lock", "globe": "globe", "earth": "globe", "language": "globe", "terminal": "terminal", "bolt": "bolt",
	"flag": "flag", "list": "list", "magnifying": "search", "search": "search", "key": "key", "rocket": "rocket", "lightbulb": "bulb",
	"comment": "chat", "comments": "chat", "message": "chat", "cube": "cube", "box": "cube", "boxes": "cube", "plug": "plug",
	"puzzle": "plug", "shield": "shield", "chart": "chart", "tag": "tag", "tags": "tag", "heart": "heart", "server": "cube",
	"database": "cube", "api": "code", "download": "file", "newspaper": "file", "graduation": "book", "map": "globe", "compass": "globe",
}

// iconSVG draws the icon named, or nothing.
func iconSVG(name string) template.HTML {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" {
		return ""
	}
	key := ""
	if _, ok := iconPaths[name]; ok {
		key = name
	}
	for _, w := range strings.Split(name, "-") {
		if key != "" {
			break
		}
		key = iconWords[w]
	}
	if key == "" {
		return ""
	}
	return template.HTML(`<svg class="icon" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">` +
		iconPaths[key] + `</svg>`)
}
