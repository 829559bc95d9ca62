package model

import "time"

// ChangeRequestContributor is a person who changed a change request (actionType edit: its author
// and whoever edited its content) or only commented on it (comment), how many times and when last.
type ChangeRequestContributor struct {
	User       *User     `json:"user"`
	Count      int       `json:"count"`
	UpdatedAt  time.Time `json:"updatedAt"`
	ActionType string    `json:"actionType"`
}
