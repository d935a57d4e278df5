// Package e2e holds the project's end-to-end tests: whole crawls of the
// simulated web (internal/simweb) through the real stage programs, judged
// against simweb's ground truth. It has no code of its own.
package e2e
