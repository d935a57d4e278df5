// Package text turns page text into tokens for every focuscrawl stage that
// compares texts: segment writes them into doc records, score builds topic
// and page vectors from them, dedupe fingerprints them.
//
// A Tokenizer normalises text (NFKC, full width to half width, Latin
// lower-cased), cuts Chinese into words with gse's zh dictionary and
// shortest-path algorithm plus the topic profile's domain dictionary, keeps
// runs of Latin letters and digits as words, and drops stop words and
// punctuation. The Chinese dictionary is loaded once per process, lazily, the
// first time text containing CJK characters is tokenized: English-only runs
// never pay for it (see Loaded).
//
// Fold maps the traditional Chinese characters of a built-in table to their
// simplified forms, so both scripts of one text tokenize, fingerprint and
// match alike (dedupe and the knowledge base's search use it).
package text
