package seedurls

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/cli/clitest"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/seenset"
)

// tokenOtherFields is the pass-through seed urls had before jsonl.Members,
// encoding/json's tokens: the reference appendOtherFields must agree with
// byte for byte.
func tokenOtherFields(out, line []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if _, err := dec.Token(); err != nil {
		return out, err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out, err
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out, err
		}
		if key == "url" || key == "depth" || key == "site" {
			continue
		}
		out = append(out, ',')
		out = jsonl.AppendString(out, key)
		out = append(out, ':')
		out = append(out, v...)
	}
	return out, nil
}

var passThroughLines = []string{
	`{"url":"http://a.example/","meta":{"k": ["v", 2]},"x":1}`,
	`{ "x" : 1 , "url" : "http://a.example/" , "depth" : 3 , "site":"s", "y" :  "a\"b}" }`,
	`{"\u0075rl":"http://a.example/","\u0078":null,"x":true,"x":false}`,
	`{"url":"http://a.example/","anchor":"林业","k\n":[{"a":[1,{"b":"]}"}]}],"e":-1.5e3}`,
	"{\"url\":\"http://a.example/\",\t\"s\":\"\\ud83c\\udf32 \\/ \\\\\"}",
	`{"url":"http://a.example/","<k>&":"<v>&"}`,
}

func TestAppendOtherFieldsAsTokens(t *testing.T) {
	for _, l := range passThroughLines {
		checkOtherFields(t, []byte(l))
	}
}

func FuzzAppendOtherFields(f *testing.F) {
	for _, l := range passThroughLines {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var v map[string]any
		if !jsonl.IsJSON(line) || jsonl.Decode(line, &v) != nil {
			return
		}
		checkOtherFields(t, line)
	})
}

func checkOtherFields(t *testing.T, line []byte) {
	t.Helper()
	want, werr := tokenOtherFields(nil, line)
	if werr != nil {
		return // encoding/json's tokens refuse a leading byte order mark
	}
	got, err := appendOtherFields(nil, line)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%q:\ngot  %q, %v\nwant %q", line, got, err, want)
	}
}

// A line over the reader's cap is rejected once, counted once, and
// nothing is written for it, even when its URL is up front.
func TestSeedURLsLineTooLong(t *testing.T) {
	in := `{"url":"http://a.example/x","html":"` + strings.Repeat("x", 300) + `"}` + "\n" +
		strings.Repeat("http://b.example/", 20) + "\n" + "http://c.example/\n"
	var out, errs bytes.Buffer
	s := cli.NewStream(strings.NewReader(in), &out, cli.NewLogger("seed", &errs, true))
	s.In.MaxLine = 200
	st, err := RunStream(context.Background(), s, Options{Workers: 2, Seen: seensetIn(t)})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"url":"http://c.example/","depth":0,"site":"c.example"}` + "\n"
	if out.String() != want || st.Lines != 3 || st.URLs != 1 || st.Rejected != 2 {
		t.Errorf("stdout %q, stats %+v; want only c.example, 3 lines, 2 rejected", out.String(), st)
	}
	if n := strings.Count(errs.String(), "line too long"); n != 2 {
		t.Errorf("%d lines too long reported, want 2: %s", n, errs.String())
	}
}

// Run from Go: records out, rejected lines counted into cli.ErrRejected.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	err := Run(context.Background(), strings.NewReader("HTTP://A.example/x#y\nmailto:a@b.example\nhttp://a.example/x\n"), &out,
		Options{Seen: seensetIn(t)})
	if !errors.Is(err, cli.ErrRejected) || !strings.HasSuffix(err.Error(), ": 1") {
		t.Errorf("err %v, want 1 rejected", err)
	}
	if want := `{"url":"http://a.example/x","depth":0,"site":"a.example"}` + "\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
}

// An interrupt stops the run while the input stays open.
func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	in, w := io.Pipe()
	defer w.Close()
	done := make(chan error, 1)
	var out clitest.SyncBuffer
	go func() { done <- Run(ctx, in, &out, Options{Seen: seensetIn(t)}) }()
	fmt.Fprintln(w, "http://a.example/")
	waitFor(t, func() bool { return strings.Contains(out.String(), "a.example") })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
}

func seensetIn(t *testing.T) seenset.Options { return seenset.Options{TempDir: t.TempDir()} }

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}
