package cli

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestParentDeathHelper is the stage of TestStageDiesWithSupervisor: it
// prints its pid and waits.
func TestParentDeathHelper(t *testing.T) {
	if os.Getenv("CLI_TEST_PARENT_HELPER") == "" {
		t.Skip("run by TestStageDiesWithSupervisor")
	}
	os.Stdout.WriteString(strconv.Itoa(os.Getpid()) + "\n")
	time.Sleep(30 * time.Second)
}

// A process started with EnvParentPID set to its parent's pid ends when
// that parent is SIGKILLed; without it, it would run on.
func TestStageDiesWithSupervisor(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      string
		wantDies bool
	}{{"supervised", EnvParentPID + "=$$", true}, {"unsupervised", "", false}} {
		t.Run(tc.name, func(t *testing.T) {
			sup := exec.Command("sh", "-c", tc.env+` CLI_TEST_PARENT_HELPER=1 "$0" -test.run='^TestParentDeathHelper$' & wait`, os.Args[0])
			out, err := sup.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := sup.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(line))
			defer syscall.Kill(pid, syscall.SIGKILL)
			sup.Process.Kill()
			sup.Wait()
			dead := false
			for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline) && !dead; time.Sleep(20 * time.Millisecond) {
				stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
				dead = err != nil || strings.Contains(string(stat), ") Z ")
			}
			if dead != tc.wantDies {
				t.Fatalf("stage dead %v 3s after its supervisor was killed, want %v", dead, tc.wantDies)
			}
		})
	}
}
