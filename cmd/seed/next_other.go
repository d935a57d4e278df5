//go:build !unix

package main

import "io"

// outputGone cannot tell on this system; a closed pipe shows at the next
// write.
func outputGone(io.Writer) bool { return false }
