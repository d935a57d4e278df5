// Package kb is the knowledge base of paper 4's (docs/algorithms.md §5) last step: knowledge
// records in one SQLite file with an FTS5 full-text index, searchable
// with dedupe search or plain sqlite3.
//
// FTS5's own tokenizers cannot cut Chinese into words, so the text is
// segmented before it is indexed: the title and content of every record go
// into the index as the project's tokens (gse words for Chinese, lower-cased
// words for Latin text, stop words dropped, traditional characters folded to
// simplified) joined by spaces, and queries are cut the same way. Results
// are ranked by bm25 (title weighted above content) and come with snippets
// cut from the original content around the matched words.
//
// The schema (docs/dedupe.md) is:
//
//	knowledge(id, url UNIQUE, title, published, source, author, content,
//	          score, fingerprint, duplicates JSON, meta JSON, first_seen, updated)
//	knowledge_fts(title, body) — FTS5, rowid = knowledge.id
//	kb_info(key, value)        — schema version
package kb
