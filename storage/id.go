package storage

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewID returns an opaque identifier: 20 random base62 characters (~119 bits), the same in every
// dialect and through both API doors.
func NewID() string { return randomString(20) }

// randomString draws n base62 characters from crypto/rand, rejecting bytes that would bias the
// distribution.
func randomString(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n*2)
	for len(out) < n {
		rand.Read(buf) //nolint:errcheck // crypto/rand.Read never fails on supported platforms
		for _, b := range buf {
			if b < 248 { // 248 = 4*62: keep the distribution uniform
				out = append(out, base62[b%62])
				if len(out) == n {
					break
				}
			}
		}
	}
	return string(out)
}

// hashToken is how API tokens are stored: only their SHA-256, never the token itself.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	var text [2 * sha256.Size]byte // on the stack: one allocation, the string
	hex.Encode(text[:], sum[:])
	return string(text[:])
}
