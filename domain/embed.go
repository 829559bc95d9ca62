package domain

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/html"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
)

// Embeds (the contract's getEmbedByUrl): what a URL looks like embedded in content. The page is
// fetched through the safe fetcher (public addresses only, bounded size and time); a page that
// names an oEmbed endpoint (<link rel="alternate" type="application/json+oembed">) gives rich
// HTML, any other a link card from its title, site name and icon. Answers are cached for an hour.

const (
	embedPageBytes = 1 << 20 // enough for a page's <head>
	embedCacheTTL  = time.Hour
	embedCacheMax  = 2000
)

// embedCache holds recent embeds by URL, bounded: when full, the oldest half goes.
type embedCache struct {
	mu      sync.Mutex
	entries map[string]embedEntry
}

type embedEntry struct {
	embed *model.Embed
	at    time.Time
}

func (c *embedCache) get(u string, now time.Time) *model.Embed {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[u]; ok && now.Sub(e.at) < embedCacheTTL {
		cp := *e.embed
		return &cp
	}
	return nil
}

func (c *embedCache) put(u string, e *model.Embed, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]embedEntry{}
	}
	if len(c.entries) >= embedCacheMax {
		cut := now.Add(-embedCacheTTL / 2)
		for k, v := range c.entries {
			if v.at.Before(cut) || len(c.entries) >= embedCacheMax {
				delete(c.entries, k)
			}
		}
	}
	c.entries[u] = embedEntry{embed: e, at: now}
}

// EmbedByURL is how a URL embeds. A page that cannot be fetched embeds as a plain link.
// Errors: Invalid (not an http(s) URL).
func (r *App) EmbedByURL(ctx context.Context, raw string) (*model.Embed, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if raw == "" || len(raw) > maxContentURL || err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, apperr.Invalidf("url", "must be an absolute http or https URL")
	}
	key := u.String()
	now := r.Now()
	if e := r.embeds.get(key, now); e != nil {
		return e, nil
	}
	e := r.fetchEmbed(ctx, u)
	r.embeds.put(key, e, now)
	return e, nil
}

// fetchEmbed reads a page's embed: its oEmbed HTML, or a link card.
func (r *App) fetchEmbed(ctx context.Context, u *url.URL) *model.Embed {
	out := &model.Embed{Type: "link", Title: u.String(), Site: u.Hostname()}
	policy := r.Settings.Fetch
	policy.MaxBytes = embedPageBytes
	body, err := policy.Get(ctx, u.String())
	if err != nil {
		return out
	}
	head := readHead(body)
	if head.title != "" {
		out.Title = head.title
	}
	if head.site != "" {
		out.Site = head.site
	}
	if icon := resolveRef(u, head.icon); icon != "" {
		out.Icon = &icon
	}
	endpoint := resolveRef(u, head.oembed)
	if endpoint == "" {
		return out
	}
	raw, err := policy.Get(ctx, endpoint)
	if err != nil {
		return out
	}
	var o struct {
		Type         string `json:"type"`
		Title        string `json:"title"`
		ProviderName string `json:"provider_name"`
		HTML         string `json:"html"`
	}
	if json.Unmarshal(raw, &o) != nil || o.HTML == "" || (o.Type != "rich" && o.Type != "video") {
		return out
	}
	out.Type, out.HTML = "rich", &o.HTML
	if o.Title != "" {
		out.Title = o.Title
	}
	if o.ProviderName != "" {
		out.Site = o.ProviderName
	}
	return out
}

// resolveRef resolves a reference of a page against its URL; only http(s) results count.
func resolveRef(base *url.URL, ref string) string {
	if ref == "" {
		return ""
	}
	r, err := base.Parse(ref)
	if err != nil || (r.Scheme != "https" && r.Scheme != "http") {
		return ""
	}
	return r.String()
}

// pageHead is what an embed reads from a page's head.
type pageHead struct{ title, site, icon, oembed string }

// readHead reads a page's title (og:title first), site name, icon and oEmbed endpoint.
func readHead(body []byte) pageHead {
	var h pageHead
	var title string
	z := html.NewTokenizer(bytes.NewReader(body))
	inTitle := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			if h.title == "" {
				h.title = strings.TrimSpace(title)
			}
			return h
		case html.TextToken:
			if inTitle {
				title += string(z.Text())
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "title" {
				inTitle = false
			} else if string(name) == "head" {
				if h.title == "" {
					h.title = strings.TrimSpace(title)
				}
				return h
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				attrs[string(k)] = string(v)
			}
			switch string(name) {
			case "title":
				inTitle = true
			case "meta":
				switch attrs["property"] {
				case "og:title":
					h.title = strings.TrimSpace(attrs["content"])
				case "og:site_name":
					h.site = strings.TrimSpace(attrs["content"])
				}
			case "link":
				rel := strings.ToLower(attrs["rel"])
				switch {
				case rel == "alternate" && strings.EqualFold(attrs["type"], "application/json+oembed"):
					h.oembed = attrs["href"]
				case (rel == "icon" || rel == "shortcut icon") && h.icon == "":
					h.icon = attrs["href"]
				}
			}
		}
	}
}
