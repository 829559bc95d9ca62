package model

// Embed is how a URL embeds in content: a link (title, site, icon), or rich HTML its site offers
// through oEmbed.
type Embed struct {
	Type  string  `json:"type"` // link or rich
	Title string  `json:"title"`
	Site  string  `json:"site"`
	Icon  *string `json:"icon,omitempty"`
	HTML  *string `json:"html,omitempty"`
}
