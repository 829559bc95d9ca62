package account

import (
	"bufio"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/apperr"
	"golang.org/x/crypto/argon2"
)

// Password policy: length is what makes a password strong (NIST SP 800-63B), so the rule is a
// minimum length and a refusal of passwords everyone tries first; no composition rules.
const (
	MinPasswordLength = 12  // characters
	MaxPasswordLength = 256 // characters: bounds the hashing work one request can ask for
)

// argon2id parameters: OWASP's recommended minimum (19 MiB, two passes, one lane). They are
// encoded in every hash, so raising them later still verifies the old hashes.
const (
	argonMemory  = 19 * 1024
	argonTime    = 2
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

//go:embed common-passwords.txt
var commonPasswordList string

var commonPasswords = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(commonPasswordList))
	for sc.Scan() {
		if w := strings.TrimSpace(sc.Text()); w != "" && !strings.HasPrefix(w, "#") {
			set[strings.ToLower(w)] = true
		}
	}
	return set
})

// CheckPassword applies the password policy to a new password for the account with that e-mail.
// Errors: Invalid.
func CheckPassword(password, email string) error {
	n := utf8.RuneCountInString(password)
	switch {
	case !utf8.ValidString(password):
		return apperr.Invalidf("password", "must be valid UTF-8")
	case n < MinPasswordLength:
		return apperr.Invalidf("password", "must be at least %d characters long", MinPasswordLength)
	case n > MaxPasswordLength:
		return apperr.Invalidf("password", "must be at most %d characters long", MaxPasswordLength)
	}
	folded := strings.ToLower(password)
	if commonPasswords()[folded] || oneCharacter(folded) {
		return apperr.Invalidf("password", "is too common: choose another")
	}
	if email != "" {
		local, _, _ := strings.Cut(strings.ToLower(email), "@")
		if folded == strings.ToLower(email) || (len(local) >= 4 && strings.Contains(folded, local) && len(folded)-len(local) < 6) {
			return apperr.Invalidf("password", "is too close to the e-mail address")
		}
	}
	return nil
}

// oneCharacter reports a password made of one character repeated.
func oneCharacter(s string) bool {
	first, _ := utf8.DecodeRuneInString(s)
	return strings.Trim(s, string(first)) == ""
}

// HashPassword returns the argon2id hash of password in the PHC string format, with a fresh salt.
func HashPassword(password string) string {
	salt := make([]byte, argonSaltLen)
	rand.Read(salt) //nolint:errcheck // crypto/rand.Read never fails on supported platforms
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

var errBadHash = errors.New("malformed password hash")

// VerifyPassword reports whether password matches an encoded hash, in time that does not depend
// on where they differ.
func VerifyPassword(password, encoded string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	var memory, time uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &time, &threads); err != nil || memory > 1<<20 || time > 20 || threads == 0 {
		return false, errBadHash
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, errBadHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 || len(want) > 64 {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(password), salt, time, memory, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
