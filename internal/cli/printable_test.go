package cli

import "testing"

func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, line, block string }{
		{"plain title", "plain title", "plain title"},
		{"森林经营 — forests", "森林经营 — forests", "森林经营 — forests"},
		// The title: retitle the window (OSC … BEL), clear the screen (CSI).
		{"\x1b]0;PWNED\x07\x1b[2JForest news", "Forest news", "Forest news"},
		{"a\x1b[1;31mred\x1b[0m b", "ared b", "ared b"},
		{"osc with ST \x1b]8;;http://evil/\x1b\\link\x1b]8;;\x1b\\ end", "osc with ST link end", "osc with ST link end"},
		{"bell\x07 and NUL\x00 and DEL\x7f", "bell and NUL and DEL", "bell and NUL and DEL"},
		{"two\nlines\tand\r\n", "two lines and  ", "two\nlines\tand \n"},
		{"c1 csi \u009b2J and \u0085next", "c1 csi  and next", "c1 csi  and next"},
		{"ESC alone at the end \x1b", "ESC alone at the end ", "ESC alone at the end "},
		{"ESC c resets: \x1bc!", "ESC c resets: !", "ESC c resets: !"},
		{"unterminated \x1b]0;title", "unterminated ", "unterminated "},
		{"bidi \u202egnp.exe\u202c", "bidi gnp.exe", "bidi gnp.exe"},
		{"bad \xff utf8", "bad \ufffd utf8", "bad \ufffd utf8"},
	} {
		if got := Printable(tc.in); got != tc.line {
			t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.line)
		}
		if got := PrintableText(tc.in); got != tc.block {
			t.Errorf("PrintableText(%q) = %q, want %q", tc.in, got, tc.block)
		}
	}
}

func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"\x1b]0;x\x07", "\x1b[2J", "a\u009b1m", "\xff\x1b", "\u202e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Printable(s), PrintableText(s)} {
			for _, r := range out {
				if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || isBidiControl(r) {
					t.Fatalf("%q kept control %U: %q", s, r, out)
				}
			}
		}
		if Printable(Printable(s)) != Printable(s) {
			t.Fatalf("Printable is not idempotent on %q", s)
		}
	})
}
