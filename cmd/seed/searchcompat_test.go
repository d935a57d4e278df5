package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchQuietAndProgress: -q is --quiet in seed search as everywhere,
// the old `-q QUERY` still searches (with a warning), and --progress on
// writes progress lines, which seed search used to ignore.
func TestSearchQuietAndProgress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"results":[{"url":"http://a.example.cn/%s","title":"A"}]}`, r.URL.Query().Get("q"))
	}))
	defer srv.Close()
	tests := []struct {
		name       string
		args       []string
		wantOut    int
		wantStderr []string
		noStderr   bool
	}{
		{"query and quiet", []string{"--query", "x", "--query", "y", "-q"}, 2, nil, true},
		{"old -q QUERY", []string{"-q", "x", "-q", "y"}, 2, []string{"-q QUERY is deprecated", "2 queries"}, false},
		{"progress on", []string{"--query", "x", "--progress", "on"}, 1, []string{"seed: 1 of at most 1 requests, 0 failed, 1 results"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runSeed(t, "", nil, append([]string{"search", "--endpoint", srv.URL, "--delay", "1ms"}, tt.args...)...)
			if r.code != 0 || strings.Count(r.stdout, "\n") != tt.wantOut {
				t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
			if tt.noStderr && r.stderr != "" {
				t.Errorf("quiet, yet stderr %q", r.stderr)
			}
			for _, s := range tt.wantStderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr %q lacks %q", r.stderr, s)
				}
			}
		})
	}
}

// TestScopeVocabulary: --scope says site for the registrable domain in
// seed urls and seed add, as in verify; the old "domain" warns.
func TestScopeVocabulary(t *testing.T) {
	db := filepath.Join(t.TempDir(), "crawl.db")
	tests := []struct {
		args     []string
		code     int
		warns    bool
		wantSite string
	}{
		{[]string{"urls", "--scope", "site"}, 0, false, `"site":"example.cn"`},
		{[]string{"urls", "--scope", "domain"}, 0, true, `"site":"example.cn"`},
		{[]string{"urls", "--scope", "host"}, 0, false, `"site":"www.example.cn"`},
		{[]string{"urls", "--scope", "planet"}, 2, false, ""},
		{[]string{"add", "--db", db, "--scope", "site"}, 0, false, ""},
		{[]string{"add", "--db", db, "--scope", "domain"}, 0, true, ""},
	}
	for _, tt := range tests {
		r := runSeed(t, "http://www.example.cn/a\n", nil, tt.args...)
		warned := strings.Contains(r.stderr, "--scope domain is deprecated: write --scope site")
		if r.code != tt.code || warned != tt.warns || !strings.Contains(r.stdout, tt.wantSite) {
			t.Errorf("seed %q: exit %d, stdout %q, stderr %q", tt.args, r.code, r.stdout, r.stderr)
		}
	}
}
