package domain

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Site insights (docs/sites.md, "Insights"): what visitors do on a site, kept without who they
// are. An event's visitor and session are hashes of the site, the day's salt and the visitor's
// id (or their address and user agent): the salt changes every day and the previous ones are
// forgotten, so no address or user agent is stored and no visitor can be followed from one day
// to the next.

// Limits of tracked events.
const (
	maxTrackedEvents   = 100
	maxEventSkew       = 5 * time.Minute
	maxEventURL        = 2048
	maxEventID         = 128
	maxEventQuery      = 512
	maxAggregateLimit  = 1000
	maxAggregateFilter = 100
)

// pruneSiteEventsArgs is the periodic job that deletes sites' visitor events older than the
// operator's retention.
type pruneSiteEventsArgs struct{}

func (pruneSiteEventsArgs) Kind() string { return "prune_site_events" }

func init() {
	addJobKinds(func(r *App, reg *jobs.Registry) {
		jobs.Add(reg, func(ctx context.Context, _ *jobs.Job[pruneSiteEventsArgs]) error {
			_, err := r.PruneSiteEvents(ctx)
			return err
		})
		jobs.Every(reg, PruneEventsInterval, pruneSiteEventsArgs{})
	})
}

// PruneSiteEvents deletes sites' visitor events older than the operator's retention (none when
// it is 0) and returns how many.
func (r *App) PruneSiteEvents(ctx context.Context) (int64, error) {
	if r.Settings.InsightsRetention <= 0 {
		return 0, nil
	}
	return r.Store.DeleteSiteEventsBefore(ctx, r.Now().Add(-r.Settings.InsightsRetention))
}

// siteEventTypes are the contract's SiteInsightsEventType values.
var siteEventTypes = []string{"page_view", "search_open", "search_type_query", "search_open_result", "page_post_feedback",
	"page_post_feedback_comment", "ask_question", "ask_view", "ask_rate_response", "link_click", "api_client_open",
	"api_client_request", "ad_click", "ad_display", "trademark_click"}

// SiteVisitorClient is the request's own client, standing for the visitor an event names no
// address or user agent for: hashed, never kept.
type SiteVisitorClient struct{ IP, UserAgent string }

// TrackSiteEvents records a site's visitors' events (the contract's trackEventsInSiteById).
// Errors: Invalid (naming the event's field), NotFound, Forbidden.
func (r *App) TrackSiteEvents(ctx context.Context, orgID, siteID string, in model.TrackSiteEventsInput, client SiteVisitorClient) error {
	if in.Events == nil {
		return apperr.Invalidf("events", "is required")
	}
	if len(in.Events) > maxTrackedEvents {
		return apperr.Invalidf("events", "at most %d events at once", maxTrackedEvents)
	}
	site, err := r.SiteByID(ctx, orgID, siteID)
	if err != nil {
		return err
	}
	if !authz.LimitFrom(ctx).Unlimited() {
		return apperr.Forbiddenf("a scoped token cannot record events")
	}
	return r.recordSiteEvents(ctx, site.OrganizationID, site.ID, in.Events, client)
}

// recordSiteEvents validates and stores events of a site already authorized.
func (r *App) recordSiteEvents(ctx context.Context, orgID, siteID string, events []model.SiteInsightsEvent, client SiteVisitorClient) error {
	now := r.Now().UTC()
	rows := make([]*storage.SiteEvent, 0, len(events))
	for i, ev := range events {
		row, err := siteEventRow(fmt.Sprintf("events[%d]", i), ev, now)
		if err != nil {
			return err
		}
		row.OrganizationID, row.SiteID = orgID, siteID
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil
	}
	// A site whose managers turned insights off keeps none: the events were checked, and are
	// dropped.
	settings, err := loader.For(ctx, r.Store).SiteReaderSettings.Find(ctx, siteID)
	if err != nil {
		return err
	}
	if settings.InsightsOff {
		return nil
	}
	day := now.Unix() / 86400
	salt, err := r.Store.SiteEventSalt(ctx, day, newSalt())
	if err != nil {
		return err
	}
	for i, ev := range events {
		visitor, session := visitorKeys(ev.Session, client)
		rows[i].VisitorHash = saltedHash(salt, siteID, "v", visitor)
		rows[i].SessionHash = saltedHash(salt, siteID, "s", session)
	}
	return r.Store.AddSiteEvents(ctx, rows)
}

