package frontier

import (
	"bytes"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Merge adds part, one line's batch from Ingester.Parse, to b, and
// returns the weight it adds: one for the line and one per URL it queues,
// which is what a caller bounds a transaction by.
func (b *Batch) Merge(part Batch) int {
	for k, n := range part.Refused {
		if b.Refused == nil {
			b.Refused = map[string]int64{}
		}
		b.Refused[k] += n
	}
	b.Done = append(b.Done, part.Done...)
	b.Queue = append(b.Queue, part.Queue...)
	b.Edges = append(b.Edges, part.Edges...)
	return 1 + len(part.Queue)
}

// kindKeys are the fields record.Sniff tells kinds by. A line that names
// none of them is a url record, which spares the probe decoding for the
// common case of URL lists.
var kindKeys = [][]byte{[]byte(`"status"`), []byte(`"html"`), []byte(`"score"`), []byte(`"relevant"`),
	[]byte(`"tokens"`), []byte(`"blocks"`), []byte(`"page_type"`), []byte(`"content"`), []byte(`"kind"`),
	[]byte(`"pages_fetched"`), []byte(`"fingerprint"`)}

// sniff is record.Sniff made cheap for the lines that are url records.
func sniff(line []byte) record.Kind {
	if !bytes.Contains(line, []byte(`\u`)) { // keys may be written with escapes
		found := false
		for _, k := range kindKeys {
			if bytes.Contains(line, k) {
				found = true
				break
			}
		}
		if !found {
			return record.KindURL
		}
	}
	k, ok := record.Sniff(line)
	if !ok {
		// Not JSON after all (or nested too deep): the url record
		// decoder says what is wrong, in the words other stages use.
		return record.KindURL
	}
	return k
}
