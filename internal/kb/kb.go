package kb

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/sqlitedb"
	"github.com/focuscrawl/focuscrawl/internal/text"
)

// SchemaVersion is written to kb_info; Open refuses other versions.
const SchemaVersion = "1"

const schema = `
CREATE TABLE IF NOT EXISTS kb_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS knowledge (
  id          INTEGER PRIMARY KEY,
  url         TEXT NOT NULL UNIQUE,
  title       TEXT NOT NULL DEFAULT '',
  published   TEXT NOT NULL DEFAULT '',
  source      TEXT NOT NULL DEFAULT '',
  author      TEXT NOT NULL DEFAULT '',
  content     TEXT NOT NULL DEFAULT '',
  score       REAL NOT NULL DEFAULT 0,
  fingerprint TEXT NOT NULL DEFAULT '',
  duplicates  TEXT NOT NULL DEFAULT '[]',
  meta        TEXT,
  first_seen  TEXT NOT NULL,
  updated     TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS knowledge_fts USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2');
`

// batchSize is the number of writes committed together.
const batchSize = 500

// KB is an open knowledge base. Writes are batched in transactions;
// Commit (or Close) makes them visible. A KB is not safe for concurrent
// use; several processes may share one file (SQLite locks it, and a
// writer waits up to 30 s for another).
type KB struct {
	db   *sql.DB
	path string
	tok  *text.Tokenizer
	tx   *sql.Tx
	ops  int
	now  func() time.Time
	// afterCommit runs after each successful commit (OnCommit).
	afterCommit func() error
}

// Open opens or creates the knowledge base at path. tok cuts text for the
// full-text index; it must be the same for every run on one file.
func Open(path string, tok *text.Tokenizer) (*KB, error) {
	if path == "" {
		return nil, errors.New("open knowledge base: no file given")
	}
	db, err := sqlitedb.OpenAs(path, sqlitedb.KnowledgeBase)
	if err != nil {
		return nil, fmt.Errorf("open knowledge base %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	k := &KB{db: db, path: path, tok: tok, now: time.Now}
	if err := k.init(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open knowledge base %s: %w", path, err)
	}
	return k, nil
}

func (k *KB) init() error {
	if _, err := k.db.Exec(schema); err != nil {
		return err
	}
	var v string
	err := k.db.QueryRow(`SELECT value FROM kb_info WHERE key = 'schema'`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		_, err = k.db.Exec(`INSERT INTO kb_info(key, value) VALUES ('schema', ?)`, SchemaVersion)
		return err
	case err != nil:
		return err
	case v != SchemaVersion:
		return fmt.Errorf("schema version %s, this build reads %s", v, SchemaVersion)
	}
	return nil
}

func (k *KB) begin() (*sql.Tx, error) {
	if k.tx != nil {
		return k.tx, nil
	}
	tx, err := k.db.Begin()
	if err != nil {
		return nil, fmt.Errorf("knowledge base %s: %w", k.path, err)
	}
	k.tx = tx
	return tx, nil
}

func (k *KB) done() error {
	k.ops++
	if k.ops >= batchSize {
		return k.Commit()
	}
	return nil
}

// Commit makes the writes so far durable and visible to readers.
func (k *KB) Commit() error {
	if k.tx == nil {
		return nil
	}
	err := k.tx.Commit()
	k.tx, k.ops = nil, 0
	if err != nil {
		return fmt.Errorf("knowledge base %s: commit: %w", k.path, err)
	}
	if k.afterCommit != nil {
		return k.afterCommit()
	}
	return nil
}

// Segmented is the text as the full-text index holds it: tokens joined
// by spaces, traditional characters folded to simplified. A Chinese word
// of three or more characters is followed by its two-character pieces
// (森林抚育 森林 林抚 抚育), as search engines index compounds, so a
// query for 抚育 finds a text where the segmenter kept 森林抚育 whole.
func (k *KB) Segmented(s string) string {
	var b strings.Builder
	for _, t := range k.tok.Tokens(fold(s)) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t)
		if r := []rune(t); len(r) >= 3 && allHan(r) {
			for i := 0; i+2 <= len(r); i++ {
				b.WriteByte(' ')
				b.WriteString(string(r[i : i+2]))
			}
		}
	}
	return b.String()
}

func allHan(r []rune) bool {
	for _, c := range r {
		if !unicode.Is(unicode.Han, c) {
			return false
		}
	}
	return true
}

