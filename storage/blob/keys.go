package blob

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Keys calls fn with the key of every stored blob, in no particular order, stopping at fn's first
// error. Temporary files of uploads in progress are not blobs and are skipped.
func (s *Store) Keys(fn func(key string) error) error {
	return filepath.WalkDir(s.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed while walking
			}
			return err
		}
		if d.Type().IsRegular() && ValidKey(d.Name()) && filepath.Base(filepath.Dir(path)) == d.Name()[:2] {
			return fn(d.Name())
		}
		return nil
	})
}

// Has reports whether a blob with that key is stored.
func (s *Store) Has(key string) bool {
	if !ValidKey(key) {
		return false
	}
	fi, err := os.Stat(s.path(key))
	return err == nil && fi.Mode().IsRegular()
}
