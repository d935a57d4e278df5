// Package pagemodel is a page classifier learned from labelled pages: an
// L2-regularised logistic regression over a page's words in feature groups
// (body, title, URL, navigation, the anchor that led to it), with the topic
// profile's own page score as a prior, and self-training on the unlabelled
// pages of a crawl (docs/score.md, "Page models").
//
// The model is
//
//	P(relevant | page) = σ(b + a·(s − c) + Σ_g Σ_t w_{g,t}·x_{g,t})
//
// where s is the profile's page score (vsm, in [0,1]), c its page threshold,
// and x_{g,t} the value of term t in group g: the page's unit TF-IDF vector
// for the body, 1/√n for each of the n distinct terms of the other groups.
// Training minimises the weighted log loss plus λ/2·‖w‖² and a Gaussian
// prior on a centred at a₀ > 0 (the profile is believed until the labels
// say otherwise): with no labels at all the model is the profile's score
// through a logistic curve, and five good and five bad pages move it only
// as far as they are consistent. Self-training then labels the unlabelled
// pages the model is most sure of (in the proportion it estimates for the
// pool), refits with them at a fraction of a label's weight, and stops when
// the pseudo-labels settle or a labelled page would be misjudged.
//
// The package knows nothing of the profile, the tokenizer or the record
// format: the caller (internal/scoring) turns a doc into a Page.
package pagemodel
