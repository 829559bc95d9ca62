package model

// SiteRedirectBulkInput is bulkUpsertSiteRedirects' body (@gitbook/api 0.202.0).
type SiteRedirectBulkInput struct {
	Redirects []*SiteRedirectBulkItem `json:"redirects"`
}

// SiteRedirectBulkItem is one operation of a bulk upsert: a redirect from source to
// destination (null: delete the redirect from source), or, with intent publish, a draft
// published.
type SiteRedirectBulkItem struct {
	Source          string  `json:"source"`
	Intent          *string `json:"intent"`
	CaptureWildcard *bool   `json:"captureWildcard"`
	Permanent       *bool   `json:"permanent"`
	// The contract's SiteRedirectInputDestination, or null; absent is an error.
	Destination JSON `json:"destination"`
}

// SiteRedirectBulkResult is one item's outcome: status created, updated, deleted or error.
type SiteRedirectBulkResult struct {
	Status string  `json:"status"`
	Source string  `json:"source"`
	Draft  bool    `json:"draft"`
	ID     *string `json:"id,omitempty"`
	Error  *string `json:"error,omitempty"`
}

// SiteRedirectBulkResults is the answer of a bulk upsert, in the order of its items.
type SiteRedirectBulkResults struct {
	Results []*SiteRedirectBulkResult `json:"results"`
}
