package cli

import (
	"errors"
	"sync"
	"time"
)

// InputGrace is how long Finish waits for the input loop to end before it
// leaves the loop blocked in a read of stdin.
const InputGrace = 100 * time.Millisecond

// input is the state of a loop started by ReadInput.
type input struct {
	done chan struct{}
	err  error
}

// ReadInput runs read, the loop that consumes s.In, in a goroutine of its
// own, so that the stage can stop (an interrupt, a closed stdout) while the
// loop is blocked reading stdin, as it is in a feedback loop whose
// upstream stays open. Call it at most once, and end with Finish.
func (s *Stream) ReadInput(read func() error) {
	in := &input{done: make(chan struct{})}
	s.input = in
	go func() {
		defer close(in.done)
		in.err = read()
	}()
}

// Finish closes the stream of a stage that used ReadInput. When the input
// loop ends within InputGrace, it closes everything and returns the loop's
// error with Close's; when the loop is still blocked in a read, it closes
// only the output and the rejects (CloseOutput) and leaves the input to be
// released when the process exits. Without ReadInput it is Close.
func (s *Stream) Finish() error {
	if s.input == nil {
		return s.Close()
	}
	select {
	case <-s.input.done:
		return errors.Join(s.input.err, s.Close())
	case <-time.After(InputGrace):
		return s.CloseOutput()
	}
}

// ShowProgress redraws the progress line with draw every interval when
// s.Progress is set (--progress). The stop it returns draws the final
// state, so that a short run shows one too, and ends the line; it does
// nothing when progress is off, and only its first call counts.
func (s *Stream) ShowProgress(interval time.Duration, draw func()) (stop func()) {
	if !s.Progress {
		return func() {}
	}
	stopTicker := Ticker(interval, draw)
	var once sync.Once
	return func() {
		once.Do(func() {
			stopTicker()
			draw()
			s.Log.EndProgress()
		})
	}
}
