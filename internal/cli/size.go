package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseSize reads a byte size such as 512, 64KiB, 256MiB, 1.5GB or 2g.
// K, M, G and T are binary multiples (1024) whether or not an "i" or "B"
// follows, as is usual for memory budgets and body caps.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	u := strings.ToUpper(t)
	u = strings.TrimSuffix(u, "B")
	u = strings.TrimSuffix(u, "I")
	mult := int64(1)
	if n := len(u); n > 0 {
		switch u[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			u = u[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(u), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("%q is not a size (examples: 1048576, 64KiB, 256MiB, 2GiB)", s)
	}
	return int64(v * float64(mult)), nil
}
