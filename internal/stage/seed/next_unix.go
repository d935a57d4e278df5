//go:build unix

package seed

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// OutputGone tells whether w is a pipe whose reader has gone away, so a
// follower that is not writing (its in-flight window full) still ends
// when a later stage of the loop dies, instead of waiting for leases.
func OutputGone(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fds := []unix.PollFd{{Fd: int32(f.Fd())}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0 && fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0
}
