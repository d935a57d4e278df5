package cli

import (
	"bytes"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

func TestChoice(t *testing.T) {
	ch := Choice{Flag: "scope", Values: []string{ScopeHost, ScopeSite}, Deprecated: map[string]string{"domain": ScopeSite}}
	tests := []struct {
		arg, want, warn string
		code            int
	}{
		{"site", "site", "", ExitOK},
		{"host", "host", "", ExitOK},
		{"domain", "site", "tool: --scope domain is deprecated: write --scope site", ExitOK},
		{"planet", "", `--scope: "planet" is not host or site`, ExitUsage},
	}
	for _, tt := range tests {
		var got string
		app := New(App{Name: "tool", Flags: []ucli.Flag{&ucli.StringFlag{Name: "scope"}}, Action: func(c *ucli.Context) (err error) {
			got, err = ch.Value(c)
			return err
		}})
		var stderr bytes.Buffer
		code := Run(app, []string{"tool", "--scope", tt.arg}, &stderr)
		if code != tt.code || got != tt.want || (tt.warn == "") != (stderr.Len() == 0) || !strings.Contains(stderr.String(), tt.warn) {
			t.Errorf("--scope %s: exit %d, %q, stderr %q", tt.arg, code, got, stderr.String())
		}
	}
}
