package domain

import (
	"fmt"
	"time"

	"github.com/bindery/bindery/domain/loader"
	"github.com/golang-jwt/jwt/v5"
)

// Visitor tokens: a visitor-auth site's readers bring an HS256 JWT signed with the site's key
// (from the site's own sign-in, outside Bindery). The token must name its expiry; its claims are
// the visitor's claims that adaptive content conditions read as visitor.claims.

// verifyVisitorToken checks a token's signature (HS256 only: alg none and every other algorithm
// are refused), expiry (required) and not-before, and returns its claims.
func verifyVisitorToken(key []byte, token string, now time.Time) (map[string]any, error) {
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(func() time.Time { return now }),
		jwt.WithLeeway(30*time.Second),
	)
	if err != nil {
		return nil, fmt.Errorf("visitor token: %w", err)
	}
	return claims, nil
}

// newSigningKey makes a site's visitor token key: 32 random bytes, base64url (as written it is
// the HMAC key: sign tokens with the string itself).
func newSigningKey() string { return loader.NewSigningKey() }
