package jsonl

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// appendRun appends lines with one Writer from Append, as one run of a
// crawl does, flushing after every flushEvery lines. The timed flush is
// put off, so the frames end where the test says however slowly the
// lines are written (under -race on a loaded machine 50 ms passed inside
// a run, split its one frame in two, and the repair rightly removed only
// the second).
func appendRun(t *testing.T, path string, lines []string, flushEvery int) {
	t.Helper()
	w, err := Append(path)
	if err != nil {
		t.Fatal(err)
	}
	w.delay = time.Hour
	for i, l := range lines {
		if err := w.WriteLine([]byte(l)); err != nil {
			t.Fatal(err)
		}
		if (i+1)%flushEvery == 0 {
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func runLines(run string, n, size int, rnd *rand.Rand) []string {
	var out []string
	for i := range n {
		pad := make([]byte, size)
		for j := range pad {
			pad[j] = byte('a' + rnd.IntN(26))
		}
		out = append(out, fmt.Sprintf(`{"run":%q,"i":%d,"pad":%q}`, run, i, pad))
	}
	return out
}

func readLines(t *testing.T, path string) (lines []string, warnings string, d Damage) {
	t.Helper()
	var warn bytes.Buffer
	r := NewReader([]string{path}, nil)
	r.Warnings = &warn
	for {
		l, err := r.Next()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("%s: %v (warnings: %s)", path, err, warn.String())
		}
		lines = append(lines, string(l.Bytes))
	}
	return lines, warn.String(), r.Damage()
}

// TestAppendSurvivesCutFrame cuts the last frame a killed run wrote at
// every length. Read with a later run's frames behind it (as a build
// before Append's repair left it, or as another tool may), every line of
// the whole frames comes back, in order, nothing else does, and the
// damage is reported. Appended to by Append, the cut frame is removed
// first and said, and the file reads back whole.
func TestAppendSurvivesCutFrame(t *testing.T) {
	for _, ext := range []string{".zst", ".gz"} {
		for _, size := range []int{20, 40 << 10} { // one block per frame; several
			t.Run(fmt.Sprintf("%s/%d", ext, size), func(t *testing.T) {
				t.Parallel() // each case has its own files; 45 s one after another under -race
				rnd := rand.New(rand.NewPCG(1, uint64(size)))
				dir := t.TempDir()
				first := runLines("first", 6, size, rnd)
				killed := runLines("killed", 8, size, rnd)
				later := runLines("later", 6, size, rnd)
				base := filepath.Join(dir, "base"+ext)
				appendRun(t, base, first, 3)
				good, _ := os.ReadFile(base)
				appendRun(t, base, killed, len(killed)) // one frame
				whole, _ := os.ReadFile(base)
				frame := len(whole) - len(good)
				laterPath := filepath.Join(dir, "later"+ext)
				appendRun(t, laterPath, later, 2)
				laterFrames, _ := os.ReadFile(laterPath)
				step := 1
				if frame > 400 {
					step = frame / 97
				}
				for cut := 1; cut < frame; cut += step {
					what := fmt.Sprintf("cut %d of %d", cut, frame)
					path := filepath.Join(dir, fmt.Sprintf("cut%d%s", cut, ext))
					writeFile(t, path, append(append([]byte(nil), whole[:len(good)+cut]...), laterFrames...))
					got, warn, d := readLines(t, path)
					if d.Frames < 1 || !strings.Contains(warn, "damaged") {
						t.Fatalf("%s: damage not reported: %+v %q", what, d, warn)
					}
					checkSurvivors(t, what, got, first, killed, later)

					path = filepath.Join(dir, fmt.Sprintf("sealed%d%s", cut, ext))
					writeFile(t, path, whole[:len(good)+cut])
					w, err := Append(path)
					if err != nil {
						t.Fatal(err)
					}
					r := w.Repaired()
					if r == nil || r.Offset != int64(len(good)) || r.Bytes != int64(cut) {
						t.Fatalf("%s: Append's repair %+v, want the %d bytes from %d removed", what, r, cut, len(good))
					}
					if err := w.Close(); err != nil {
						t.Fatal(err)
					}
					appendRun(t, path, later, 2)
					got, warn, d = readLines(t, path)
					if d.Frames != 0 || warn != "" {
						t.Fatalf("%s: after the repair the archive is still damaged: %+v %q", what, d, warn)
					}
					if want := append(append([]string(nil), first...), later...); strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Fatalf("%s: after the repair %d lines, want the %d of the whole runs", what, len(got), len(want))
					}
				}
				// Cut at the end of the file, nothing after it.
				path := filepath.Join(dir, "end"+ext)
				writeFile(t, path, whole[:len(good)+frame/2])
				got, warn, d := readLines(t, path)
				if d.Frames != 1 || !strings.Contains(warn, "end of the input") {
					t.Fatalf("cut at the end: %+v %q", d, warn)
				}
				checkSurvivors(t, "cut at the end", got, first, killed, nil)
			})
		}
	}
}

// TestAppendLeavesWholeAndInnerDamage: Append removes only a cut tail. A
// whole file is not touched; a damaged frame inside a zstd file (left by
// a build before the repair) stays for the readers to skip, while a cut
// tail after it is still removed; a plain file loses only a cut last line.
func TestAppendLeavesWholeAndInnerDamage(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 7))
	dir := t.TempDir()
	for _, ext := range []string{".zst", ".gz", ".jsonl"} {
		path := filepath.Join(dir, "whole"+ext)
		appendRun(t, path, runLines("a", 5, 30, rnd), 2)
		before, _ := os.ReadFile(path)
		w, err := Append(path)
		if err != nil {
			t.Fatal(err)
		}
		if r := w.Repaired(); r != nil {
			t.Errorf("%s: a whole file repaired: %+v", ext, r)
		}
		w.Close()
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("%s: a whole file changed by Append", ext)
		}
	}
	// zstd: whole, cut (inner), whole, cut (tail).
	part := func(name string, n int) []byte {
		p := filepath.Join(dir, name+".zst")
		appendRun(t, p, runLines(name, n, 50, rnd), n)
		b, _ := os.ReadFile(p)
		return b
	}
	a, b, c, d := part("a", 3), part("b", 3), part("c", 3), part("d", 3)
	file := append(append(append(append([]byte(nil), a...), b[:len(b)/2]...), c...), d[:len(d)-3]...)
	path := filepath.Join(dir, "inner.zst")
	writeFile(t, path, file)
	w, err := Append(path)
	if err != nil {
		t.Fatal(err)
	}
	if r := w.Repaired(); r == nil || r.Offset != int64(len(file)-len(d)+3) {
		t.Fatalf("inner damage and a cut tail: repair %+v, want the tail from byte %d removed", r, len(file)-len(d)+3)
	}
	w.Close()
	if got, _, dmg := readLines(t, path); len(got) != 6 || dmg.Frames != 1 {
		t.Errorf("inner damage kept for the readers: %d lines, %+v; want 6 lines and 1 damaged frame", len(got), dmg)
	}
	// Plain lines: a cut last line.
	path = filepath.Join(dir, "cut.jsonl")
	writeFile(t, path, []byte("{\"a\":1}\n{\"a\":2}\n{\"a\""))
	w, err = Append(path)
	if err != nil {
		t.Fatal(err)
	}
	if r := w.Repaired(); r == nil || r.Offset != 16 || r.Unit != "line" {
		t.Fatalf("a cut last line: repair %+v", r)
	}
	w.Close()
}

