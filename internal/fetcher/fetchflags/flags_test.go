package fetchflags

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher"
)

// verifyLike offers a subset and defines a --concurrency of its own, as
// cmd/verify does.
var verifyLike = Options{Omit: []string{Concurrency, TLSTimeout, Accept, Header, RobotsErrorTTL, Cookies, Queue}}

// parse runs a command offering Flags(o) (plus extra flags of its own)
// with args and returns what Config made of them.
func parse(t *testing.T, o Options, extra []ucli.Flag, args ...string) (fetcher.Config, error) {
	t.Helper()
	var cfg fetcher.Config
	var cfgErr error
	ran := false
	// As fetch: cli.New gives the flags their environment variables.
	app := cli.New(cli.App{
		Name:  "fetch",
		Flags: append(Flags(o), extra...),
		Action: func(c *ucli.Context) error {
			ran = true
			cfg, cfgErr = Config(c, o)
			return nil
		},
	})
	app.Writer, app.ErrWriter = io.Discard, io.Discard
	app.DisableSliceFlagSeparator = true
	if err := app.Run(append([]string{"fetch"}, args...)); err != nil {
		return cfg, err
	}
	if !ran {
		t.Fatalf("%v: the action did not run", args)
	}
	return cfg, cfgErr
}

func TestBadValueNamesItsFlag(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-c", "0"}, "--concurrency 0: must be at least 1"},
		{[]string{"--per-host", "-1"}, "--per-host -1: must be at least 1"},
		{[]string{"--queue", "0"}, "--queue 0: must be at least 1"},
		{[]string{"--retries", "-2"}, "--retries -2: must not be negative"},
		{[]string{"--max-redirects", "-1"}, "--max-redirects -1: must not be negative"},
		{[]string{"--timeout", "0s"}, "--timeout 0s: must be positive"},
		{[]string{"--max-bytes", "lots"}, `--max-bytes: "lots" is not a size`},
		{[]string{"--max-bytes", "0"}, "--max-bytes 0: must be positive"},
		{[]string{"--header", "no colon"}, `--header "no colon": want "Name: value"`},
		{[]string{"--resolve", "nonsense"}, `--resolve "nonsense": want HOST:PORT:ADDR`},
		{[]string{"--resolve", "a.test:80:127.0.0.1,b.test:x:127.0.0.1"}, `--resolve "b.test:x:127.0.0.1": bad port`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, err := parse(t, Options{}, nil, tt.args...)
			var ue *cli.UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v; want a usage error with %q", err, tt.want)
			}
		})
	}
}

