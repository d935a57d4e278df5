package readme

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// block is one fenced code block of the README.
type block struct {
	line int    // of the opening fence
	info string // what follows the fence: "sh", "sh no-run (…)", "json" …
	text string
}

func (b block) runnable() bool { return b.info == "sh" }

// blocks returns the fenced blocks of a Markdown file, and the lines of
// indented code blocks (which would escape the marking).
func blocks(t *testing.T, path string) (bs []block, indented []int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var cur *block
	var body []string
	prevBlank := true
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &block{line: n, info: strings.TrimSpace(strings.TrimPrefix(l, "```"))}
			body = nil
		case cur != nil && strings.TrimSpace(l) == "```":
			cur.text = strings.Join(body, "\n") + "\n"
			bs = append(bs, *cur)
			cur = nil
		case cur != nil:
			body = append(body, l)
		case prevBlank && strings.HasPrefix(l, "    ") && strings.TrimSpace(l) != "" &&
			!strings.HasPrefix(strings.TrimSpace(l), "-") && !strings.HasPrefix(strings.TrimSpace(l), "|"):
			indented = append(indented, n)
		}
		if cur == nil {
			prevBlank = strings.TrimSpace(l) == ""
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return bs, indented
}

// script turns the runnable blocks into one bash script, run in order in
// one shell, so later blocks use what earlier ones made ($proxy, files).
func script(bs []block) string {
	var b strings.Builder
	b.WriteString("set -euo pipefail\n")
	for _, bl := range bs {
		if !bl.runnable() {
			continue
		}
		fmt.Fprintf(&b, "echo '### README.md:%d' >&2\n", bl.line)
		if !strings.HasPrefix(bl.text, "$ ") {
			b.WriteString(bl.text)
			continue
		}
		// A transcript: each "$ " command, then its expected output.
		lines := strings.Split(strings.TrimRight(bl.text, "\n"), "\n")
		for i := 0; i < len(lines); {
			cmd := strings.TrimPrefix(lines[i], "$ ")
			i++
			var want []string
			for i < len(lines) && !strings.HasPrefix(lines[i], "$ ") {
				want = append(want, lines[i])
				i++
			}
			fmt.Fprintf(&b, "got=$(%s)\n", cmd)
			fmt.Fprintf(&b, "want=$(cat <<'README_EOF'\n%s\nREADME_EOF\n)\n", strings.Join(want, "\n"))
			fmt.Fprintf(&b, "[ \"$got\" = \"$want\" ] || { printf 'README.md:%d: %%s\\n  got:  %%s\\n  want: %%s\\n' %q \"$got\" \"$want\" >&2; exit 1; }\n",
				bl.line, cmd)
		}
	}
	return b.String()
}

// build puts every command in dir.
func build(t *testing.T, dir string) {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to build the commands with: %v", err)
	}
	cmd := exec.Command(goCmd, "build", "-trimpath", "-o", dir+string(filepath.Separator), "../../cmd/...")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}

// TestREADMEBlocks runs every README command block that can run offline,
// in order, in a fresh directory that holds the repository's examples/
// and scripts/ and the built commands in bin/ (also on PATH), against the
// simulated web the README starts. Every other block must say why not.
func TestREADMEBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every command and crawls simweb")
	}
	bs, indented := blocks(t, "../../README.md")
	if len(indented) > 0 {
		t.Errorf("README.md lines %v: indented code blocks; fence them as ```sh (run by this test) or ```sh no-run (reason)", indented)
	}
	run := 0
	for _, b := range bs {
		switch {
		case b.runnable():
			run++
		case strings.HasPrefix(b.info, "sh no-run"):
			if !strings.Contains(b.info, "(") {
				t.Errorf("README.md:%d: a no-run block says why, in parentheses: %q", b.line, b.info)
			}
		case b.info == "sh" || b.info == "" || strings.HasPrefix(b.info, "sh "):
			t.Errorf("README.md:%d: block %q is neither ```sh nor ```sh no-run (reason)", b.line, b.info)
		}
	}
	if run == 0 {
		t.Fatal("no runnable block in README.md")
	}
	repo, _ := filepath.Abs("../..")
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	build(t, bin)
	for _, d := range []string{"examples", "scripts"} {
		if err := os.Symlink(filepath.Join(repo, d), filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script(bs))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "PROGRESS=off")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// A file, not a pipe: simweb, which the README leaves running for its
	// reader, would hold a pipe open after the script ends.
	out, err := os.Create(filepath.Join(dir, "output.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	start := time.Now()
	err = cmd.Run()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // simweb and anything else left
	if err != nil {
		log, _ := os.ReadFile(out.Name())
		t.Fatalf("the README's blocks failed (%v) after %v:\n%s", err, time.Since(start).Round(time.Millisecond), tail(string(log), 4000))
	}
	t.Logf("%d README blocks ran in %v", run, time.Since(start).Round(time.Millisecond))
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