func newSalt() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func saltedHash(salt, siteID, kind, key string) string {
	sum := sha256.Sum256([]byte(salt + "\x00" + siteID + "\x00" + kind + "\x00" + key))
	return hex.EncodeToString(sum[:16])
}

// visitorKeys are what identify an event's visitor and session before hashing: the ids the
// session gives, else its (or the request's) address and user agent.
func visitorKeys(s *model.SiteInsightsEventSession, client SiteVisitorClient) (visitor, session string) {
	ip, ua := client.IP, client.UserAgent
	if s != nil {
		if s.IP != nil && *s.IP != "" {
			ip = *s.IP
		}
		if s.UserAgent != nil && *s.UserAgent != "" {
			ua = *s.UserAgent
		}
	}
	visitor = "addr:" + ip + "\x00" + ua
	if s != nil && s.VisitorID != nil && *s.VisitorID != "" {
		visitor = "id:" + *s.VisitorID
	}
	session = visitor
	if s != nil && s.SessionID != nil && *s.SessionID != "" {
		session = "id:" + *s.SessionID
	}
	return visitor, session
}

// siteEventRow checks one event and turns it into a row (without its site and hashes).
func siteEventRow(field string, ev model.SiteInsightsEvent, now time.Time) (*storage.SiteEvent, error) {
	if !slices.Contains(siteEventTypes, ev.Type) {
		return nil, apperr.Invalidf(field+".type", "must be one of %s", strings.Join(siteEventTypes, ", "))
	}
	if ev.Session == nil {
		return nil, apperr.Invalidf(field+".session", "is required")
	}
	loc := ev.Location
	if loc == nil {
		return nil, apperr.Invalidf(field+".location", "is required")
	}
	if u, err := url.Parse(loc.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(loc.URL) > maxEventURL {
		return nil, apperr.Invalidf(field+".location.url", "must be an absolute http or https URL of at most %d bytes", maxEventURL)
	}
	at := now
	if ev.Timestamp != nil {
		if d := ev.Timestamp.Sub(now); d > maxEventSkew || d < -maxEventSkew {
			return nil, apperr.Invalidf(field+".timestamp", "must be within 5 minutes of the current time")
		}
		at = ev.Timestamp.UTC()
	}
	display := "site"
	if loc.DisplayContext != nil {
		if *loc.DisplayContext != "site" && *loc.DisplayContext != "embed" {
			return nil, apperr.Invalidf(field+".location.displayContext", "must be site or embed")
		}
		display = *loc.DisplayContext
	}
	for name, v := range map[string]*string{"siteSection": loc.SiteSection, "siteSpace": loc.SiteSpace, "siteShareKey": loc.SiteShareKey,
		"space": loc.Space, "revision": loc.Revision, "page": loc.Page} {
		if v != nil && len(*v) > maxEventID {
			return nil, apperr.Invalidf(field+".location."+name, "must be at most %d characters", maxEventID)
		}
	}
	row := &storage.SiteEvent{EventType: ev.Type, OccurredAt: at, OccurredUnix: at.Unix(), OccurredMonth: at.Year()*12 + int(at.Month()) - 1,
		URL: loc.URL, DisplayContext: display, SiteSection: presentID(loc.SiteSection), SiteSpace: presentID(loc.SiteSpace),
		SiteShareKey: presentID(loc.SiteShareKey), Space: presentID(loc.Space), Page: presentID(loc.Page)}
	if ref := ev.Session.Referrer; ref != nil && *ref != "" {
		if u, err := url.Parse(*ref); err == nil && u.Host != "" {
			host := strings.ToLower(u.Hostname())
			row.ReferrerDomain = &host
		}
	}
	switch ev.Type {
	case "search_type_query":
		if ev.Query == nil {
			return nil, apperr.Invalidf(field+".query", "is required")
		}
		q := strings.TrimSpace(*ev.Query)
		if len(q) > maxEventQuery {
			return nil, apperr.Invalidf(field+".query", "must be at most %d bytes", maxEventQuery)
		}
		row.SearchQuery = &q
	case "page_post_feedback":
		if ev.Feedback == nil || (ev.Feedback.Rating != "bad" && ev.Feedback.Rating != "ok" && ev.Feedback.Rating != "good") {
			return nil, apperr.Invalidf(field+".feedback.rating", "must be bad, ok or good")
		}
		rating := ev.Feedback.Rating
		row.FeedbackRating = &rating
	}
	return row, nil
}

func presentID(s *string) *string {
	if s == nil || *s == "" {
		return nil
	}
	return s
}

// insightRanges are the contract's preset ranges.
var insightRanges = map[string]time.Duration{
	"lastYear": 365 * 24 * time.Hour, "last3Months": 91 * 24 * time.Hour, "last30Days": 30 * 24 * time.Hour,
	"last7Days": 7 * 24 * time.Hour, "last24Hours": 24 * time.Hour,
}

// AggregateSiteEvents answers an aggregation of a site's events (the contract's
// aggregateSiteEvents): measures (eventsCount, sessionsCount, visitorsCount, pageFeedbackRating)
// grouped by dimensions (datetime by hour, day, week or month; url, eventType, siteSection,
// siteSpace, siteShareKey, displayContext, page, eventSearchQuery, eventPageFeedbackRating,
// referrerDomain), filtered, ordered, over a range. One statement. Columns this server does not
// record (geography, devices, browsers, claims, campaign parameters…) are refused, never
// answered with made-up values. Errors: Invalid, NotFound, Forbidden.
func (r *App) AggregateSiteEvents(ctx context.Context, orgID, siteID string, in model.SiteInsightsAggregation) (*model.SiteInsightsAggregationResult, error) {
	site, err := r.SiteByID(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return r.aggregateEvents(ctx, site, in)
}

// SiteInsights is AggregateSiteEvents for a site already read, with the query and the answer as
// JSON (GraphQL's Site.insights). Errors: as AggregateSiteEvents.
func (r *App) SiteInsights(ctx context.Context, site *model.Site, query model.JSON) (model.JSON, error) {
	var in model.SiteInsightsAggregation
	if err := json.Unmarshal(query, &in); err != nil {
		return nil, apperr.Invalidf("query", "must be the contract's SiteInsightsQueryEventsAggregation: %v", err)
	}
	if _, err := r.siteReader(ctx, site.OrganizationID); err != nil {
		return nil, err
	}
	out, err := r.aggregateEvents(ctx, site, in)
	if err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

// TrackSiteEventsJSON is TrackSiteEvents with the events as JSON (GraphQL's trackSiteEvents).
func (r *App) TrackSiteEventsJSON(ctx context.Context, orgID, siteID string, events model.JSON) (bool, error) {
	var list []model.SiteInsightsEvent
	if err := json.Unmarshal(events, &list); err != nil {
		return false, apperr.Invalidf("events", "must be a list of the contract's SiteInsightsEvent: %v", err)
	}
	if list == nil {
		list = []model.SiteInsightsEvent{}
	}
	err := r.TrackSiteEvents(ctx, orgID, siteID, model.TrackSiteEventsInput{Events: list}, SiteVisitorClient{})
	return err == nil, err
}

func (r *App) aggregateEvents(ctx context.Context, site *model.Site, in model.SiteInsightsAggregation) (*model.SiteInsightsAggregationResult, error) {
	q := storage.SiteEventQuery{SiteID: site.ID, Limit: maxAggregateLimit}
	now := r.Now().UTC()
	var preset string
	var custom struct{ From, To *time.Time }
	switch {
	case len(in.Range) == 0:
		return nil, apperr.Invalidf("range", "is required")
	case json.Unmarshal(in.Range, &preset) == nil:
		d, ok := insightRanges[preset]
		if !ok {
			return nil, apperr.Invalidf("range", "must be lastYear, last3Months, last30Days, last7Days, last24Hours or {from, to}")
		}
		q.From, q.To = now.Add(-d), now.Add(time.Second)
	case json.Unmarshal(in.Range, &custom) == nil && custom.From != nil && custom.To != nil:
		if !custom.To.After(*custom.From) {
			return nil, apperr.Invalidf("range.to", "must be after range.from")
		}
		q.From, q.To = *custom.From, *custom.To
	default:
		return nil, apperr.Invalidf("range", "must be lastYear, last3Months, last30Days, last7Days, last24Hours or {from, to}")
	}
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > maxAggregateLimit {
			return nil, apperr.Invalidf("limit", "must be between 1 and %d", maxAggregateLimit)
		}
		q.Limit = *in.Limit
	}
	column := func(field string, c model.SiteInsightsColumn) (storage.SiteEventColumn, error) {
		out := storage.SiteEventColumn{Name: c.Column}
		if !storage.IsSiteEventDimension(c.Column) && !storage.IsSiteEventMeasure(c.Column) {
			return out, apperr.Invalidf(field, "column %q is not recorded by this server", c.Column)
		}
		if c.Column == "datetime" {
			out.Interval = "day"
			if c.Interval != nil {
				if !slices.Contains([]string{"hour", "day", "week", "month"}, *c.Interval) {
					return out, apperr.Invalidf(field+".interval", "must be hour, day, week or month")
				}
				out.Interval = *c.Interval
			}
		}
		return out, nil
	}
	for i, c := range in.GroupBy {
		col, err := column(fmt.Sprintf("groupBy[%d]", i), c)
		if err != nil {
			return nil, err
		}
		if storage.IsSiteEventMeasure(c.Column) {
			return nil, apperr.Invalidf(fmt.Sprintf("groupBy[%d]", i), "%s is a measure: events are grouped by dimensions", c.Column)
		}
		q.GroupBy = append(q.GroupBy, col)
	}
	if len(in.Select) == 0 {
		return nil, apperr.Invalidf("select", "name at least one column")
	}
	for i, c := range in.Select {
		col, err := column(fmt.Sprintf("select[%d]", i), c)
		if err != nil {
			return nil, err
		}
		if storage.IsSiteEventDimension(c.Column) && !slices.Contains(q.GroupBy, col) {
			return nil, apperr.Invalidf(fmt.Sprintf("select[%d]", i), "%s must be in groupBy to be selected", c.Column)
		}
		q.Select = append(q.Select, col)
	}
	if len(in.Where) > maxAggregateFilter {
		return nil, apperr.Invalidf("where", "at most %d filters", maxAggregateFilter)
	}
	for i, f := range in.Where {
		field := fmt.Sprintf("where[%d]", i)
		if !storage.IsSiteEventDimension(f.Column) {
			return nil, apperr.Invalidf(field+".column", "events are filtered by a recorded dimension, not %q", f.Column)
		}
		if len(f.Values) == 0 || len(f.Values) > maxAggregateFilter {
			return nil, apperr.Invalidf(field+".values", "must hold 1 to %d values", maxAggregateFilter)
		}
		op := "in"
		if f.Operator != nil {
			op = *f.Operator
		}
		filter := storage.SiteEventFilter{Column: f.Column, Op: op}
		if f.Column == "datetime" {
			if op == "in" || op == "notIn" || len(f.Values) != 1 {
				return nil, apperr.Invalidf(field+".operator", "datetime is compared with one value: greaterThan, greaterThanOrEqual, lessThan or lessThanOrEqual")
			}
			var t time.Time
			if err := json.Unmarshal(f.Values[0], &t); err != nil {
				return nil, apperr.Invalidf(field+".values", "must be a timestamp")
			}
			filter.Values = []any{t.Unix()}
		} else {
			if op != "in" && op != "notIn" {
				return nil, apperr.Invalidf(field+".operator", "%s is filtered with in or notIn", f.Column)
			}
			for _, raw := range f.Values {
				var s string
				var page struct{ Page *string }
				switch {
				case json.Unmarshal(raw, &s) == nil:
				case f.Column == "page" && json.Unmarshal(raw, &page) == nil && page.Page != nil:
					s = *page.Page
				default:
					return nil, apperr.Invalidf(field+".values", "must be strings")
				}
				filter.Values = append(filter.Values, s)
			}
		}
		q.Where = append(q.Where, filter)
	}
	if in.Order != nil {
		col, err := column("order.by", in.Order.By)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(q.Select, col) || col.Name == "pageFeedbackRating" {
			return nil, apperr.Invalidf("order.by", "must be a selected column (not pageFeedbackRating)")
		}
		if in.Order.Direction != "asc" && in.Order.Direction != "desc" {
			return nil, apperr.Invalidf("order.direction", "must be asc or desc")
		}
		q.OrderBy, q.Desc = &col, in.Order.Direction == "desc"
	}
	rows, err := r.Store.AggregateSiteEvents(ctx, q)
	if err != nil {
		return nil, err
	}
	out := &model.SiteInsightsAggregationResult{Columns: make([]model.SiteInsightsValues, len(q.Select))}
	for i, c := range q.Select {
		out.Columns[i] = model.SiteInsightsValues{Column: c.Name, Values: make([]any, 0, len(rows))}
	}
	for _, row := range rows {
		k := 0
		for i, c := range q.Select {
			switch c.Name {
			case "pageFeedbackRating":
				out.Columns[i].Values = append(out.Columns[i].Values, map[string]int64{"ok": toInt(row[k]), "good": toInt(row[k+1]), "bad": toInt(row[k+2])})
				k += 3
				continue
			case "datetime":
				n := toInt(row[k])
				t := time.Unix(n, 0).UTC()
				if c.Interval == "month" {
					t = time.Date(int(n/12), time.Month(n%12+1), 1, 0, 0, 0, 0, time.UTC)
				}
				out.Columns[i].Values = append(out.Columns[i].Values, t.Format(time.RFC3339))
			case "eventsCount", "sessionsCount", "visitorsCount":
				out.Columns[i].Values = append(out.Columns[i].Values, toInt(row[k]))
			case "page":
				if p := toStr(row[k]); p != nil {
					out.Columns[i].Values = append(out.Columns[i].Values, map[string]any{"page": *p, "space": toStr(row[k+1])})
				} else {
					out.Columns[i].Values = append(out.Columns[i].Values, nil)
				}
				k += 2
				continue
			default:
				out.Columns[i].Values = append(out.Columns[i].Values, toStr(row[k]))
			}
			k++
		}
	}
	return out, nil
}

func toInt(v any) int64 {
	switch v := v.(type) {
	case int64:
		return v
	case int32:
		return int64(v)
	case int:
		return int64(v)
	case float64:
		return int64(v)
	case []byte:
		var n int64
		_, _ = fmt.Sscan(string(v), &n)
		return n
	case string:
		var n int64
		_, _ = fmt.Sscan(v, &n)
		return n
	}
	return 0
}

func toStr(v any) *string {
	switch v := v.(type) {
	case string:
		return &v
	case []byte:
		s := string(v)
		return &s
	}
	return nil
}

// RecordPageFeedback records a visitor's rating of a page of the site published under name
// (the reader's "Was this page helpful?"): a page_post_feedback event, counted by the site's
// insights like the contract's. The site must have turned feedback on (its customization's
// feedback.enabled, the site space's overrides included) and the visitor must see the page.
// With private (a visitor asking not to be tracked: Do Not Track, Global Privacy Control) the
// rating counts without linking it to any other of theirs. Errors: Invalid (a rating that is not
// good, ok or bad), NotFound (no such page for this visitor, or feedback off), Unauthenticated.
func (r *App) RecordPageFeedback(ctx context.Context, name string, visitor *model.SiteVisitorInput, pageURL, rating string, client SiteVisitorClient, private bool) error {
	if rating != "good" && rating != "ok" && rating != "bad" {
		return apperr.Invalidf("rating", "must be good, ok or bad")
	}
	ps, err := r.OpenPublishedSite(ctx, name, visitor)
	if err != nil || !ps.Insights {
		return err
	}
	sp, page, _, err := r.visitedPage(ctx, ps, pageURL)
	if err != nil {
		return err
	}
	if page.Type != model.PageTypeDocument {
		return apperr.NotFoundf("page not found")
	}
	style, err := r.PublishedSiteSpaceCustomization(ctx, sp)
	if err != nil {
		return err
	}
	var settings struct {
		Feedback struct{ Enabled bool } `json:"feedback"`
	}
	if json.Unmarshal(style, &settings) != nil || !settings.Feedback.Enabled {
		return apperr.NotFoundf("page not found")
	}
	session := &model.SiteInsightsEventSession{}
	if private {
		anon := newSalt()
		session.VisitorID = &anon
	}
	space, pageID := sp.src.View.SpaceID, page.ID
	ev := model.SiteInsightsEvent{Type: "page_post_feedback", Session: session,
		Location: &model.SiteInsightsEventLocation{URL: pageURL, SiteSection: sp.Section, SiteSpace: &sp.ID, Space: &space, Page: &pageID}}
	ev.Feedback = &struct {
		Rating string `json:"rating"`
	}{Rating: rating}
	return r.recordSiteEvents(ctx, ps.orgID, ps.ID, []model.SiteInsightsEvent{ev}, client)
}

// visitedPage finds the page a published URL of the site shows its visitor, with its site space
// and its site-relative path (without query or fragment). Errors: NotFound (a URL elsewhere, or
// one that shows nothing).
func (r *App) visitedPage(ctx context.Context, ps *PublishedSite, pageURL string) (*PublishedSiteSpace, *model.RevisionPage, string, error) {
	nothing := apperr.NotFoundf("page not found")
	path, ok := strings.CutPrefix(pageURL, ps.URL)
	if !ok || len(pageURL) > maxEventURL {
		return nil, nil, "", nothing
	}
	path, _, _ = strings.Cut(path, "#")
	path, _, _ = strings.Cut(path, "?")
	loc := r.PublishedAt(ps, path)
	if loc == nil {
		return nil, nil, "", nothing
	}
	t, err := r.treeOf(ctx, loc.SiteSpace)
	if err != nil {
		return nil, nil, "", err
	}
	page := t.pageAt(loc.PagePath)
	if page == nil {
		return nil, nil, "", nothing
	}
	return loc.SiteSpace, page, path, nil
}

// RecordPageView records a visitor's view of a page of the site published under name (the
// reader's beacon, sent by its script once a page is shown): a page_view event counted by the
// site's insights. Only what the visitor sees counts: a page path that shows nothing is refused.
// A site whose customization turns insights.trackingCookie off counts its visitors without
// linking their views. Errors: NotFound, Unauthenticated.
func (r *App) RecordPageView(ctx context.Context, name string, visitor *model.SiteVisitorInput, pageURL, referrer string, client SiteVisitorClient) error {
	ps, err := r.OpenPublishedSite(ctx, name, visitor)
	if err != nil {
		return err
	}
	sp, page, path, err := r.visitedPage(ctx, ps, pageURL)
	if err != nil {
		return err
	}
	style, err := r.PublishedSiteSpaceCustomization(ctx, sp)
	if err != nil {
		return err
	}
	settings := struct {
		Insights struct {
			TrackingCookie *bool `json:"trackingCookie"`
		} `json:"insights"`
	}{}
	_ = json.Unmarshal(style, &settings)
	session := &model.SiteInsightsEventSession{}
	if settings.Insights.TrackingCookie != nil && !*settings.Insights.TrackingCookie {
		anon := newSalt()
		session.VisitorID = &anon
	}
	if referrer != "" && !strings.HasPrefix(referrer, ps.URL) {
		session.Referrer = &referrer
	}
	space, pageID := sp.src.View.SpaceID, page.ID
	ev := model.SiteInsightsEvent{Type: "page_view", Session: session,
		Location: &model.SiteInsightsEventLocation{URL: ps.URL + path, SiteSection: sp.Section, SiteSpace: &sp.ID, Space: &space, Page: &pageID}}
	return r.recordSiteEvents(ctx, ps.orgID, ps.ID, []model.SiteInsightsEvent{ev}, client)
}
