package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
)

// evalOptions reads the --format and --at flags that simweb eval and
// simweb mirror eval share.
func evalOptions(c *ucli.Context) (format string, at []int, err error) {
	format = c.String("format")
	if format != "json" && format != "text" {
		return "", nil, cli.Usagef("--format: %q is not json or text", format)
	}
	for _, f := range strings.Split(c.String("at"), ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return "", nil, cli.Usagef("--at: %q is not a positive number of pages", f)
		}
		at = append(at, n)
	}
	return format, at, nil
}

// serveUntilDone serves on ln until the server fails or the command is
// interrupted, then shuts down within 5 s.
func serveUntilDone(c *ucli.Context, srv *http.Server, ln net.Listener, log *cli.Logger) error {
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-c.Context.Done():
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Infof("stopped")
	return nil
}
