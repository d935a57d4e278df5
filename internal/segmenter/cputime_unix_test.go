//go:build unix

package segmenter

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user + system) the process has used: the
// benchmarks report MB per CPU-second, which a busy machine does not skew
// the way it skews wall-clock MB/s.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
