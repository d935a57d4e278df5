// Package extract finds metadata in page text: publication dates in
// Chinese and English formats (ParseDate, FindDate) and the cues that
// introduce them (DateCue: 发布时间, Published on), and the author and
// source of an article from bylines and 来源/作者/记者/编辑 cues
// (FindAuthor, FindSource, CleanAuthor).
//
// The cues are defined by regular expressions, kept in the tests; the
// code finds them by their words (DateCue, colonCue), since a regexp
// without a literal prefix tries every byte of a long text, and the date
// layouts' regexps run only on text that holds what they need
// (layoutNeeds).
//
// It works on strings, not on the DOM, so the segmenter can feed it meta
// tag values, JSON-LD fields, <time> attributes and visible text alike.
package extract
