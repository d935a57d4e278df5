package kb

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Stored is a record as the knowledge base keeps it: the knowledge record
// and when its URL was first stored and last updated.
type Stored struct {
	record.Knowledge
	FirstSeen time.Time
	Updated   time.Time
}

// Each calls fn with every stored record, in the order they were first
// stored, until fn returns an error, which Each returns.
func (k *KB) Each(fn func(*Stored) error) error {
	if err := k.Commit(); err != nil {
		return err
	}
	rows, err := k.db.Query(`SELECT url, title, published, source, author, content, score, fingerprint, duplicates,
		coalesce(meta, ''), first_seen, updated FROM knowledge ORDER BY id`)
	if err != nil {
		return fmt.Errorf("knowledge base %s: %w", k.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var s Stored
		var dups, meta, first, updated string
		if err := rows.Scan(&s.URL, &s.Title, &s.Published, &s.Source, &s.Author, &s.Content, &s.Score, &s.Fingerprint,
			&dups, &meta, &first, &updated); err != nil {
			return fmt.Errorf("knowledge base %s: %w", k.path, err)
		}
		if err := json.Unmarshal([]byte(dups), &s.Duplicates); err != nil {
			return fmt.Errorf("knowledge base %s: duplicates of %s: %w", k.path, s.URL, err)
		}
		if meta != "" {
			s.Meta = record.Meta(meta)
		}
		s.FirstSeen, _ = time.Parse(time.RFC3339, first)
		s.Updated, _ = time.Parse(time.RFC3339, updated)
		if err := fn(&s); err != nil {
			return err
		}
	}
	return rows.Err()
}
