package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

func TestExitCode(t *testing.T) {
	live := context.Background()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name       string
		ctx        context.Context
		err        error
		wantCode   int
		wantReport bool
	}{
		{"ok", live, nil, ExitOK, false},
		{"interrupted without error", cancelled, nil, ExitInterrupted, false},
		{"closed stdout", live, fmt.Errorf("write: %w", syscall.EPIPE), ExitOK, false},
		{"closed pipe", live, io.ErrClosedPipe, ExitOK, false},
		{"rejected", live, fmt.Errorf("%w: 3", ErrRejected), ExitRejected, true},
		{"usage", live, Usagef("--x: bad"), ExitUsage, true},
		{"interrupted", cancelled, fmt.Errorf("fetch: %w", context.Canceled), ExitInterrupted, false},
		{"cli.Exit code", live, ucli.Exit("custom", 4), 4, true},
		{"error after interrupt", cancelled, errors.New("boom"), ExitInterrupted, true},
		{"fatal", live, errors.New("boom"), ExitFatal, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, report := ExitCode(tt.ctx, tt.err)
			if code != tt.wantCode || report != tt.wantReport {
				t.Fatalf("ExitCode = %d, %v; want %d, %v", code, report, tt.wantCode, tt.wantReport)
			}
		})
	}
}
