package mirrorweb

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealwebScript builds the real web with scripts/realweb.sh (eight
// Debian packages, about 130 MB downloaded once) into the directory named
// by FOCUSCRAWL_REALWEB_DIR (a relative path is taken from the repository
// root, as the script takes it), and checks the mirror it describes: nine
// hosts, a portal linking the eight packages, each answering. It runs only
// when that variable is set: it needs apt-get and the Debian archive.
func TestRealwebScript(t *testing.T) {
	dir := os.Getenv("FOCUSCRAWL_REALWEB_DIR")
	if dir == "" {
		t.Skip("set FOCUSCRAWL_REALWEB_DIR to build the real web with scripts/realweb.sh")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(repo, dir)
	}
	cmd := exec.Command("bash", "scripts/realweb.sh", dir)
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("realweb.sh: %v\n%s", err, out)
	}
	sources, err := ReadSources(filepath.Join(dir, "sources.txt"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := New(sources, Options{AutoIndex: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if len(w.Hosts()) != 9 {
		t.Fatalf("hosts %v, want the portal and eight packages", w.Hosts())
	}
	portal := w.Get("http://portal.docs.test/")
	links := Links("http://portal.docs.test/", portal.Body, portal.Header.Get("Content-Type"))
	if len(links) != 8 {
		t.Fatalf("portal links %v, want eight", links)
	}
	for _, l := range links {
		if r := w.Get(l); r.Status != 200 || !isHTML(r.Header.Get("Content-Type")) {
			t.Errorf("%s: %d %s", l, r.Status, r.Header.Get("Content-Type"))
		}
	}
	rules, err := ReadRules(filepath.Join("..", "..", "examples", "topics", "realweb", "truth.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := w.Build(context.Background(), []string{"http://portal.docs.test/"}, rules)
	if err != nil {
		t.Fatal(err)
	}
	for _, topic := range rules.Topics() {
		r, err := g.Evaluate(topic, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d relevant pages, %d reachable", topic, r.RelevantExist, r.Reachable)
		if r.Reachable == 0 {
			t.Errorf("%s: no relevant page reachable from the portal", topic)
		}
	}
	dns := map[string]bool{}
	for _, n := range g.Nodes {
		if n.Unfetchable == "dns" && !strings.HasSuffix(n.Host, ".docs.test") {
			dns[n.Host] = true
		}
	}
	if len(dns) < 50 {
		t.Errorf("the packages link to %d hosts outside the mirror; want their external links kept", len(dns))
	}
}
