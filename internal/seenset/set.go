package seenset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bits-and-blooms/bloom/v3"
)

// DefaultMemory is the default budget of the in-memory part (256 MiB).
const DefaultMemory = 256 << 20

// DefaultMaxRuns is how many run files may pile up before they are merged.
const DefaultMaxRuns = 8

// falsePositive is the Bloom filters' false-positive rate: the share of
// new keys that cost one block read per run.
const falsePositive = 0.01

// ErrClosed is returned by a Set used after Close.
var ErrClosed = errors.New("seenset: closed")

// Options configure a Set. The zero value is usable.
type Options struct {
	// Memory is the budget in bytes of the keys held in memory (arena and
	// table); beyond it the set spills to disk. 0 means DefaultMemory.
	Memory int64
	// TempDir is where the private spill directory is created; "" means
	// os.TempDir().
	TempDir string
	// MaxRuns is the number of run files that triggers a merge; 0 means
	// DefaultMaxRuns.
	MaxRuns int
}

// Stats describe a Set.
type Stats struct {
	Keys         int64 // distinct keys added
	MemoryKeys   int   // keys held in memory
	MemoryBytes  int64 // bytes of the in-memory part
	Runs         int   // run files on disk
	Spills       int   // times the in-memory part was written out
	Merges       int   // times runs were merged
	SpilledBytes int64 // bytes of the run files
}

// Set is an exact set of byte-string keys that spills to disk beyond a
// memory budget. It is not safe for concurrent use. After an error writing
// or reading its files (a full disk) every call returns that error.
type Set struct {
	o      Options
	mem    *memSet
	runs   []*run
	dir    string
	seq    int
	stats  Stats
	buf    []byte
	closed bool
	err    error // a failed spill or merge leaves the set unusable
}

// New returns an empty set. Nothing touches the disk until the first
// spill.
func New(o Options) *Set {
	if o.Memory <= 0 {
		o.Memory = DefaultMemory
	}
	if o.MaxRuns <= 0 {
		o.MaxRuns = DefaultMaxRuns
	}
	return &Set{o: o, mem: newMemSet(o.Memory)}
}

// Add adds key and reports whether it was new. key is copied.
func (s *Set) Add(key []byte) (added bool, err error) {
	seen, err := s.Contains(key)
	if seen || err != nil {
		return false, err
	}
	if s.mem.n > 0 && s.mem.bytes()+s.mem.growCost(len(key)) > s.o.Memory {
		if err := s.spill(); err != nil {
			s.err = err
			return false, err
		}
	}
	s.mem.insert(key)
	s.stats.Keys++
	return true, nil
}

// AddString is Add for a string key.
func (s *Set) AddString(key string) (bool, error) { return s.Add([]byte(key)) }

// Contains reports whether key was added.
func (s *Set) Contains(key []byte) (bool, error) {
	if s.closed {
		return false, ErrClosed
	}
	if s.err != nil {
		return false, s.err
	}
	if s.mem.contains(key) {
		return true, nil
	}
	if len(s.runs) == 0 {
		return false, nil
	}
	locs := bloom.Locations(key, bloomK)
	for _, r := range s.runs {
		if ok, err := r.contains(key, locs, &s.buf); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// Len is the number of distinct keys added.
func (s *Set) Len() int64 { return s.stats.Keys }

// Stats describes the set now.
func (s *Set) Stats() Stats {
	st := s.stats
	st.MemoryKeys = s.mem.n
	st.MemoryBytes = s.mem.bytes()
	st.Runs = len(s.runs)
	for _, r := range s.runs {
		st.SpilledBytes += r.size
	}
	return st
}

func (s *Set) nextPath() (string, error) {
	if s.dir == "" {
		dir, err := os.MkdirTemp(s.o.TempDir, "seenset-")
		if err != nil {
			return "", fmt.Errorf("seenset: spill directory: %w", err)
		}
		s.dir = dir
	}
	s.seq++
	return filepath.Join(s.dir, fmt.Sprintf("run-%06d", s.seq)), nil
}

// spill writes the in-memory keys to a new run and empties memory.
func (s *Set) spill() error {
	path, err := s.nextPath()
	if err != nil {
		return err
	}
	w, err := newRunWriter(path, s.mem.n, falsePositive)
	if err != nil {
		return fmt.Errorf("seenset: %w", err)
	}
	for k := range s.mem.sorted() {
		if err := w.add(k); err != nil {
			w.abort()
			return fmt.Errorf("seenset: %w", err)
		}
	}
	r, err := w.finish()
	if err != nil {
		return fmt.Errorf("seenset: %w", err)
	}
	s.runs = append(s.runs, r)
	s.stats.Spills++
	s.mem.reset()
	if len(s.runs) > s.o.MaxRuns {
		return s.merge()
	}
	return nil
}

func (s *Set) merge() error {
	path, err := s.nextPath()
	if err != nil {
		return err
	}
	r, err := mergeRuns(s.runs, path, falsePositive)
	if err != nil {
		return fmt.Errorf("seenset: %w", err)
	}
	for _, old := range s.runs {
		if err := old.remove(); err != nil {
			return fmt.Errorf("seenset: %w", err)
		}
	}
	s.runs = []*run{r}
	s.stats.Merges++
	return nil
}

// Close removes the spill files. The set cannot be used afterwards.
func (s *Set) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	var err error
	for _, r := range s.runs {
		if rerr := r.remove(); err == nil {
			err = rerr
		}
	}
	s.runs = nil
	if s.dir != "" {
		if rerr := os.RemoveAll(s.dir); err == nil {
			err = rerr
		}
	}
	s.mem = newMemSet(s.o.Memory)
	return err
}
