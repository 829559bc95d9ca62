package model

// AskRatingSummary counts the ratings readers gave a site's answers over the last Days days.
type AskRatingSummary struct {
	Days      int `json:"days"`
	Helpful   int `json:"helpful"`
	Unhelpful int `json:"unhelpful"`
}
