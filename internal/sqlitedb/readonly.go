package sqlitedb

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
)

// OpenReadOnly opens the existing database file at path for reading only:
// nothing is created, marked or locked for writing, so a command that only
// reads (seed stats) works on a file or in a directory it may not write,
// and beside a writer that holds the write lock. A WAL file whose -shm
// cannot be made (a read-only directory) is read as immutable: no other
// process can be writing to it there either. The file's kind is checked
// as OpenAs does, without marking it.
func OpenReadOnly(path string, k Kind) (*sql.DB, error) {
	var db *sql.DB
	var err error
	for _, extra := range []string{"", "&immutable=1"} {
		db, err = sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma="+url.QueryEscape("busy_timeout(30000)")+extra)
		if err != nil {
			return nil, err
		}
		if err = checkKind(db, k); err == nil {
			return db, nil
		}
		db.Close()
		if !strings.Contains(err.Error(), "unable to open") {
			break
		}
	}
	return nil, err
}

// checkKind reads the file's application_id and refuses another kind.
func checkKind(db *sql.DB, k Kind) error {
	var id int32
	if err := db.QueryRow(`PRAGMA application_id`).Scan(&id); err != nil {
		return err
	}
	switch id {
	case k.ID:
		return nil
	case 0:
		var marker int
		if err := db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, k.Marker).Scan(&marker); err != nil {
			return err
		}
		if marker == 1 {
			return nil
		}
		return &WrongKindError{Want: k}
	}
	got := Kind{ID: id}
	for _, other := range Kinds {
		if other.ID == id {
			got = other
		}
	}
	return &WrongKindError{Want: k, Got: got}
}

// CantOpenHint adds to an error of SQLite's "unable to open database file"
// what the user can do about it: the file's directory must exist and be
// writable, since SQLite makes its -wal and -shm files beside it.
func CantOpenHint(path string, err error) error {
	if err == nil || !strings.Contains(err.Error(), "unable to open database file") {
		return err
	}
	return fmt.Errorf("%w: check that the directory of %s exists and is writable (SQLite keeps %s-wal and %s-shm beside it)", err, path, path, path)
}

// ReadOnlyFile tells, before a command that writes opens the database at
// path, that the file (or its -wal file) is there but may not be written:
// SQLite would open it all the same and fail at the first write with
// "attempt to write a readonly database". The error names the file and
// the commands that read it without writing. nil when the files are
// writable or absent.
func ReadOnlyFile(path, readers string) error {
	return readOnlyFile(path, readers, func(name string) error {
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err == nil {
			f.Close()
		}
		return err
	})
}

func readOnlyFile(path, readers string, openWrite func(string) error) error {
	for _, name := range []string{path, path + "-wal"} {
		if err := openWrite(name); errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("%s is read-only (%w): this command writes it; make it writable (chmod u+w %s), or read it with %s, which open it read-only", name, err, name, readers)
		}
	}
	return nil
}
