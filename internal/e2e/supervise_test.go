package e2e

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// superviseRun is crawl.sh started with its stdin, stdout and TMPDIR chosen
// by the test, in its own process group.
func superviseRun(t *testing.T, dir, seeds string, pages int, stdin io.Reader, stdout io.Writer, env ...string) *crawlScript {
	t.Helper()
	profile, _ := filepath.Abs("../../examples/topics/forestry.yaml")
	cs := &crawlScript{done: make(chan error, 1)}
	cs.cmd = exec.Command("bash", "../../scripts/crawl.sh", profile, seeds, filepath.Join(dir, "crawl.db"), strconv.Itoa(pages))
	cs.cmd.Env = append(append(os.Environ(), "BIN="+stages(t), "PROGRESS=on", "PROGRESS_EVERY=1",
		"TMPDIR="+filepath.Join(dir, "tmp")), env...)
	os.MkdirAll(filepath.Join(dir, "tmp"), 0o755)
	cs.cmd.Stdin, cs.cmd.Stdout = stdin, stdout
	if stdout == nil {
		cs.cmd.Stderr = &cs.stderr
	} else {
		cs.cmd.Stderr = stdout
	}
	cs.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cs.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { cs.done <- cs.cmd.Wait() }()
	t.Cleanup(func() { syscall.Kill(-cs.cmd.Process.Pid, syscall.SIGKILL) })
	return cs
}

// waitStages waits until crawl.sh has at least n children and returns them.
func waitStages(t *testing.T, cs *crawlScript, n int) map[string]int {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if kids := children(cs.cmd.Process.Pid); len(kids) >= n {
			return kids
		}
	}
	t.Fatalf("crawl.sh has not started %d stages: %v\n%s", n, children(cs.cmd.Process.Pid), cs.stderr.String())
	return nil
}

// alive tells whether pid runs (a zombie does not).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err == nil && !strings.Contains(string(stat), ") Z ")
}

// runningLeases tells whether the frontier at db holds running leases.
func runningLeases(t *testing.T, db string) bool {
	t.Helper()
	s, err := frontier.OpenExisting(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, err := s.Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c.Leased
}

// The fault drills of a supervised loop: crawl.sh SIGKILLed, its seeding
// stage SIGKILLed while stdin stays open, Ctrl-C, and output appended to
// a log.
func TestCrawlScriptSupervision(t *testing.T) {
	if testing.Short() {
		t.Skip("runs crawl.sh")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("finds the stages through /proc")
	}
	fetchFlags := func(proxy string) string { return "FETCH_FLAGS=-q --proxy " + proxy + fastFetch + " --concurrency 2" }

	// Killing crawl.sh ends its stages; no pipe directory stays behind,
	// and the dead run's leases are let go, so a re-run waits for none.
	t.Run("crawl.sh killed", func(t *testing.T) {
		dir := t.TempDir()
		proxy, seeds := simwebForestry(t, dir)
		cs := superviseRun(t, dir, seeds, 5000, nil, nil, fetchFlags(proxy))
		kids := waitStages(t, cs, 5)
		time.Sleep(time.Second)
		syscall.Kill(cs.cmd.Process.Pid, syscall.SIGKILL)
		cs.wait(5 * time.Second)
		deadline := time.Now().Add(5 * time.Second)
		for name, pid := range kids {
			for alive(pid) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if alive(pid) {
				t.Errorf("stage %s (pid %d) runs on 5s after crawl.sh was killed", name, pid)
			}
		}
		if left, _ := filepath.Glob(filepath.Join(dir, "tmp", "*")); len(left) > 0 {
			t.Errorf("left behind: %v", left)
		}
		if runningLeases(t, filepath.Join(dir, "crawl.db")) {
			t.Errorf("the killed run's leases still run")
		}
	})

	// seed add of the seeds killed while the producer of stdin goes on:
	// crawl.sh ends at once, naming it.
	t.Run("seeding killed", func(t *testing.T) {
		dir := t.TempDir()
		proxy, seeds := simwebForestry(t, dir)
		body, _ := os.ReadFile(seeds)
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer pw.Close()
		pw.Write(body) // and stays open, as { cat seeds; sleep 20; } |
		defer pr.Close()
		cs := superviseRun(t, dir, "-", 100, pr, nil, fetchFlags(proxy))
		kids := waitStages(t, cs, 2)
		time.Sleep(300 * time.Millisecond)
		syscall.Kill(kids["seed add"], syscall.SIGKILL)
		code, ended := cs.wait(5 * time.Second)
		if !ended {
			t.Fatalf("crawl.sh still runs 5s after the seeding seed add was killed:\n%s", cs.stderr.String())
		}
		if code != 1 || !strings.Contains(cs.stderr.String(), "seed add failed") {
			t.Errorf("exit %d, stderr:\n%s", code, cs.stderr.String())
		}
	})

	// Ctrl-C (SIGINT to the process group): exit 130, the leases let go.
	t.Run("Ctrl-C", func(t *testing.T) {
		dir := t.TempDir()
		proxy, seeds := simwebForestry(t, dir)
		cs := superviseRun(t, dir, seeds, 5000, nil, nil, fetchFlags(proxy))
		waitStages(t, cs, 5)
		time.Sleep(1500 * time.Millisecond)
		syscall.Kill(-cs.cmd.Process.Pid, syscall.SIGINT)
		code, ended := cs.wait(10 * time.Second)
		if !ended || code != 130 {
			t.Fatalf("after Ctrl-C: ended %v, exit %d (want 130):\n%s", ended, code, cs.stderr.String())
		}
		if !strings.Contains(cs.stderr.String(), "interrupted") {
			t.Errorf("stderr does not say interrupted:\n%s", cs.stderr.String())
		}
		if runningLeases(t, filepath.Join(dir, "crawl.db")) {
			t.Errorf("the interrupted run's leases still run:\n%s", cs.stderr.String())
		}
	})

	// Output appended to a log (>> crawl.log 2>&1) keeps the log's earlier
	// lines: no stage reopens (and truncates) stdout.
	t.Run("appended log", func(t *testing.T) {
		dir := t.TempDir()
		proxy, seeds := simwebForestry(t, dir)
		logPath := filepath.Join(dir, "crawl.log")
		earlier := strings.Repeat("an earlier line of the log\n", 50)
		os.WriteFile(logPath, []byte(earlier), 0o644)
		f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cs := superviseRun(t, dir, seeds, 30, nil, f, fetchFlags(proxy))
		if code, ended := cs.wait(60 * time.Second); !ended || code != 0 {
			t.Fatalf("ended %v, exit %d", ended, code)
		}
		got, _ := os.ReadFile(logPath)
		if !bytes.HasPrefix(got, []byte(earlier)) || !bytes.Contains(got, []byte("pages fetched so far")) {
			t.Errorf("the log lost its earlier lines or the run's:\n%.300q", got)
		}
	})
}
