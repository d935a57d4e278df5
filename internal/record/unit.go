package record

import "math"

// ClampUnit brings a priority or a score into [0,1], the range records
// carry them in (URL.Priority, Link.Priority); NaN becomes 0.
func ClampUnit(x float64) float64 {
	switch {
	case x < 0 || math.IsNaN(x):
		return 0
	case x > 1:
		return 1
	}
	return x
}
