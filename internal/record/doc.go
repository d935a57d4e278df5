// Package record defines the JSON Lines records that flow between the stages
// of focuscrawl: url, page, doc, block, scored doc, verdict and knowledge.
//
// These types are the contract between programs. Every kind carries its own
// Error field, so a failure is data that travels down the pipe instead of a
// record that silently disappears, and a Meta field, the user's own bag of
// data, which every stage passes through byte for byte. Decoding ignores
// fields a type does not know, so records produced by newer or foreign
// stages (a Python classifier standing in for score) are accepted.
//
// docs/records.md documents every field; a test decodes each of its
// examples into these types so the two cannot drift apart.
//
// Edge and Replay are the in-process contract between the frontier store
// and score: the crawled link graph and the pages crawled before a run.
package record
