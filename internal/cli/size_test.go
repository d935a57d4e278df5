package cli

import "testing"

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"512", 512, true}, {"64KiB", 64 << 10, true}, {"64k", 64 << 10, true},
		{"256MiB", 256 << 20, true}, {"256MB", 256 << 20, true}, {"256m", 256 << 20, true},
		{"1.5GiB", 3 << 29, true}, {"2g", 2 << 30, true}, {"1T", 1 << 40, true}, {" 10 MiB ", 10 << 20, true},
		{"", 0, false}, {"MiB", 0, false}, {"lots", 0, false}, {"-1", 0, false}, {"NaN", 0, false},
		{"Inf", 0, false}, {"1e30", 0, false}, {"12Q", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
