package model

import (
	"encoding/json"
	"time"
)

// TrackSiteEventsInput is the body of trackEventsInSiteById: the contract's SiteInsightsEvent
// list. Fields of event kinds this server does not aggregate are accepted and not kept.
type TrackSiteEventsInput struct {
	Events []SiteInsightsEvent `json:"events"`
}

// SiteInsightsEvent is one event a site's visitor caused.
type SiteInsightsEvent struct {
	Type      string                     `json:"type"`
	Session   *SiteInsightsEventSession  `json:"session"`
	Location  *SiteInsightsEventLocation `json:"location"`
	Timestamp *time.Time                 `json:"timestamp,omitempty"`
	// Query is a search_type_query's query.
	Query *string `json:"query,omitempty"`
	// Feedback is a page_post_feedback's rating.
	Feedback *struct {
		Rating string `json:"rating"`
	} `json:"feedback,omitempty"`
}

// SiteInsightsEventSession is who caused an event: hashed into visitor and session ids, never
// stored as given.
type SiteInsightsEventSession struct {
	VisitorID *string `json:"visitorId,omitempty"`
	SessionID *string `json:"sessionId,omitempty"`
	IP        *string `json:"ip,omitempty"`
	UserAgent *string `json:"userAgent,omitempty"`
	Referrer  *string `json:"referrer,omitempty"`
}

// SiteInsightsEventLocation is where an event happened.
type SiteInsightsEventLocation struct {
	URL            string  `json:"url"`
	DisplayContext *string `json:"displayContext,omitempty"`
	SiteSection    *string `json:"siteSection,omitempty"`
	SiteSpace      *string `json:"siteSpace,omitempty"`
	SiteShareKey   *string `json:"siteShareKey,omitempty"`
	Space          *string `json:"space,omitempty"`
	Revision       *string `json:"revision,omitempty"`
	Page           *string `json:"page,omitempty"`
}

// SiteInsightsColumn is a column of an events aggregation (the contract's
// SiteInsightsQueryEventsColumn).
type SiteInsightsColumn struct {
	Column   string  `json:"column"`
	Interval *string `json:"interval,omitempty"`
	Claim    *string `json:"claim,omitempty"`
}

// SiteInsightsFilter keeps the events whose column is among values (the contract's
// SiteInsightsQueryEventsFilter).
type SiteInsightsFilter struct {
	Column   string            `json:"column"`
	Values   []json.RawMessage `json:"values"`
	Operator *string           `json:"operator,omitempty"`
}

// SiteInsightsAggregation is the body of aggregateSiteEvents (the contract's
// SiteInsightsQueryEventsAggregation).
type SiteInsightsAggregation struct {
	Select  []SiteInsightsColumn `json:"select"`
	Where   []SiteInsightsFilter `json:"where"`
	GroupBy []SiteInsightsColumn `json:"groupBy"`
	Order   *struct {
		By        SiteInsightsColumn `json:"by"`
		Direction string             `json:"direction"`
	} `json:"order,omitempty"`
	// Range is a preset (lastYear, last3Months, last30Days, last7Days, last24Hours) or
	// {"from", "to"}.
	Range json.RawMessage `json:"range"`
	Limit *int            `json:"limit,omitempty"`
}

// SiteInsightsValues is one column of an aggregation's answer: its values, row by row.
type SiteInsightsValues struct {
	Column string `json:"column"`
	Values []any  `json:"values"`
}

// SiteInsightsAggregationResult is the answer of aggregateSiteEvents.
type SiteInsightsAggregationResult struct {
	Columns []SiteInsightsValues `json:"columns"`
}
