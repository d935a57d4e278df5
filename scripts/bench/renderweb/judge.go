package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/render/testweb"
)

var scriptElem = regexp.MustCompile(`(?is)<script\b.*?</script>`)

// judge reads page records and prints, as markdown rows, the share of the
// pages needing scripts that were rendered, of the others that were, the
// script-built markers found, and the records missing or in error.
func judge(web *testweb.Web, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	truth := map[string]testweb.Page{}
	for _, p := range web.Pages() {
		truth[p.Path] = p
	}
	seen := map[string]bool{}
	var need, needR, other, otherR, markers, found, errs int
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var p record.Page
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return err
		}
		u, err := url.Parse(p.URL)
		if err != nil {
			return err
		}
		t, ok := truth[u.Path]
		if !ok {
			continue
		}
		seen[u.Path] = true
		if p.Error != "" {
			errs++
			fmt.Fprintf(os.Stderr, "%s: %s\n", u.Path, p.Error)
		}
		shown := scriptElem.ReplaceAllString(p.HTML, "")
		if t.NeedsJS {
			need++
			if p.Rendered {
				needR++
			}
			for _, m := range t.Markers {
				markers++
				if strings.Contains(shown, m) {
					found++
				} else {
					fmt.Fprintf(os.Stderr, "%s: %q not found (rendered %v, cut %v, %d ms)\n", u.Path, m, p.Rendered, p.RenderCut, p.RenderMS)
				}
			}
		} else {
			other++
			if p.Rendered {
				otherR++
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	pct := func(a, b int) string { return fmt.Sprintf("%d/%d (%.1f%%)", a, b, 100*float64(a)/float64(max(b, 1))) }
	fmt.Printf("| pages needing scripts rendered | %s |\n", pct(needR, need))
	fmt.Printf("| other pages rendered | %s |\n", pct(otherR, other))
	fmt.Printf("| script-built markers found | %s |\n", pct(found, markers))
	fmt.Printf("| records in error | %d; missing %d of %d |\n", errs, len(truth)-len(seen), len(truth))
	return nil
}
