// Package warc writes and reads WARC/1.1 files (ISO 28500:2017), the web
// archive format that wget, Heritrix and the Internet Archive tools use.
//
// Writer appends records to a .warc.gz file with every record in a gzip
// member of its own, the layout that lets readers seek to any record; an
// HTTP exchange becomes a request record and a response record joined by
// WARC-Concurrent-To, with SHA-1 block and payload digests. Reader reads
// such files back (and checks the one-member-per-record layout); the
// fetcher's tests use it, and so can tools that want to re-process an
// archive. Scanner reads the files of other writers too (WARC/1.0 or 1.1,
// plain, gzipped per record or as a whole) and says where each record
// starts, so an index can read one record again with ReadRecordAt (the
// mirror of simweb mirror serves WARC files that way).
package warc
