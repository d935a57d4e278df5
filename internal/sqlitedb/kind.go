package sqlitedb

import (
	"database/sql"
	"errors"
	"fmt"
)

// Kind is one of the project's kinds of SQLite file. Each is marked with
// its own PRAGMA application_id, so that a frontier given where a
// knowledge base is wanted (or the other way round) is refused instead of
// receiving the other kind's tables.
type Kind struct {
	// ID is the application_id written in the file's header.
	ID int32
	// Name says what the file is, in messages: "frontier".
	Name string
	// MadeBy is the command line that creates such a file, for messages.
	MadeBy string
	// Marker is a table only this kind has: a file made before files were
	// marked is recognised by it and marked when opened.
	Marker string
}

// The kinds of file. The IDs spell FCFR and FCKB in ASCII.
var (
	Frontier      = Kind{ID: 0x46434652, Name: "frontier", MadeBy: "seed add --db FILE", Marker: "info"}
	KnowledgeBase = Kind{ID: 0x46434b42, Name: "knowledge base", MadeBy: "dedupe --store FILE", Marker: "kb_info"}
)

// Kinds lists every kind, to name the kind of a file given by mistake.
var Kinds = []Kind{Frontier, KnowledgeBase}

// WrongKindError says that a file is not of the kind wanted.
type WrongKindError struct {
	Want Kind
	// Got is the kind the file is; its ID alone is set when the file is
	// not one of Kinds (another program's database).
	Got Kind
}

func (e *WrongKindError) Error() string {
	if e.Got.Name != "" {
		return fmt.Sprintf("it is a focuscrawl %s (made by %s), not a %s", e.Got.Name, e.Got.MadeBy, e.Want.Name)
	}
	if e.Got.ID != 0 {
		return fmt.Sprintf("it is not a focuscrawl %s: another program's SQLite database (application_id %#x)", e.Want.Name, uint32(e.Got.ID))
	}
	return fmt.Sprintf("it is not a focuscrawl %s: an SQLite database with other tables", e.Want.Name)
}

// ErrWrongKind matches every WrongKindError with errors.Is.
var ErrWrongKind = errors.New("wrong kind of database")

// Is makes errors.Is(err, ErrWrongKind) true.
func (e *WrongKindError) Is(target error) bool { return target == ErrWrongKind }

// OpenAs is Open for a file of kind k: a new, empty file is marked as k; a
// file of another kind is refused with a WrongKindError, before anything
// is written to it.
func OpenAs(path string, k Kind, pragmas ...string) (*sql.DB, error) {
	db, err := Open(path, pragmas...)
	if err != nil {
		return nil, err
	}
	if err := Claim(db, k); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Claim checks that db is of kind k, and marks it as k when it is empty or
// an unmarked file of kind k (it has k's marker table).
func Claim(db *sql.DB, k Kind) error {
	tx, err := db.Begin() // IMMEDIATE: two openers of a new file mark it in turn
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var id int32
	if err := tx.QueryRow(`PRAGMA application_id`).Scan(&id); err != nil {
		return err
	}
	switch id {
	case k.ID:
		return nil
	case 0:
	default:
		got := Kind{ID: id}
		for _, other := range Kinds {
			if other.ID == id {
				got = other
			}
		}
		return &WrongKindError{Want: k, Got: got}
	}
	var tables, marker int
	err = tx.QueryRow(`SELECT count(*), count(CASE WHEN name = ? THEN 1 END) FROM sqlite_schema WHERE type = 'table'`, k.Marker).
		Scan(&tables, &marker)
	if err != nil {
		return err
	}
	if tables > 0 && marker == 0 {
		for _, other := range Kinds {
			var n int
			if err := tx.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, other.Marker).Scan(&n); err == nil && n > 0 {
				return &WrongKindError{Want: k, Got: other}
			}
		}
		return &WrongKindError{Want: k}
	}
	// PRAGMA takes no parameters; k.ID is a constant of this package.
	if _, err := tx.Exec(fmt.Sprintf(`PRAGMA application_id = %d`, k.ID)); err != nil {
		return err
	}
	return tx.Commit()
}
