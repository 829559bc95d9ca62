package storage

import (
	"fmt"
	"time"
)

// Scanners for rows read by hand (prepared.go, site_tree.go): each takes the driver's value as
// it comes, with no reflection and no lookup by column name. PostgreSQL (pgx) gives strings,
// int64, bool and time.Time; SQLite gives strings or bytes, int64 for integers and booleans, and
// text for the timestamps cast to it (see timeColumns). NULL scans as the zero value: a UNION's
// branches fill the columns they lack with NULL.

// textScan scans text.
type textScan struct{ s *string }

func (d textScan) Scan(src any) error {
	switch v := src.(type) {
	case string:
		*d.s = v
	case []byte:
		*d.s = string(v)
	case nil:
		*d.s = ""
	default:
		return fmt.Errorf("scan text from %T", src)
	}
	return nil
}

// optTextScan scans nullable text: nil for NULL.
type optTextScan struct{ s **string }

func (d optTextScan) Scan(src any) error {
	if src == nil {
		*d.s = nil
		return nil
	}
	v := new(string)
	*d.s = v
	return textScan{v}.Scan(src)
}

// boolScan scans a boolean: PostgreSQL's, or SQLite's integer.
type boolScan struct{ b *bool }

func (d boolScan) Scan(src any) error {
	switch v := src.(type) {
	case bool:
		*d.b = v
	case int64:
		*d.b = v != 0
	case nil:
		*d.b = false
	default:
		return fmt.Errorf("scan a boolean from %T", src)
	}
	return nil
}

// int64Scan scans an integer.
type int64Scan struct{ n *int64 }

func (d int64Scan) Scan(src any) error {
	switch v := src.(type) {
	case int64:
		*d.n = v
	case nil:
		*d.n = 0
	default:
		return fmt.Errorf("scan an integer from %T", src)
	}
	return nil
}

// intScan scans an integer into an int.
type intScan struct{ n *int }

func (d intScan) Scan(src any) error {
	var n int64
	err := int64Scan{&n}.Scan(src)
	*d.n = int(n)
	return err
}

// timeScan scans a timestamp: a time.Time from PostgreSQL, text from SQLite (see timeColumns).
type timeScan struct{ t *time.Time }

func (d timeScan) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		*d.t = v
		return nil
	case string:
		t, err := parseSQLiteTime(v)
		*d.t = t
		return err
	case []byte:
		t, err := parseSQLiteTime(string(v))
		*d.t = t
		return err
	case nil:
		*d.t = time.Time{}
		return nil
	}
	return fmt.Errorf("scan a timestamp from %T", src)
}

// nullTimeScan is timeScan for a nullable timestamp.
type nullTimeScan struct{ t **time.Time }

func (d nullTimeScan) Scan(src any) error {
	if src == nil {
		*d.t = nil
		return nil
	}
	t := new(time.Time)
	if err := (timeScan{t}).Scan(src); err != nil {
		return err
	}
	*d.t = t
	return nil
}
