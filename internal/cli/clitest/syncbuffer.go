package clitest

import (
	"bytes"
	"sync"
)

// SyncBuffer is a bytes.Buffer that other goroutines may write while the
// test reads it: a stage's logger, or an output flushed by a timer.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
