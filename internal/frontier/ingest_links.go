package frontier

import (
	"bytes"
	"encoding/json"
	"errors"

	gojson "github.com/goccy/go-json"
)

// MaxPageLinks bounds the links seed add takes from one record, as
// segment's --max-links (10,000 by default) bounds those it writes: the
// links past it are counted under GuardMaxLinks and never decoded, so a
// hostile record of a million links costs its line's bytes, not a
// million decoded links.
const MaxPageLinks = 10000

// GuardMaxLinks counts the links past MaxPageLinks of one record.
const GuardMaxLinks = "max-links"

// minLinkBytes is the fewest bytes one link of a list takes: {"url":""}
// and a comma.
const minLinkBytes = 11

// pageLinks are a record's links as seed add takes them: at most
// MaxPageLinks. When there were more, one last element past them carries
// only their count (ingestLink.past), so that the type stays the list of
// links the record has (TestIngestFieldsOf); kept and dropped read it.
type pageLinks []ingestLink

// kept gives the links taken.
func (p pageLinks) kept() []ingestLink {
	if n := len(p); n > 0 && p[n-1].past > 0 {
		return p[:n-1]
	}
	return p
}

// dropped counts the links past MaxPageLinks.
func (p pageLinks) dropped() int {
	if n := len(p); n > 0 {
		return p[n-1].past
	}
	return 0
}

// UnmarshalJSON decodes the list in one call when it is too short to hold
// more than MaxPageLinks links, and streams it otherwise.
func (p *pageLinks) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if string(data) == "null" {
		return nil
	}
	if len(data) <= MaxPageLinks*minLinkBytes {
		var list []ingestLink
		err := gojson.Unmarshal(data, &list)
		*p = list
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil {
		return err
	} else if d, ok := t.(json.Delim); !ok || d != '[' {
		return errors.New(`"links" is not a list`)
	}
	var list []ingestLink
	past := 0
	for dec.More() {
		if len(list) < MaxPageLinks {
			var l ingestLink
			if err := dec.Decode(&l); err != nil {
				return err
			}
			list = append(list, l)
			continue
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
		past++
	}
	if past > 0 {
		list = append(list, ingestLink{past: past})
	}
	*p = list
	_, err := dec.Token()
	return err
}
