// Package extract finds metadata in page text: publication dates in
// Chinese and English formats (ParseDate, FindDate) and the author and
// source of an article from bylines and 来源/作者/记者/编辑 cues
// (FindAuthor, FindSource, CleanAuthor).
//
// It works on strings, not on the DOM, so the segmenter can feed it meta
// tag values, JSON-LD fields, <time> attributes and visible text alike.
package extract
