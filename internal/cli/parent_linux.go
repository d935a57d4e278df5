package cli

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// init asks the kernel for SIGTERM when the supervisor named by
// EnvParentPID dies, on the main thread (where package init runs), so a
// stage of a SIGKILLed crawl.sh stops with it instead of crawling on
// unsupervised. A process that is not the supervisor's child (a command
// run inside a FILTER) is left alone; one whose supervisor is already
// gone stops at once.
func init() {
	pid, err := strconv.Atoi(os.Getenv(EnvParentPID))
	if err != nil || pid <= 1 {
		return
	}
	if os.Getppid() != pid {
		if unix.Kill(pid, 0) == unix.ESRCH {
			os.Exit(ExitInterrupted) // the supervisor died before this line
		}
		return
	}
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGTERM), 0, 0, 0); err != nil {
		return
	}
	if os.Getppid() != pid { // it died between the check and the prctl
		os.Exit(ExitInterrupted)
	}
}
