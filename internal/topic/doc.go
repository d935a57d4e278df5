// Package topic loads topic profiles: the YAML files that describe one topic
// (bookstores, forestry, travel) for every stage of focuscrawl.
//
// A profile carries the topic text and weighted keywords (the topic vector of
// score and dedupe), labelled examples (score's linkmodel), the domain
// dictionary and stop words (the segmenter), navigation words and ad hosts
// (link-block classification), synonyms (the RW link heuristic), the rule
// set R of F(P,R) with its page and link thresholds (verify and score's
// rules method), the host library with authority ranks (seed hosts, scope)
// and per-site extraction rules (segment).
//
// Load and Parse check the whole file before anything runs: an unknown key
// (with a "did you mean"), a wrong type, a bad regular expression or CSS
// selector, a negative or non-numeric weight, a threshold outside [0,1], an
// unknown host rank or a missing dictionary or example file is reported as
// an *Error naming the file, the line and the key; all problems of a file
// are reported together. A loaded Profile is read-only and safe for
// concurrent use: rules are compiled once, at load time.
//
// The format is documented key by key in docs/topic.md.
package topic
