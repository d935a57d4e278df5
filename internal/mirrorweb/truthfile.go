package mirrorweb

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// header is the first line of a truth file.
type header struct {
	Truth   string   `json:"truth"`
	Portals []string `json:"portals"`
	Topics  []string `json:"topics"`
	Nodes   int      `json:"nodes"`
}

const truthVersion = "mirrorweb/1"

// Records hands emit the truth as records: a header naming the portals
// and topics, then one Node per record in ID order.
func (g *Graph) Records(emit func(v any) error) error {
	if err := emit(header{Truth: truthVersion, Portals: g.Portals, Topics: g.Topics, Nodes: len(g.Nodes)}); err != nil {
		return err
	}
	for _, n := range g.Nodes {
		if err := emit(n); err != nil {
			return err
		}
	}
	return nil
}

// Write writes the truth as JSON lines (Records).
func (g *Graph) Write(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := g.Records(func(v any) error { return enc.Encode(v) }); err != nil {
		return err
	}
	return bw.Flush()
}

// ReadGraph reads a truth file written by Write (plain, .gz or .zst);
// errors name the line.
func ReadGraph(path string) (*Graph, error) {
	r := jsonl.NewReader([]string{path}, nil)
	defer r.Close()
	g := &Graph{byURL: map[string]int{}}
	first := true
	for {
		l, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if first {
			first = false
			var h header
			if err := json.Unmarshal(l.Bytes, &h); err != nil || h.Truth != truthVersion {
				return nil, fmt.Errorf("%s: not a mirror truth file (want a header with \"truth\":%q)", l, truthVersion)
			}
			g.Portals, g.Topics = h.Portals, h.Topics
			continue
		}
		n := &Node{}
		if err := json.Unmarshal(l.Bytes, n); err != nil {
			return nil, fmt.Errorf("%s: %v", l, err)
		}
		if n.ID != len(g.Nodes) {
			return nil, fmt.Errorf("%s: node id %d out of order (want %d)", l, n.ID, len(g.Nodes))
		}
		g.Nodes = append(g.Nodes, n)
		g.byURL[n.URL] = n.ID
	}
	if first {
		return nil, fmt.Errorf("%s: empty truth file", path)
	}
	for _, n := range g.Nodes {
		for _, l := range n.Links {
			if l < 0 || l >= len(g.Nodes) {
				return nil, fmt.Errorf("%s: node %d: link to unknown node %d", path, n.ID, l)
			}
		}
		if n.Location != nil && (*n.Location < 0 || *n.Location >= len(g.Nodes)) {
			return nil, fmt.Errorf("%s: node %d: location is unknown node %d", path, n.ID, *n.Location)
		}
	}
	return g, nil
}
