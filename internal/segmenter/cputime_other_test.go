//go:build !unix

package segmenter

import "time"

// cpuTime is unknown here: the CPU metric is left out.
func cpuTime() time.Duration { return 0 }
