//go:build unix

package seed

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// seed report -o makes its file as any the user writes: 0644 less the
// umask, so a umask of 077 keeps a report private.
func TestReportFileRespectsUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := writeReport(path, nil, func(w io.Writer) error { _, err := io.WriteString(w, "<html>"); return err }); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v under umask 077, want 0600", st.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}
