package scoring

import (
	"strings"
	"testing"
)

func TestParseWeights(t *testing.T) {
	tests := []struct {
		in      string
		fold    bool
		want    map[string]float64
		wantErr string
	}{
		{"a=0.5,b=0.5", false, map[string]float64{"a": 0.5, "b": 0.5}, ""},
		{" a = 1 , ", false, map[string]float64{"a": 1}, ""},
		{"A=2", true, map[string]float64{"a": 2}, ""},
		{"A=2", false, nil, `"A=2": want NAME=WEIGHT with NAME a, b or c`},
		{"a", false, nil, "want NAME=WEIGHT"},
		{"a=-1", false, nil, "weight must be a number ≥ 0"},
		{"a=NaN", false, nil, "weight must be a number ≥ 0"},
		{"a=x", false, nil, "weight must be a number ≥ 0"},
		{"a=0,b=0", false, nil, "the weights sum to 0"},
		{"", false, nil, "the weights sum to 0"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseWeights(tt.in, "NAME", tt.fold, "a", "b", "c")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %v, want %v", k, got[k], v)
				}
			}
		})
	}
}
