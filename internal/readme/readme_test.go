package readme

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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

// file is the name a block is written to before the runnable blocks run
// ("python file=keyword_score.py"), or "".
func (b block) file() string {
	for _, f := range strings.Fields(b.info) {
		if name, ok := strings.CutPrefix(f, "file="); ok {
			return name
		}
	}
	return ""
}

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

// script turns the runnable blocks of the page name into one bash script,
// run in order in one shell, so later blocks use what earlier ones made
// ($proxy, files).
func script(name string, bs []block) string {
	var b strings.Builder
	b.WriteString("set -euo pipefail\n")
	for _, bl := range bs {
		if !bl.runnable() {
			continue
		}
		fmt.Fprintf(&b, "echo '### %s:%d' >&2\n", name, bl.line)
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
			fmt.Fprintf(&b, "[ \"$got\" = \"$want\" ] || { printf '%s:%d: %%s\\n  got:  %%s\\n  want: %%s\\n' %q \"$got\" \"$want\" >&2; exit 1; }\n",
				name, bl.line, cmd)
		}
	}
	return b.String()
}

// built is the directory of the commands, built once for every page.
var built struct {
	sync.Once
	dir string
	err error
}

// TestMain removes the commands built for the pages.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// commands gives the directory of the built commands, building them the
// first time.
func commands(t *testing.T) string {
	t.Helper()
	built.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "readme-bin")
		if built.err == nil {
			built.err = build(built.dir)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.dir
}

// build puts every command in dir.
func build(dir string) error {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("no go command to build the commands with: %w", err)
	}
	cmd := exec.Command(goCmd, "build", "-trimpath", "-o", dir+string(filepath.Separator), "../../cmd/...")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %w\n%s", err, out)
	}
	return nil
}

// TestREADMEBlocks runs every README command block that can run offline,
// in order, in a fresh directory that holds the repository's examples/
// and scripts/ and the built commands in bin/ (also on PATH), against the
// simulated web the README starts. Every other block must say why not.
func TestREADMEBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every command and crawls simweb")
	}
	t.Parallel() // with TestDocsBlocks: each page crawls its own simweb in its own directory
	runPage(t, "README.md", 5*time.Minute)
}

// TestDocsBlocks runs the command blocks of the docs/ pages whose
// examples a user copies to swap a stage for their own tool, as
// TestREADMEBlocks does the README's: each ends its crawl within the
// time given, or the loop hangs and the test says so.
func TestDocsBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every command and crawls simweb")
	}
	t.Parallel()
	for _, page := range []string{"docs/records.md"} {
		t.Run(page, func(t *testing.T) { runPage(t, page, 2*time.Minute) })
	}
}

// TestCrawlFilterExample: the FILTER example of scripts/crawl.sh's header
// is run, as written, by a block of docs/records.md (TestDocsBlocks).
func TestCrawlFilterExample(t *testing.T) {
	sh, err := os.ReadFile("../../scripts/crawl.sh")
	if err != nil {
		t.Fatal(err)
	}
	var example string
	for _, l := range strings.Split(string(sh), "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(l, "#"))
		if strings.HasPrefix(l, "FILTER='") {
			example = l
		}
	}
	if example == "" {
		t.Fatal("scripts/crawl.sh: no FILTER='…' example in its header")
	}
	bs, _ := blocks(t, "../../docs/records.md")
	for _, b := range bs {
		if b.runnable() && strings.Contains(b.text, example) {
			return
		}
	}
	t.Errorf("no runnable block of docs/records.md runs crawl.sh's FILTER example as written: %s", example)
}

// runPage runs the runnable blocks of page (a path from the repository
// root) in order, in a fresh directory that holds the repository's
// examples/ and scripts/, the built commands in bin/ (also on PATH) and
// the page's file= blocks, within timeout.
func runPage(t *testing.T, page string, timeout time.Duration) {
	bs, indented := blocks(t, filepath.Join("../..", page))
	if len(indented) > 0 {
		t.Errorf("%s lines %v: indented code blocks; fence them as ```sh (run by this test) or ```sh no-run (reason)", page, indented)
	}
	run := 0
	for _, b := range bs {
		switch {
		case b.runnable():
			run++
		case strings.HasPrefix(b.info, "sh no-run"):
			if !strings.Contains(b.info, "(") {
				t.Errorf("%s:%d: a no-run block says why, in parentheses: %q", page, b.line, b.info)
			}
		case b.info == "sh" || b.info == "" || strings.HasPrefix(b.info, "sh "):
			t.Errorf("%s:%d: block %q is neither ```sh nor ```sh no-run (reason)", page, b.line, b.info)
		}
	}
	if run == 0 {
		t.Fatalf("no runnable block in %s", page)
	}
	repo, _ := filepath.Abs("../..")
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Symlink(commands(t), bin); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"examples", "scripts"} {
		if err := os.Symlink(filepath.Join(repo, d), filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range bs {
		if name := b.file(); name != "" {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(b.text), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script(page, bs))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "PROGRESS=off")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// A file, not a pipe: simweb, which the page leaves running for its
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
		t.Fatalf("the blocks of %s failed (%v) after %v:\n%s", page, err, time.Since(start).Round(time.Millisecond), tail(string(log), 4000))
	}
	t.Logf("%d blocks of %s ran in %v", run, page, time.Since(start).Round(time.Millisecond))
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
