package model

// CustomHostname is a site's own host name.
type CustomHostname struct {
	Object   string             `json:"object"`
	Hostname string             `json:"hostname"`
	Target   CustomHostnameSite `json:"target"`
	IsActive bool               `json:"isActive"`
	// Status is the last DNS check's: dns_passed, dns_no_cname or dns_wrong_cname.
	Status string             `json:"status"`
	URLs   CustomHostnameURLs `json:"urls"`
}

// CustomHostnameSite is the site a host name serves.
type CustomHostnameSite struct {
	Type string `json:"type"`
	Site string `json:"site"`
}

// CustomHostnameURLs are a host name's addresses.
type CustomHostnameURLs struct {
	Location string `json:"location"`
}
