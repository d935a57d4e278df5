// Package report draws a crawl report: harvest-rate curves, relevant pages
// found over time, pages and harvest per depth, the top hosts, parked hosts,
// refusals, leases and errors, for one crawl or several overlaid.
//
// Collect reads a crawl from any frontier store (through the small Source
// interface: Stats, History and Info); the rest are pure functions from
// that data to SVG and to one self-contained HTML page — inline SVG, inline
// CSS, no script and no network — that opens offline and travels as an
// email attachment. Every chart carries a <title> and a <desc> and is
// followed by a table of the same figures.
//
// With a Labelling, the page gains a section where a user marks pages
// relevant or not and exports them as labels for score train: the pages
// come from SampleArchives, a stratified, seeded sample of the crawl's
// archive of scored docs, and the section's one inline script is the only
// one the page's Content-Security-Policy lets run.
package report
