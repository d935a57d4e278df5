// Package jsonl streams JSON Lines: it reads lines from files or standard
// input in order, decompressing .gz and .zst inputs (by name or by their
// magic bytes), and writes records to standard output or a file,
// compressing by the file's name and flushing soon after every record so
// that feedback loops built from pipes never stall.
//
// A line that cannot be used is not lost: Rejects reports it on stderr as
// NAME:LINE: reason and keeps it verbatim in a rejects file when asked.
// ReadURLs is the input loop of the stages that take URLs, on top of both;
// ReadLabels reads the user's page labels, refusing a bad line by name.
//
// AppendString and AppendFloat write JSON values into a byte slice exactly
// as encoding/json does, for records too big or too many for reflection.
package jsonl
