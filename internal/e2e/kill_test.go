package e2e

import (
	"bytes"
	"errors"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

// crawlScript is one run of scripts/crawl.sh in its own process group.
type crawlScript struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	done   chan error
}

func startCrawlScript(t *testing.T, dir, seeds string, pages int, env ...string) *crawlScript {
	t.Helper()
	profile, _ := filepath.Abs("../../examples/topics/forestry.yaml")
	return startCrawlScriptTopic(t, profile, dir, seeds, pages, env...)
}

func startCrawlScriptTopic(t *testing.T, profile, dir, seeds string, pages int, env ...string) *crawlScript {
	t.Helper()
	cs := &crawlScript{done: make(chan error, 1)}
	cs.cmd = exec.Command("bash", "../../scripts/crawl.sh", profile, seeds, filepath.Join(dir, "crawl.db"), strconv.Itoa(pages))
	cs.cmd.Env = append(append(os.Environ(), "BIN="+stages(t), "PROGRESS=off"), env...)
	cs.cmd.Stderr = &cs.stderr
	cs.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cs.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { cs.done <- cs.cmd.Wait() }()
	t.Cleanup(func() { syscall.Kill(-cs.cmd.Process.Pid, syscall.SIGKILL) })
	return cs
}

// wait waits up to d for the script to end.
func (cs *crawlScript) wait(d time.Duration) (code int, ended bool) {
	select {
	case err := <-cs.done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), true
		}
		return 0, true
	case <-time.After(d):
		return 0, false
	}
}

// children lists the script's direct children by the name crawl.sh gives
// each stage: "seed next", "seed add", else the program's name.
func children(pid int) map[string]int {
	out := map[string]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) < 2 || fields[1] != strconv.Itoa(pid) || fields[0] == "Z" {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
		name := filepath.Base(args[0])
		if name == "seed" && len(args) > 1 {
			name += " " + args[1]
		}
		out[name] = p
	}
	return out
}