// checkSurvivors wants first, then a prefix of killed, then later, exactly.
func checkSurvivors(t *testing.T, what string, got, first, killed, later []string) {
	t.Helper()
	if len(got) < len(first)+len(later) {
		t.Fatalf("%s: %d lines, want at least %d", what, len(got), len(first)+len(later))
	}
	for i, l := range first {
		if got[i] != l {
			t.Fatalf("%s: line %d of the first run lost: %.60q", what, i, got[i])
		}
	}
	mid := got[len(first) : len(got)-len(later)]
	for i, l := range mid {
		if i >= len(killed) || l != killed[i] {
			t.Fatalf("%s: line %.60q is not a whole line of the cut run", what, l)
		}
	}
	for i, l := range later {
		if g := got[len(got)-len(later)+i]; g != l {
			t.Fatalf("%s: line %d of the later run: %.60q", what, i, g)
		}
	}
}

// TestAppendFrames: a flush ends a frame, so a file of two runs holds
// whole frames only, and Reader reads it without damage.
func TestAppendFrames(t *testing.T) {
	for _, ext := range []string{".zst", ".gz", ".jsonl"} {
		path := filepath.Join(t.TempDir(), "a"+ext)
		rnd := rand.New(rand.NewPCG(2, 3))
		a, b := runLines("a", 5, 30, rnd), runLines("b", 5, 30, rnd)
		appendRun(t, path, a, 2)
		appendRun(t, path, b, 5)
		got, warn, d := readLines(t, path)
		if strings.Join(got, "\n") != strings.Join(append(a, b...), "\n") || warn != "" || d != (Damage{}) {
			t.Fatalf("%s: %d lines, warnings %q, damage %+v", ext, len(got), warn, d)
		}
	}
}

// TestBigFrame: a frame over holdMax (one a foreign writer made) is handed
// out as it decodes, whole lines only, and a cut at its end keeps every
// whole line before the cut.
func TestBigFrame(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 5))
	lines := runLines("big", 3000, 2000, rnd) // about 6 MB, one frame
	path := filepath.Join(t.TempDir(), "big.jsonl.zst")
	writeFile(t, path, zstded(t, strings.Join(lines, "\n")+"\n"))
	got, warn, d := readLines(t, path)
	if strings.Join(got, "\n") != strings.Join(lines, "\n") || warn != "" || d != (Damage{}) {
		t.Fatalf("%d lines of %d, warnings %q", len(got), len(lines), warn)
	}
	whole, _ := os.ReadFile(path)
	writeFile(t, path, whole[:len(whole)*3/4])
	got, _, d = readLines(t, path)
	if d.Frames != 1 || len(got) < len(lines)/2 {
		t.Fatalf("cut: %d lines, damage %+v", len(got), d)
	}
	for i, l := range got {
		if l != lines[i] {
			t.Fatalf("cut: line %d is not whole: %.60q", i, l)
		}
	}
}
