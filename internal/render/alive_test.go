package render

import (
	"context"
	"syscall"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestAliveAsksTheConnection: a browser whose connection dropped is dead
// even while its context still runs, which is how a killed browser looks
// between the call that saw it die and the allocator's cancel. Render
// tells a crash (try the page again in a new browser) from an ordinary
// failure by alive; asking the context alone made a page whose browser
// was killed during "open tab" an ordinary error under a loaded CI.
func TestAliveAsksTheConnection(t *testing.T) {
	lost := make(chan struct{})
	b := &browser{ctx: context.Background(), lost: lost}
	if !b.alive() {
		t.Fatal("alive with its connection up and its context running: want true")
	}
	close(lost)
	if b.alive() {
		t.Fatal("alive with its connection lost and its context running: want false")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if (&browser{ctx: ctx, lost: make(chan struct{})}).alive() {
		t.Fatal("alive with its context ended: want false")
	}
}

// TestBrowserDeadAsSoonAsACallFails: with a real browser, once a call has
// failed because the browser was killed, alive says so at once.
func TestBrowserDeadAsSoonAsACallFails(t *testing.T) {
	bin, err := FindChromium("")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		b, err := launch(bin, "", 1)
		if err != nil {
			t.Fatal(err)
		}
		if !b.alive() {
			t.Fatal("a browser just started is not alive")
		}
		if err := syscall.Kill(b.pid(), syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		var callErr error
		for callErr == nil {
			tab, closeTab := chromedp.NewContext(b.ctx)
			_, callErr = chromedp.Run(tab, chromedp.Evaluate[int]("1"))
			closeTab()
		}
		if b.alive() {
			t.Fatalf("run %d: a call failed with %q, yet the browser looks alive", i, callErr)
		}
		b.cancel()
	}
}
