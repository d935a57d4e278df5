//go:build !race

package simweb

const raceEnabled = false
