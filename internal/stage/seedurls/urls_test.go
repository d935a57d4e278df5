package seedurls

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/seenset"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// runSeedURLs runs seed urls over input and returns stdout, the rejected
// lines' messages and the error.
func runSeedURLs(t *testing.T, input string, o Options) (string, string, error) {
	t.Helper()
	if o.Workers == 0 {
		o.Workers = 2
	}
	if o.Seen.TempDir == "" {
		o.Seen.TempDir = t.TempDir()
	}
	var out, errs bytes.Buffer
	s := cli.NewStream(strings.NewReader(input), &out, cli.NewLogger("seed", &errs, true))
	_, err := RunStream(context.Background(), s, o)
	if cerr := s.CloseOutput(); err == nil {
		err = cerr
	}
	return out.String(), errs.String(), err
}

func TestSeedURLs(t *testing.T) {
	tests := []struct {
		name       string
		opts       Options
		in         string
		want       string // expected stdout
		wantErrors []string
	}{
		{
			name: "issue example",
			in:   "HTTP://Example.COM:80/a/../b#x\n",
			want: `{"url":"http://example.com/b","depth":0,"site":"example.com"}` + "\n",
		},
		{
			name: "duplicates after normalisation, first wins",
			in:   "http://a.example/x\nHTTP://A.EXAMPLE:80/x#top\nhttp://a.example/./x\nhttps://a.example/x\n",
			want: `{"url":"http://a.example/x","depth":0,"site":"a.example"}` + "\n" +
				`{"url":"https://a.example/x","depth":0,"site":"a.example"}` + "\n",
		},
		{
			name: "query order matters by default",
			in:   "http://a.example/?a=1&b=2\nhttp://a.example/?b=2&a=1\n",
			want: `{"url":"http://a.example/?a=1&b=2","depth":0,"site":"a.example"}` + "\n" +
				`{"url":"http://a.example/?b=2&a=1","depth":0,"site":"a.example"}` + "\n",
		},
		{
			name: "sort-query",
			opts: Options{Normalize: urlx.Options{SortQuery: true}},
			in:   "http://a.example/?b=2&a=1\nhttp://a.example/?a=1&b=2\n",
			want: `{"url":"http://a.example/?a=1&b=2","depth":0,"site":"a.example"}` + "\n",
		},
		{
			name: "records keep meta and unknown fields, depth reset, site recomputed",
			in:   `{"x":1,"url":"https://lyj.zj.gov.cn/a#b","depth":3,"site":"wrong","priority":0.5,"meta":{"k": ["v", 2]},"anchor":"林业"}` + "\n",
			want: `{"url":"https://lyj.zj.gov.cn/a","depth":0,"site":"zj.gov.cn","x":1,"priority":0.5,"meta":{"k": ["v", 2]},"anchor":"林业"}` + "\n",
		},
		{
			name: "scope host",
			opts: Options{HostScope: true},
			in:   "https://lyj.zj.gov.cn:8443/\n",
			want: `{"url":"https://lyj.zj.gov.cn:8443/","depth":0,"site":"lyj.zj.gov.cn"}` + "\n",
		},
		{
			name: "default scheme",
			opts: Options{DefaultScheme: "https"},
			in:   "www.example.com\nlocalhost:8080/x\nhttp://b.example/\nmailto:a@b.example\n",
			want: `{"url":"https://www.example.com/","depth":0,"site":"example.com"}` + "\n" +
				`{"url":"https://localhost:8080/x","depth":0,"site":"localhost"}` + "\n" +
				`{"url":"http://b.example/","depth":0,"site":"b.example"}` + "\n",
			wantErrors: []string{"stdin:4: "},
		},
		{
			name: "comments, blanks and bad lines",
			in: "# seeds\n\nhttp://ok.example/\n{\"url\":\n{\"meta\":{}}\n{\"url\":\"http://ok.example/\",\"depth\":\"deep\"}\n" +
				"mailto:x@y.example\n/relative\nhttp://bad host/\nnot a url\nhttp://ok2.example/\n",
			want: `{"url":"http://ok.example/","depth":0,"site":"ok.example"}` + "\n" +
				`{"url":"http://ok2.example/","depth":0,"site":"ok2.example"}` + "\n",
			wantErrors: []string{
				"stdin:4: invalid JSON", `stdin:5: missing "url" field`, `stdin:6: field "depth"`,
				"stdin:7: ", "scheme is not http or https", "stdin:8: ", "no scheme",
				"stdin:9: ", "stdin:10: not a URL",
			},
		},
		{
			name: "escaping",
			in:   `{"url":"http://a.example/?q=\"x\"&r=<b>"}` + "\n" + "http://a.example/?q=a\\b\n",
			want: `{"url":"http://a.example/?q=%22x%22&r=%3Cb%3E","depth":0,"site":"a.example"}` + "\n" +
				`{"url":"http://a.example/?q=a\\b","depth":0,"site":"a.example"}` + "\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, err := runSeedURLs(t, tt.in, tt.opts)
			if out != tt.want {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, tt.want)
			}
			if len(tt.wantErrors) == 0 {
				if err != nil || errs != "" {
					t.Errorf("err = %v, stderr %q; want none", err, errs)
				}
				return
			}
			if err == nil {
				t.Error("no error; want rejected lines")
			}
			for _, e := range tt.wantErrors {
				if !strings.Contains(errs, e) {
					t.Errorf("stderr %q lacks %q", errs, e)
				}
			}
		})
	}
}

