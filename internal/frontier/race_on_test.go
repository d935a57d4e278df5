//go:build race

package frontier

// raceDetector: the tests run under the race detector, ten times slower;
// the tests that only compare stores' orders take fewer URLs then (the
// plain run keeps the full sizes).
const raceDetector = true
