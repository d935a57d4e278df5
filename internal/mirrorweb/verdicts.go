package mirrorweb

// Verdicts measure the crawler's own judgement of the pages it fetched —
// the `relevant` of score's records — against the truth: what a crawl
// believes it harvested, and how often it was right. A crawl whose pages
// are judged badly keeps what it should drop and learns from the wrong
// pages, whatever its link strategy.
type Verdicts struct {
	VerdictFigures
	// At holds the same figures over the first N fetch slots.
	At map[int]VerdictFigures `json:"at,omitempty"`
}

// VerdictFigures count the verdicts over a crawl's fetch slots. Judged
// counts the slots whose record carried a verdict and no error (a failed
// fetch has no page to judge); each judged slot is a true or false
// positive or negative, the truth being the harvest's: the page that came
// back, after redirects, is relevant to the topic. Precision is
// TruePos/(TruePos+FalsePos) and Recall TruePos/(TruePos+FalseNeg), 0
// when their denominator is. BelievedHarvest is the share of fetch slots
// whose record said relevant: the harvest the crawl believes it has, to
// set beside the harvest rate.
type VerdictFigures struct {
	Judged          int     `json:"judged"`
	TruePos         int     `json:"true_pos"`
	FalsePos        int     `json:"false_pos"`
	FalseNeg        int     `json:"false_neg"`
	TrueNeg         int     `json:"true_neg"`
	Precision       float64 `json:"precision"`
	Recall          float64 `json:"recall"`
	BelievedHarvest float64 `json:"believed_harvest"`
}

// verdictCounter adds up the verdicts slot by slot.
type verdictCounter struct {
	VerdictFigures
	slots, believed int
	any             bool // some record carried a verdict
}

// add counts one fetch slot: its record's verdict (nil: none), whether it
// failed, and whether its page is relevant by the truth.
func (c *verdictCounter) add(verdict *bool, failed, relevant bool) {
	c.slots++
	if verdict == nil {
		return
	}
	c.any = true
	if *verdict {
		c.believed++
	}
	if failed {
		return
	}
	c.Judged++
	switch {
	case *verdict && relevant:
		c.TruePos++
	case *verdict:
		c.FalsePos++
	case relevant:
		c.FalseNeg++
	default:
		c.TrueNeg++
	}
}

// figures are the counts so far with their ratios.
func (c *verdictCounter) figures() VerdictFigures {
	f := c.VerdictFigures
	f.Precision = ratio(f.TruePos, f.TruePos+f.FalsePos)
	f.Recall = ratio(f.TruePos, f.TruePos+f.FalseNeg)
	f.BelievedHarvest = ratio(c.believed, c.slots)
	return f
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
