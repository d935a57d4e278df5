// Package siteverify decides whether a whole website belongs to a topic
// at the lowest cost: the heuristic site verification of paper 0 (docs/algorithms.md §1)
// (docs/algorithms.md §1, step 4), with a breadth-first baseline beside it so
// that the saving can be measured.
//
// The pages of one site fall into equivalence classes A_k by their
// AbstractURL (path and file plus the sorted names of the query
// parameters): pages of one class are assumed to score alike. Each class
// keeps its expanded pages E_k and its queued pages Q_k, and
// H(A_k) = mean F(p) over E_k. Starting from the site's start page p0, the
// heuristic repeatedly picks the class of highest H that still has queued
// pages, fetches one of them, counts it as good when F(p) ≥ PageThreshold,
// adds its same-site links to their classes, and stops with RELEVANT once
// NumRelPages good pages were seen, or with NOT RELEVANT when nothing is
// queued or NumExpPages pages were fetched.
//
// The paper leaves open what H is for a class with nothing expanded. The
// default prior is the score of the page on which the class's first link
// was found; Prior offers the alternatives (the best or the mean score of
// the pages linking into the class, or a constant). A prior is a guess: a
// class whose mean already reached PageThreshold (proven) goes before any
// class that has only its prior, so that a start page scoring 1 does not
// send the search through every navigation class it links to before it
// returns to the product pages that scored 0.95 on average. Ties between classes
// of equal H go to the class with more queued pages (a site's main page
// template, such as its product pages, is the class most linked to), then
// to the class found first; within a class, the page linked from the best
// scoring page goes first (linkage locality), then the one found first.
//
// A page that cannot be judged (a fetch error, a non-2xx answer, a
// redirect to another site) costs a fetch but stays out of H: its content
// says nothing of its class. A class whose first two fetched pages both
// failed is taken as broken (H = 0). Pages robots.txt forbids cost
// nothing and count nowhere.
//
// Patience is an addition to the paper: a run that judged that many
// pages in a row without a good one ends as not relevant (pages that could
// not be judged do not count). With the
// paper's settings every site that is not relevant costs NumExpPages
// pages; patience is what brings the mean cost per site down (set it to 0
// for the paper's algorithm).
//
// Pages are fetched through a Fetcher (internal/fetcher in production,
// which brings robots.txt, per-host politeness and charset decoding) and
// judged by a Judge: the page is segmented (internal/segmenter) and scored
// with F(P,R) from the profile's rules by default, or with any page method
// of internal/scoring (vsm, pearson, combo).
//
// Grouper turns a stream of url records into sites: one group per site
// key (the registrable domain, or the exact host with ScopeHost), whose
// best-ranked URL becomes p0 (highest priority, then the lowest meta.rank,
// then input order) and whose other URLs are queued as well.
package siteverify
