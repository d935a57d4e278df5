package jsonl

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

func TestReadURLs(t *testing.T) {
	input := strings.Join([]string{
		"http://a.test/",
		"# a comment",
		`{"url":"http://b.test/","depth":2,"meta":{"job":7}}`,
		`{"url": broken`,
		"http://refused.test/",
		"http://" + strings.Repeat("x", 200) + ".test/",
		`{"url":"http://c.test/","meta":{"job":8}}`,
		"",
	}, "\n")
	r := NewReader(nil, strings.NewReader(input))
	r.MaxLine = 100
	var log bytes.Buffer
	rej, _ := OpenRejects("", &log)
	var got []record.URL
	err := ReadURLs(context.Background(), r, rej, func(u record.URL) error {
		if strings.Contains(u.URL, "refused") {
			return errors.New("not wanted")
		}
		got = append(got, u)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, u := range got {
		urls = append(urls, u.URL)
	}
	if strings.Join(urls, " ") != "http://a.test/ http://b.test/ http://c.test/" || got[1].Depth != 2 {
		t.Errorf("records %+v", got)
	}
	// Meta is the record's own, not a view of a reused line buffer.
	if string(got[1].Meta) != `{"job":7}` || string(got[2].Meta) != `{"job":8}` {
		t.Errorf("meta %s and %s", got[1].Meta, got[2].Meta)
	}
	for _, want := range []string{"stdin:4: invalid JSON", "stdin:5: not wanted", "stdin:6: line too long"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("rejects log lacks %q:\n%s", want, log.String())
		}
	}
	if rej.Count() != 3 {
		t.Errorf("%d rejected, want 3", rej.Count())
	}
}

func TestReadURLsStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := NewReader(nil, strings.NewReader("http://a.test/\nhttp://b.test/\nhttp://c.test/\n"))
	rej, _ := OpenRejects("", nil)
	n := 0
	err := ReadURLs(ctx, r, rej, func(record.URL) error {
		n++
		cancel()
		return nil
	})
	if err != nil || n != 1 {
		t.Fatalf("%d records read after cancel, err %v; want 1, nil", n, err)
	}
}
