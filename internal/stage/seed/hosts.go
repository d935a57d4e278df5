package seed

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// hostMeta is the meta object of a url record from seed hosts.
type hostMeta struct {
	Rank string `json:"rank"`
	Name string `json:"name,omitempty"`
}

// RankPriorities reads a RANK=P,… list (seed hosts --rank-priority) over
// the default mapping of topic.RankWeight.
func RankPriorities(spec string) (map[string]float64, error) {
	m := map[string]float64{}
	for _, r := range topic.Ranks {
		m[r] = topic.RankWeight(r)
	}
	if strings.TrimSpace(spec) == "" {
		return m, nil
	}
	for _, part := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return nil, fmt.Errorf("%q is not RANK=PRIORITY", part)
		}
		k = strings.TrimSpace(k)
		if _, known := m[k]; !known {
			return nil, fmt.Errorf("unknown rank %q (ranks: %s)", k, strings.Join(topic.Ranks, ", "))
		}
		p, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || p < 0 || p > 1 {
			return nil, fmt.Errorf("%s=%s: a priority is a number in [0,1]", k, v)
		}
		m[k] = p
	}
	return m, nil
}

// Hosts writes the root URL of every host of a topic's address library
// as a url record (seed hosts), with the priority prios gives its rank,
// and returns how many it wrote; a host that makes no URL is logged.
func Hosts(w *jsonl.Writer, log *cli.Logger, hosts []topic.Host, scheme string, prios map[string]float64) (int, error) {
	n := 0
	for _, h := range hosts {
		host := strings.TrimPrefix(h.Host, "*.")
		u, err := urlx.Normalize(scheme + "://" + host + "/")
		if err != nil {
			log.Errorf("host %q: %v", h.Host, err)
			continue
		}
		meta, err := json.Marshal(hostMeta{Rank: h.Rank, Name: h.Name})
		if err != nil {
			return n, err
		}
		rank := h.Rank
		if _, ok := prios[rank]; !ok {
			rank = topic.RankOther
		}
		r := record.URL{URL: u, Meta: meta}
		r.Priority, r.Site = prios[rank], urlx.SiteKey(u)
		if err := w.Write(r); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
