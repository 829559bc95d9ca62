package model

import "time"

// Passkey is one of the viewer's passkeys (WebAuthn credentials), as they named it.
type Passkey struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	Transports []string   `json:"transports"`
}
