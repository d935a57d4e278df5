package kb

import (
	"fmt"
)

// OnCommit sets a function called after every successful commit, with
// the knowledge base's writes durable: dedupe makes its index durable
// there, so the index never holds a document the knowledge base lost to
// a failed commit (a full disk). An error it returns is Commit's error.
func (k *KB) OnCommit(f func() error) { k.afterCommit = f }

// LimitSize caps the database file at about limit bytes (SQLite's
// max_page_count): a write past it fails with "database or disk is full",
// as on a full disk, and the transaction is rolled back. It applies to
// this connection only.
func (k *KB) LimitSize(limit int64) error {
	var pageSize int64
	if err := k.db.QueryRow(`PRAGMA page_size`).Scan(&pageSize); err != nil {
		return fmt.Errorf("knowledge base %s: %w", k.path, err)
	}
	pages := max(limit/pageSize, 1)
	var got int64
	if err := k.db.QueryRow(fmt.Sprintf(`PRAGMA max_page_count = %d`, pages)).Scan(&got); err != nil {
		return fmt.Errorf("knowledge base %s: limit size: %w", k.path, err)
	}
	if got < pages {
		return fmt.Errorf("knowledge base %s already holds %d bytes, over the limit of %d", k.path, got*pageSize, limit)
	}
	return nil
}