// TestSeedURLsSpillAndOrder de-duplicates many URLs through a tiny memory
// budget (so the seen set spills and merges) with several workers, and
// compares with a map: same records, same order.
func TestSeedURLsSpillAndOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var in strings.Builder
	var want []string
	seen := map[string]bool{}
	for i := 0; i < 20000; i++ {
		n := rng.IntN(8000)
		u := fmt.Sprintf("http://s%d.example/p/%d", n%50, n)
		if rng.IntN(3) == 0 {
			u = strings.ToUpper(u[:8]) + u[8:] + "#frag" // same URL after normalisation
		}
		in.WriteString(u + "\n")
		norm, err := urlx.Normalize(u)
		if err != nil {
			t.Fatal(err)
		}
		if !seen[norm] {
			seen[norm] = true
			want = append(want, norm)
		}
	}
	o := Options{Workers: 4, Seen: seenset.Options{Memory: 32 << 10}}
	out, errs, err := runSeedURLs(t, in.String(), o)
	if err != nil || errs != "" {
		t.Fatalf("err %v, stderr %q", err, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d records, want %d", len(lines), len(want))
	}
	for i, l := range lines {
		var r struct{ URL string }
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.URL != want[i] {
			t.Fatalf("record %d is %s, want %s", i, r.URL, want[i])
		}
	}
}

func TestHasScheme(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"http://a", true}, {"mailto:x", true}, {"HTTPS:x", true}, {"svn+ssh://x", true},
		{"example.com", false}, {"localhost:8080", false}, {"a.example:80/x", false},
		{"/path", false}, {"", false}, {":x", false}, {"www.example.com/a:b", false},
	}
	for _, tt := range tests {
		if got := hasScheme(tt.in); got != tt.want {
			t.Errorf("hasScheme(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// BenchmarkSeedURLs measures seed urls end to end in process: 100,000
// lines, a fifth of them duplicates in another spelling.
func BenchmarkSeedURLs(b *testing.B) {
	var in strings.Builder
	for i := 0; i < 100000; i++ {
		if i%5 == 4 {
			j := i - 3
			fmt.Fprintf(&in, "HTTPS://WWW.Site%d.Example.CN/news/%d/article-%d.html?id=%d#c\n", j%2000, j%97, j, j)
		} else {
			fmt.Fprintf(&in, "https://www.site%d.example.cn/news/%d/article-%d.html?id=%d\n", i%2000, i%97, i, i)
		}
	}
	input := in.String()
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		s := cli.NewStream(strings.NewReader(input), io.Discard, nil)
		st, err := RunStream(context.Background(), s, Options{Workers: 2, Seen: seenset.Options{TempDir: b.TempDir()}})
		if err != nil || st.URLs != 80000 {
			b.Fatalf("%+v, %v", st, err)
		}
	}
	b.ReportMetric(float64(b.N*100000)/b.Elapsed().Seconds(), "lines/s")
}

// TestSeedURLsBigRecords passes whole page records (large html fields)
// through: batches are bounded by bytes, and the fields come out intact.
func TestSeedURLsBigRecords(t *testing.T) {
	html := strings.Repeat("<p>林业</p>", 20000) // ~260 KB
	var in strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&in, `{"url":"http://a.example/%d","html":%q}`+"\n", i%20, html)
	}
	out, errs, err := runSeedURLs(t, in.String(), Options{Workers: 3})
	if err != nil || errs != "" {
		t.Fatalf("err %v, stderr %q", err, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 20 {
		t.Fatalf("%d records, want 20", len(lines))
	}
	for i, l := range lines {
		var r struct{ URL, HTML string }
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.HTML != html || r.URL != fmt.Sprintf("http://a.example/%d", i) {
			t.Fatalf("record %d: url %q, html intact %v, %v", i, r.URL, r.HTML == html, err)
		}
	}
}
