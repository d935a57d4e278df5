package report

import (
	"fmt"
	"testing"
)

func TestNiceTicks(t *testing.T) {
	for _, c := range []struct {
		max  float64
		n    int
		want string
	}{
		{1, 5, "[0 0.2 0.4 0.6 0.8 1]"},
		{2012, 6, "[0 250 500 750 1000 1250 1500 1750 2000 2250]"},
		{250, 6, "[0 50 100 150 200 250]"},
		{7, 5, "[0 1 2 3 4 5 6 7]"},
		{0, 5, "[0 0.2 0.4 0.6 0.8 1]"},
		{130, 5, "[0 20 40 60 80 100 120 140]"},
		{3.2, 6, "[0 0.5 1 1.5 2 2.5 3 3.5]"},
	} {
		if got := fmt.Sprint(niceTicks(c.max, c.n)); got != c.want {
			t.Errorf("niceTicks(%v, %d) = %s, want %s", c.max, c.n, got, c.want)
		}
	}
}

func TestFormats(t *testing.T) {
	for _, c := range [][2]string{
		{formatCount(1234567), "1,234,567"}, {formatCount(-1234), "-1,234"}, {formatCount(999), "999"},
		{formatTick(25000), "25k"}, {formatTick(1.5e6), "1.5M"}, {formatTick(0.30000000000000004), "0.3"},
		{formatDuration(42), "42s"}, {formatDuration(185), "3m05s"}, {formatDuration(7800), "2h10m"}, {formatDuration(273600), "3d4h"},
		{num(12.34), "12.3"}, {num(-0.01), "0"}, {num(5), "5"},
		{truncate("abcdef", 4), "abc…"}, {truncate("森林经营", 4), "森林经营"},
	} {
		if c[0] != c[1] {
			t.Errorf("got %q, want %q", c[0], c[1])
		}
	}
}
