package jsonl

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// Rejects reports input lines that could not be used: a message
// NAME:LINE: reason on the log, and, when a rejects file was opened, the
// line itself, verbatim. It is safe for concurrent use.
type Rejects struct {
	mu    sync.Mutex
	log   io.Writer
	file  *os.File
	count int
}

// OpenRejects logs to log and, when name is not empty, keeps the rejected
// lines in the named file.
func OpenRejects(name string, log io.Writer) (*Rejects, error) {
	r := &Rejects{log: log}
	if name != "" {
		f, err := os.Create(name)
		if err != nil {
			return nil, fmt.Errorf("create rejects file: %w", err)
		}
		r.file = f
	}
	return r, nil
}

// Reject reports line l as unusable for reason.
func (r *Rejects) Reject(l Line, reason error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.count++
	if r.log != nil {
		// The reason may quote the line (a bad URL): cut it, the rejects
		// file keeps the line whole.
		fmt.Fprintf(r.log, "%s: %s\n", l, Echo(fmt.Sprint(reason)))
	}
	if r.file != nil {
		r.file.Write(l.Bytes)
		r.file.Write([]byte{'\n'})
	}
}

// Count is the number of lines rejected so far.
func (r *Rejects) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.count
}

// Close closes the rejects file.
func (r *Rejects) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.file == nil {
		return nil
	}
	err := r.file.Close()
	r.file = nil
	return err
}
