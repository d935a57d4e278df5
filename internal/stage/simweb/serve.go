package simweb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

// ServeOptions say what simweb serve serves, and where.
type ServeOptions struct {
	Web  WebOptions // Faults is implied
	Addr string     // HOST:PORT to listen on (port 0: any free port)
	// Out gets the first line, {"addr":…,"proxy":…,…}, once the listener
	// is up; Log the log (nil: none).
	Out io.Writer
	Log *cli.Logger
}

// Serve serves every site of the web on one listener, by Host header and
// as an HTTP proxy, until ctx ends, then shuts down within 5 s.
func Serve(ctx context.Context, o ServeOptions) error {
	o.Web.Faults = true
	web, err := NewWeb(o.Web)
	if err != nil {
		return err
	}
	st := web.Stats()
	return serve(ctx, o.Addr, web.Handler(), o.Out, o.Log, map[string]any{"seed": o.Web.Seed, "sites": o.Web.Sites},
		func(addr net.Addr) string {
			return fmt.Sprintf("serving %d sites, %d pages on %s", st.Sites, st.Pages, addr)
		})
}

// MirrorServeOptions say what simweb mirror serve serves, and where.
type MirrorServeOptions struct {
	Mirror  MirrorOptions
	Addr    string // HOST:PORT to listen on (port 0: any free port)
	LogFile string // append every request to this file as a JSON line ("": none)
	Out     io.Writer
	Log     *cli.Logger
}

// MirrorServe serves the mirror on one listener, by Host header and as an
// HTTP proxy, until ctx ends; unknown hosts answer 502.
func MirrorServe(ctx context.Context, o MirrorServeOptions) error {
	web, err := NewMirror(o.Mirror)
	if err != nil {
		return err
	}
	defer web.Close()
	var reqLog io.Writer
	if o.LogFile != "" {
		f, err := os.OpenFile(o.LogFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("--log: %w", err)
		}
		defer f.Close()
		reqLog = f
	}
	return serve(ctx, o.Addr, web.Handler(reqLog), o.Out, o.Log, map[string]any{"hosts": len(web.Hosts()), "warc_records": web.Records()},
		func(addr net.Addr) string {
			return fmt.Sprintf("serving %d hosts (%d WARC records) on %s", len(web.Hosts()), web.Records(), addr)
		})
}

// serve listens on addr, writes the hello line (addr, proxy and the
// members of hello) to out, logs started, and serves h until the server
// fails or ctx ends, then shuts down within 5 s.
func serve(ctx context.Context, addr string, h http.Handler, out io.Writer, log *cli.Logger, hello map[string]any, started func(net.Addr) string) error {
	if log == nil {
		log = cli.NewLogger("", io.Discard, true)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	hello["addr"], hello["proxy"] = ln.Addr().String(), "http://"+ln.Addr().String()
	line, _ := json.Marshal(hello)
	if _, err := fmt.Fprintf(out, "%s\n", line); err != nil {
		ln.Close()
		return err
	}
	log.Infof("%s", started(ln.Addr()))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Infof("stopped")
	return nil
}