func simwebForestry(t *testing.T, dir string) (proxy, seedFile string) {
	t.Helper()
	web := simweb.New(simweb.Config{Seed: 1, NoFaults: true})
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	seeds, err := web.Seeds("forestry")
	if err != nil {
		t.Fatal(err)
	}
	seedFile = filepath.Join(dir, "seeds.txt")
	if err := os.WriteFile(seedFile, []byte(strings.Join(seeds, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv.URL, seedFile
}

const fastFetch = " --delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s"

// TestCrawlScriptStopsWhenAStageDies kills each stage of a running crawl
// with SIGKILL in turn: crawl.sh must stop the whole loop within seconds,
// exit non-zero and name the stage, and leave no stage behind.
func TestCrawlScriptStopsWhenAStageDies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs crawl.sh six times")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("finds the stages through /proc")
	}
	for _, victim := range []string{"seed next", "fetch", "segment", "score", "cat", "seed add"} {
		t.Run(victim, func(t *testing.T) {
			dir := t.TempDir()
			proxy, seeds := simwebForestry(t, dir)
			cs := startCrawlScript(t, dir, seeds, 5000,
				"FETCH_FLAGS=-q --proxy "+proxy+fastFetch, "FILTER=cat",
				"ARCHIVE="+filepath.Join(dir, "scored.jsonl.zst"))
			var pid int
			for deadline := time.Now().Add(20 * time.Second); pid == 0 && time.Now().Before(deadline); {
				time.Sleep(100 * time.Millisecond)
				if kids := children(cs.cmd.Process.Pid); len(kids) >= 6 {
					time.Sleep(time.Second) // let pages flow
					pid = children(cs.cmd.Process.Pid)[victim]
				}
			}
			if pid == 0 {
				t.Fatalf("no stage %q under crawl.sh: %v\n%s", victim, children(cs.cmd.Process.Pid), cs.stderr.String())
			}
			syscall.Kill(pid, syscall.SIGKILL)
			killed := time.Now()
			code, ended := cs.wait(10 * time.Second)
			if !ended {
				t.Fatalf("crawl.sh still runs 10s after %s was killed: stages %v\n%s", victim, children(cs.cmd.Process.Pid), cs.stderr.String())
			}
			t.Logf("%s killed: crawl.sh ended in %v with exit %d", victim, time.Since(killed).Round(time.Millisecond), code)
			if code == 0 {
				t.Errorf("exit 0 after %s was killed", victim)
			}
			if want := "stage " + victim; victim != "cat" && !strings.Contains(cs.stderr.String(), want) ||
				victim == "cat" && !strings.Contains(cs.stderr.String(), "stage FILTER (cat) was killed") {
				t.Errorf("stderr does not name the stage %s:\n%s", victim, cs.stderr.String())
			}
			if kids := children(cs.cmd.Process.Pid); len(kids) > 0 {
				t.Errorf("stages left running: %v", kids)
			}
		})
	}
}

// TestCrawlScriptMistakes: plausible mistakes of a new user.
func TestCrawlScriptMistakes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs crawl.sh")
	}
	dir := t.TempDir()
	proxy, seeds := simwebForestry(t, dir)
	// A seed line without a scheme is reported; the crawl goes on.
	body, _ := os.ReadFile(seeds)
	withBad := filepath.Join(dir, "seeds-bad.txt")
	os.WriteFile(withBad, append([]byte("www.forestry.gov.cn/\n"), body...), 0o644)
	archive := filepath.Join(dir, "a.jsonl")
	cs := startCrawlScript(t, dir, withBad, 60, "FETCH_FLAGS=-q --proxy "+proxy+fastFetch, "ARCHIVE="+archive,
		`FILTER=sed -u 's/^{/{"filtered":true,/'`)
	code, ended := cs.wait(60 * time.Second)
	if !ended || code != 0 {
		t.Fatalf("bad seed line: ended %v, exit %d:\n%s", ended, code, cs.stderr.String())
	}
	if !strings.Contains(cs.stderr.String(), "seeds-bad.txt:1:") || !strings.Contains(cs.stderr.String(), "going on with the rest") {
		t.Errorf("the rejected seed line is not reported:\n%s", cs.stderr.String())
	}
	// FILTER ran between score and seed add: every archived doc went through it.
	got, _ := os.ReadFile(archive)
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	if len(lines) < 50 {
		t.Errorf("%d pages archived, want about 60", len(lines))
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, `{"filtered":true,`) {
			t.Fatalf("archived doc did not pass FILTER: %.80s", l)
		}
	}

	// A malformed topic stops everything at once, before a page is fetched.
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("description: forests\nthresholds: {page: 0.3\n"), 0o644)
	dir2 := t.TempDir()
	cs = startCrawlScriptTopic(t, bad, dir2, seeds, 60) // no proxy either
	code, ended = cs.wait(20 * time.Second)
	if !ended || code != 2 {
		t.Fatalf("malformed topic: ended %v, exit %d:\n%s", ended, code, cs.stderr.String())
	}
	if !strings.Contains(cs.stderr.String(), "bad.yaml") || !strings.Contains(cs.stderr.String(), "nothing was crawled") {
		t.Errorf("malformed topic: stderr %q", cs.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir2, "crawl.db")); err == nil {
		t.Errorf("malformed topic: the frontier was created")
	}

	// So does a link strategy the profile cannot feed: linkmodel without
	// examples.
	plain := filepath.Join(dir, "plain.yaml")
	os.WriteFile(plain, []byte("description: forests\nkeywords: {forest: 1}\n"), 0o644)
	dir3 := t.TempDir()
	cs = startCrawlScriptTopic(t, plain, dir3, seeds, 60, "LINKS=linkmodel")
	code, ended = cs.wait(20 * time.Second)
	if !ended || code != 2 {
		t.Fatalf("linkmodel without examples: ended %v, exit %d:\n%s", ended, code, cs.stderr.String())
	}
	if !strings.Contains(cs.stderr.String(), "linkmodel learns from labelled examples") || !strings.Contains(cs.stderr.String(), "nothing was crawled") {
		t.Errorf("linkmodel without examples: stderr %q", cs.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir3, "crawl.db")); err == nil {
		t.Errorf("linkmodel without examples: the frontier was created")
	}
}
