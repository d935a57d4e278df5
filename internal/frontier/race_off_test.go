//go:build !race

package frontier

const raceDetector = false