// Put stores r, replacing the record of the same URL (its duplicates are
// merged, its first_seen kept).
func (k *KB) Put(r *record.Knowledge) error {
	tx, err := k.begin()
	if err != nil {
		return err
	}
	now := k.now().UTC().Format(time.RFC3339)
	var meta any
	if len(r.Meta) > 0 && string(r.Meta) != "null" {
		meta = string(r.Meta)
	}
	var id int64
	var oldDups string
	err = tx.QueryRow(`SELECT id, duplicates FROM knowledge WHERE url = ?`, r.URL).Scan(&id, &oldDups)
	dups := r.Duplicates
	switch {
	case errors.Is(err, sql.ErrNoRows):
		res, err := tx.Exec(`INSERT INTO knowledge(url, title, published, source, author, content, score, fingerprint, duplicates, meta, first_seen, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.URL, r.Title, r.Published, r.Source, r.Author, r.Content, r.Score, r.Fingerprint, jsonList(dups), meta, now, now)
		if err != nil {
			return fmt.Errorf("store %s: %w", r.URL, err)
		}
		if id, err = res.LastInsertId(); err != nil {
			return fmt.Errorf("store %s: %w", r.URL, err)
		}
	case err != nil:
		return fmt.Errorf("store %s: %w", r.URL, err)
	default:
		var old []string
		json.Unmarshal([]byte(oldDups), &old)
		dups = union(old, dups)
		if _, err := tx.Exec(`UPDATE knowledge SET title = ?, published = ?, source = ?, author = ?, content = ?, score = ?, fingerprint = ?, duplicates = ?, meta = ?, updated = ? WHERE id = ?`,
			r.Title, r.Published, r.Source, r.Author, r.Content, r.Score, r.Fingerprint, jsonList(dups), meta, now, id); err != nil {
			return fmt.Errorf("store %s: %w", r.URL, err)
		}
		if _, err := tx.Exec(`DELETE FROM knowledge_fts WHERE rowid = ?`, id); err != nil {
			return fmt.Errorf("store %s: %w", r.URL, err)
		}
	}
	if _, err := tx.Exec(`INSERT INTO knowledge_fts(rowid, title, body) VALUES (?, ?, ?)`,
		id, k.Segmented(r.Title), k.Segmented(r.Content)); err != nil {
		return fmt.Errorf("index %s: %w", r.URL, err)
	}
	return k.done()
}

// AddDuplicate adds dup to the duplicates of the record of keptURL (a
// copy found after that record was stored). It reports false when the
// knowledge base has no record of keptURL.
func (k *KB) AddDuplicate(keptURL, dup string) (bool, error) {
	tx, err := k.begin()
	if err != nil {
		return false, err
	}
	res, err := tx.Exec(`UPDATE knowledge SET duplicates = json_insert(duplicates, '$[#]', ?1), updated = ?3
		WHERE url = ?2 AND NOT EXISTS (SELECT 1 FROM json_each(knowledge.duplicates) WHERE value = ?1)`,
		dup, keptURL, k.now().UTC().Format(time.RFC3339))
	if err != nil {
		return false, fmt.Errorf("add duplicate %s of %s: %w", dup, keptURL, err)
	}
	n, _ := res.RowsAffected()
	if n == 0 {
		var one int
		if err := tx.QueryRow(`SELECT 1 FROM knowledge WHERE url = ?`, keptURL).Scan(&one); errors.Is(err, sql.ErrNoRows) {
			return false, k.done()
		}
	}
	return true, k.done()
}

// Words are the tokenizer's domain dictionary and stop words, kept in the
// knowledge base (kb_info) by the runs that write it, so a search cuts
// queries as the text was cut without being told the topic again.
type Words struct {
	Dictionary []string `json:"dictionary,omitempty"`
	Stopwords  []string `json:"stopwords,omitempty"`
}

// SaveWords adds w to the words kept in the knowledge base.
func (k *KB) SaveWords(w Words) error {
	old, err := k.Words()
	if err != nil {
		return err
	}
	old.Dictionary = union(old.Dictionary, w.Dictionary)
	old.Stopwords = union(old.Stopwords, w.Stopwords)
	b, _ := json.Marshal(old)
	if _, err := k.db.Exec(`INSERT INTO kb_info(key, value) VALUES ('words', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, string(b)); err != nil {
		return fmt.Errorf("knowledge base %s: %w", k.path, err)
	}
	return nil
}

// Words returns the words kept by SaveWords.
func (k *KB) Words() (Words, error) {
	var w Words
	var v string
	err := k.db.QueryRow(`SELECT value FROM kb_info WHERE key = 'words'`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return w, nil
	case err != nil:
		return w, fmt.Errorf("knowledge base %s: %w", k.path, err)
	}
	if err := json.Unmarshal([]byte(v), &w); err != nil {
		return w, fmt.Errorf("knowledge base %s: kb_info words: %w", k.path, err)
	}
	return w, nil
}

// SetTokenizer replaces the tokenizer (built from Words, after Open).
func (k *KB) SetTokenizer(tok *text.Tokenizer) { k.tok = tok }

// Count is the number of records.
func (k *KB) Count() (int, error) {
	var n int
	err := k.db.QueryRow(`SELECT count(*) FROM knowledge`).Scan(&n)
	return n, err
}

// Close commits and closes.
func (k *KB) Close() error {
	err := k.Commit()
	if cerr := k.db.Close(); err == nil && cerr != nil {
		err = cerr
	}
	return err
}

func jsonList(l []string) string {
	if len(l) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(l)
	return string(b)
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
