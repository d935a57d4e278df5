package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it after a deliberate change); got:\n%s", path, got)
	}
}

// TestChartGolden pins the SVG geometry of every chart of a small fixed
// crawl: axes, ticks, legend, curve points and bars.
func TestChartGolden(t *testing.T) {
	crawls := fixedCrawls(t)
	for _, name := range ChartNames() {
		t.Run(name, func(t *testing.T) {
			golden(t, name+".svg", []byte(Charts[name](crawls)))
		})
	}
	t.Run("hosts", func(t *testing.T) {
		golden(t, "hosts-0.svg", []byte(HostsChart(crawls[0], 0).SVG()))
	})
}

func TestPageGolden(t *testing.T) {
	var b bytes.Buffer
	p := Page{Generated: time.Date(2026, 11, 2, 9, 30, 0, 0, time.UTC), Crawls: fixedCrawls(t)}
	if err := WriteHTML(&b, p); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.html", b.Bytes())
}
