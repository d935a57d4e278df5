// Package layers holds the test that keeps the repository's packages in
// layers: record types at the bottom, leaf utilities above them, the
// pipeline stages above those, then what combines stages, the
// command-line layer, and the commands on top. A package imports only
// packages of lower layers (and, where a layer allows it, of its own), so
// a stage can be used, tested and replaced without the others.
package layers
