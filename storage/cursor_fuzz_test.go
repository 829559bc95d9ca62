package storage

import "testing"

// FuzzDecodeCursor checks that any page token decodes without panicking: to the value and id it
// was made from, or to ErrInvalidCursor.
func FuzzDecodeCursor(f *testing.F) {
	f.Add("spaces", encodeCursor("spaces", "2026-01-02T03:04:05Z", "abc"))
	f.Add("spaces", encodeCursor("members", "x", "y"))
	f.Add("pages", "not base64!")
	f.Add("pages", "WyJ4Il0")
	f.Fuzz(func(t *testing.T, list, cursor string) {
		value, id, err := decodeCursor(list, cursor)
		if err != nil {
			if err != ErrInvalidCursor {
				t.Errorf("error %v", err)
			}
			return
		}
		if again, _, _ := decodeCursor(list, encodeCursor(list, value, id)); again != value {
			t.Errorf("round trip: %q, %q", again, value)
		}
	})
}
