//go:build race

package main

// raceDetector: the tests run under the race detector.
const raceDetector = true