// TestFetcherErrorsNameTheFlag: what only the fetcher checks (negative
// durations, the proxy URL, media types) comes back naming the flags.
func TestFetcherErrorsNameTheFlag(t *testing.T) {
	cfg, err := parse(t, Options{}, nil, "--delay", "-1s", "--proxy", "::", "--accept", "html")
	if err != nil {
		t.Fatalf("Config: %v", err)
	}
	_, err = fetcher.New(cfg)
	if err == nil {
		t.Fatal("fetcher.New accepted a negative delay, a bad proxy and a bad media type")
	}
	err = ConfigError(err)
	var ue *cli.UsageError
	if !errors.As(err, &ue) {
		t.Fatalf("ConfigError gave %T, want a usage error", err)
	}
	for _, want := range []string{"--delay -1s", `--proxy "::"`, `--accept "html"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}

func TestEnvironmentSetsFlags(t *testing.T) {
	t.Setenv("FOCUSCRAWL_PER_HOST", "3")
	t.Setenv("FOCUSCRAWL_DELAY", "250ms")
	t.Setenv("FOCUSCRAWL_MAX_BYTES", "2kb")
	t.Setenv("FOCUSCRAWL_RESOLVE", "a.test:80:127.0.0.1,*:443:127.0.0.2:8443")
	t.Setenv("FOCUSCRAWL_FETCH_COOKIES", "false") // fetch's own: verify has no --cookies
	cfg, err := parse(t, Options{}, nil, "--delay", "2s")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.PerHost != 3 || cfg.MaxBytes != 2048 || cfg.Cookies {
		t.Errorf("per-host %d, max-bytes %d, cookies %v; want 3, 2048, false from the environment", cfg.PerHost, cfg.MaxBytes, cfg.Cookies)
	}
	if cfg.Delay != 2*time.Second {
		t.Errorf("delay %v: the flag must beat FOCUSCRAWL_DELAY", cfg.Delay)
	}
	if cfg.Resolve["a.test:80"] != "127.0.0.1" || cfg.Resolve["*:443"] != "127.0.0.2:8443" || len(cfg.Resolve) != 2 {
		t.Errorf("resolve from a comma-separated FOCUSCRAWL_RESOLVE: %v", cfg.Resolve)
	}
}

func TestValues(t *testing.T) {
	cfg, err := parse(t, Options{}, nil,
		"-c", "8", "--max-bytes", "1.5MiB", "--accept", "text/html, text/plain", "--accept", "*/*+xml",
		"-H", "Accept-Language: zh-CN,zh;q=0.9", "--header-timeout", "5s", "--ignore-robots",
		"--user-agent", "probe/1", "--proxy", "http://127.0.0.1:8080", "--robots-error-ttl", "1m")
	if err != nil {
		t.Fatal(err)
	}
	want := fetcher.Defaults()
	want.Concurrency, want.MaxBytes, want.HeaderTimeout, want.IgnoreRobots = 8, 3<<19, 5*time.Second, true
	want.UserAgent, want.Proxy, want.RobotsErrorTTL = "probe/1", "http://127.0.0.1:8080", time.Minute
	if got := strings.Join(cfg.Accept, " "); got != "text/html text/plain */*+xml" {
		t.Errorf("accept %q", got)
	}
	if got := cfg.Header.Get("Accept-Language"); got != "zh-CN,zh;q=0.9" {
		t.Errorf("header Accept-Language %q (commas must survive)", got)
	}
	cfg.Accept, cfg.Header, want.Accept = nil, nil, nil
	cfg.Resolve = nil
	if !sameConfig(cfg, want) {
		t.Errorf("config\n%+v\nwant\n%+v", cfg, want)
	}
}

// TestDefaults: with no flag given, the configuration is the fetcher's
// default, whatever subset is offered.
func TestDefaults(t *testing.T) {
	for name, o := range map[string]Options{"all": {}, "verify-like": verifyLike} {
		t.Run(name, func(t *testing.T) {
			cfg, err := parse(t, o, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Header) != 0 || len(cfg.Resolve) != 0 {
				t.Errorf("header %v, resolve %v; want none", cfg.Header, cfg.Resolve)
			}
			cfg.Header, cfg.Resolve = nil, nil
			if !sameConfig(cfg, fetcher.Defaults()) {
				t.Errorf("config\n%+v\nwant the defaults\n%+v", cfg, fetcher.Defaults())
			}
		})
	}
}

// TestOmittedFlags: a subset leaves the other settings at their defaults,
// even when the command has a flag of the same name for itself.
func TestOmittedFlags(t *testing.T) {
	own := &ucli.IntFlag{Name: Concurrency, Aliases: []string{"c"}, Value: 16}
	cfg, err := parse(t, verifyLike, []ucli.Flag{own}, "-c", "5", "--per-host", "2")
	if err != nil {
		t.Fatal(err)
	}
	if d := fetcher.Defaults(); cfg.Concurrency != d.Concurrency || cfg.PerHost != 2 {
		t.Errorf("concurrency %d (want the default %d), per-host %d (want 2)", cfg.Concurrency, d.Concurrency, cfg.PerHost)
	}
	if _, err := parse(t, verifyLike, []ucli.Flag{own}, "--queue", "5"); err == nil {
		t.Error("an omitted flag was accepted")
	}
	var names []string
	for _, f := range Flags(verifyLike) {
		names = append(names, f.Names()...)
	}
	for _, omitted := range verifyLike.Omit {
		for _, n := range names {
			if n == omitted {
				t.Errorf("--%s offered though omitted", n)
			}
		}
	}
}

// TestHelp: every flag shows its placeholder, its environment variable
// (shared with verify, or fetch's own) and its default.
func TestHelp(t *testing.T) {
	var help bytes.Buffer
	app := cli.New(cli.App{Name: "fetch", Flags: Flags(Options{})})
	app.Writer = &help
	if err := app.Run([]string{"t", "--help"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"--concurrency N, -c N", "[$FOCUSCRAWL_FETCH_CONCURRENCY]", "--header HEADER, -H HEADER", "[$FOCUSCRAWL_FETCH_HEADER]",
		"(default: 1s) [$FOCUSCRAWL_DELAY]", `(default: "10MiB") [$FOCUSCRAWL_MAX_BYTES]`,
		"wait for response headers (default: --timeout) [$FOCUSCRAWL_HEADER_TIMEOUT]",
		"(default: $HTTP_PROXY, $HTTPS_PROXY, $NO_PROXY) [$FOCUSCRAWL_PROXY]",
		"(default: text/html,application/xhtml+xml) [$FOCUSCRAWL_FETCH_ACCEPT]",
		"(default: true) [$FOCUSCRAWL_FETCH_COOKIES]",
	} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("--help lacks %q:\n%s", want, help.String())
		}
	}
	if got, _ := cli.ParseSize(defaultMaxBytes); got != fetcher.Defaults().MaxBytes {
		t.Errorf("--max-bytes shows %s (%d bytes), the fetcher's default is %d", defaultMaxBytes, got, fetcher.Defaults().MaxBytes)
	}
}

func TestUnknownOmitPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Flags accepted an unknown flag name")
		}
	}()
	Flags(Options{Omit: []string{"concurency"}})
}

// sameConfig compares two configurations but for Header, Resolve, Accept,
// WARC and Warnf, which tests look at on their own.
func sameConfig(a, b fetcher.Config) bool {
	strip := func(c fetcher.Config) fetcher.Config {
		c.Header, c.Resolve, c.Accept, c.WARC, c.Warnf = nil, nil, nil, nil, nil
		return c
	}
	return reflect.DeepEqual(strip(a), strip(b))
}
