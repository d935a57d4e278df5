package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"

	ucli "github.com/urfave/cli/v2"
)

// Exit codes of every command.
const (
	ExitOK          = 0   // success
	ExitFatal       = 1   // the run failed
	ExitUsage       = 2   // bad flags or arguments
	ExitRejected    = 3   // finished, but some input lines were rejected
	ExitInterrupted = 130 // stopped by SIGINT or SIGTERM
)

// ExitCodesHelp is appended to every command's --help.
const ExitCodesHelp = `EXIT CODES:
   0 ok, 1 fatal error, 2 usage error, 3 finished but some input lines were rejected,
   130 interrupted (SIGINT/SIGTERM)
`

// ErrRejected says the run finished but rejected some input lines.
var ErrRejected = errors.New("some input lines were rejected")

// UsageError is a mistake in the flags or arguments.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a UsageError: exit code 2.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// ExitCode maps the result of a run to the process exit code, and says
// whether the error is worth printing. A closed stdout (| head) is a quiet
// success.
func ExitCode(ctx context.Context, err error) (code int, report bool) {
	var ue *UsageError
	var ec ucli.ExitCoder
	switch {
	case err == nil:
		if ctx.Err() != nil {
			return ExitInterrupted, false
		}
		return ExitOK, false
	case errors.Is(err, syscall.EPIPE), errors.Is(err, io.ErrClosedPipe):
		return ExitOK, false
	case errors.Is(err, ErrRejected):
		return ExitRejected, true
	case errors.As(err, &ue):
		return ExitUsage, true
	case ctx.Err() != nil && errors.Is(err, context.Canceled):
		return ExitInterrupted, false
	case errors.As(err, &ec):
		return ec.ExitCode(), true
	case ctx.Err() != nil:
		return ExitInterrupted, true
	}
	return ExitFatal, true
}
