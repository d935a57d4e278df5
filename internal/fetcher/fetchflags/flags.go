package fetchflags

import (
	"fmt"
	"slices"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher"
)

// Flag names; each is settable by the environment variable cli.FlagEnv
// gives it too (FOCUSCRAWL_DELAY, FOCUSCRAWL_FETCH_QUEUE).
const (
	Concurrency    = "concurrency"
	PerHost        = "per-host"
	Delay          = "delay"
	MaxCrawlDelay  = "max-crawl-delay"
	Retries        = "retries"
	Backoff        = "backoff"
	MaxBackoff     = "max-backoff"
	MaxRetryAfter  = "max-retry-after"
	Timeout        = "timeout"
	ConnectTimeout = "connect-timeout"
	TLSTimeout     = "tls-timeout"
	HeaderTimeout  = "header-timeout"
	MaxBytes       = "max-bytes"
	MaxRedirects   = "max-redirects"
	Accept         = "accept"
	Header         = "header"
	UserAgent      = "user-agent"
	IgnoreRobots   = "ignore-robots"
	RobotsTTL      = "robots-ttl"
	RobotsErrorTTL = "robots-error-ttl"
	Proxy          = "proxy"
	Resolve        = "resolve"
	Insecure       = "insecure"
	AllowPrivate   = "allow-private"
	Cookies        = "cookies"
	Queue          = "queue"
)

// defaultMaxBytes is fetcher.Defaults().MaxBytes as --help shows it.
const defaultMaxBytes = "10MiB"

// Options adapt the flags to one command.
type Options struct {
	// Omit names the flags the command does not offer (it may define a
	// flag of the same name with a meaning of its own, as verify's
	// --concurrency). The settings behind them keep fetcher.Defaults.
	Omit []string
}

func (o Options) offers(name string) bool { return !slices.Contains(o.Omit, name) }

// setting is one flag: how it is shown, and how its value lands in the
// configuration. Keeping both in one entry keeps them in step.
type setting struct {
	name  string
	flag  func(d fetcher.Config) ucli.Flag
	apply func(c *ucli.Context, cfg *fetcher.Config) error
}

// settings, in the order of --help.
var settings = []setting{
	integer(Concurrency, 1, "requests in flight over all hosts", func(c *fetcher.Config) *int { return &c.Concurrency }),
	integer(PerHost, 1, "requests in flight to one host", func(c *fetcher.Config) *int { return &c.PerHost }),
	duration(Delay, "pause between requests to one host", func(c *fetcher.Config) *time.Duration { return &c.Delay }),
	duration(MaxCrawlDelay, "largest robots.txt Crawl-delay honoured", func(c *fetcher.Config) *time.Duration { return &c.MaxCrawlDelay }),
	integer(Retries, 0, "retries after 429/502/503/504, timeouts and connection errors", func(c *fetcher.Config) *int { return &c.Retries }),
	duration(Backoff, "first retry pause; doubles per retry, with jitter", func(c *fetcher.Config) *time.Duration { return &c.Backoff }),
	duration(MaxBackoff, "longest retry pause", func(c *fetcher.Config) *time.Duration { return &c.MaxBackoff }),
	duration(MaxRetryAfter, "longest Retry-After honoured; longer gives an error record", func(c *fetcher.Config) *time.Duration { return &c.MaxRetryAfter }),
	positive(duration(Timeout, "whole request: connect, headers and body", func(c *fetcher.Config) *time.Duration { return &c.Timeout })),
	duration(ConnectTimeout, "TCP connect", func(c *fetcher.Config) *time.Duration { return &c.ConnectTimeout }),
	duration(TLSTimeout, "TLS handshake", func(c *fetcher.Config) *time.Duration { return &c.TLSTimeout }),
	duration(HeaderTimeout, "wait for response headers", func(c *fetcher.Config) *time.Duration { return &c.HeaderTimeout }),
	{MaxBytes,
		func(fetcher.Config) ucli.Flag {
			return &ucli.StringFlag{Name: MaxBytes, Value: defaultMaxBytes, Usage: "body cap, on the wire and decompressed (k, KiB, M, MiB, …); a cut body is truncated"}
		},
		func(c *ucli.Context, cfg *fetcher.Config) error {
			n, err := cli.ParseSize(c.String(MaxBytes))
			if err != nil {
				return cli.Usagef("--%s: %v", MaxBytes, err)
			}
			if n <= 0 {
				return cli.Usagef("--%s %s: must be positive", MaxBytes, c.String(MaxBytes))
			}
			cfg.MaxBytes = n
			return nil
		}},
	integer(MaxRedirects, 0, "redirects followed; more, or a loop, is an error", func(c *fetcher.Config) *int { return &c.MaxRedirects }),
	{Accept,
		func(d fetcher.Config) ucli.Flag {
			return &ucli.StringSliceFlag{Name: Accept, Usage: "media types whose bodies are kept (repeat or comma-separate; text/*, */* work)", DefaultText: strings.Join(d.Accept, ",")}
		},
		func(c *ucli.Context, cfg *fetcher.Config) error {
			if c.IsSet(Accept) {
				cfg.Accept = splitCommas(c.StringSlice(Accept)) // the fetcher checks each
			}
			return nil
		}},
	{Header,
		func(fetcher.Config) ucli.Flag {
			return &ucli.StringSliceFlag{Name: Header, Aliases: []string{"H"}, Usage: "extra request header, like curl (repeatable; Accept-Language, Referer, …)"}
		},
		func(c *ucli.Context, cfg *fetcher.Config) (err error) {
			if cfg.Header, err = fetcher.ParseHeaders(c.StringSlice(Header)); err != nil {
				return cli.Usagef("--%v", err) // --header "x": want "Name: value"
			}
			return nil
		}},
	text(UserAgent, "User-Agent header; its first word is matched in robots.txt", func(c *fetcher.Config) *string { return &c.UserAgent }),
	boolean(IgnoreRobots, "do not fetch or obey robots.txt (only for sites you own)", func(c *fetcher.Config) *bool { return &c.IgnoreRobots }),
	duration(RobotsTTL, "how long a robots.txt is cached", func(c *fetcher.Config) *time.Duration { return &c.RobotsTTL }),
	duration(RobotsErrorTTL, "how long a host whose robots.txt gave 5xx or no answer stays disallowed", func(c *fetcher.Config) *time.Duration { return &c.RobotsErrorTTL }),
	text(Proxy, "HTTP proxy `URL`", func(c *fetcher.Config) *string { return &c.Proxy }), // checked by the fetcher
	{Resolve,
		func(fetcher.Config) ucli.Flag {
			return &ucli.StringSliceFlag{Name: Resolve, Usage: "connect HOST:PORT to ADDR or ADDR:PORT, like curl (`HOST:PORT:ADDR`; * for any host or port)"}
		},
		func(c *ucli.Context, cfg *fetcher.Config) (err error) {
			// Comma-separated lists work too (handy in $FOCUSCRAWL_RESOLVE).
			if cfg.Resolve, err = fetcher.ParseResolve(splitCommas(c.StringSlice(Resolve))); err != nil {
				return cli.Usagef("--%v", err) // --resolve "x": want HOST:PORT:ADDR
			}
			return nil
		}},
	boolean(Insecure, "do not verify TLS certificates", func(c *fetcher.Config) *bool { return &c.Insecure }),
	boolean(AllowPrivate, "let requests reach loopback, private, link-local and other special addresses (--proxy and --resolve targets always may)", func(c *fetcher.Config) *bool { return &c.AllowPrivate }),
	boolean(Cookies, "keep cookies servers set, in memory, for the run (--cookies=false to drop them)", func(c *fetcher.Config) *bool { return &c.Cookies }),
	integer(Queue, 1, "most URLs waiting in host queues; input reading pauses beyond", func(c *fetcher.Config) *int { return &c.Queue }),
}

// aliases and defaultTexts complete the flags built by the helpers below.
var (
	aliases      = map[string][]string{Concurrency: {"c"}}
	defaultTexts = map[string]string{
		HeaderTimeout: "--" + Timeout, // zero: the fetcher waits as long as the whole request
		Proxy:         "$HTTP_PROXY, $HTTPS_PROXY, $NO_PROXY",
	}
)

// integer is a whole-number setting of at least least.
func integer(name string, least int, usage string, field func(*fetcher.Config) *int) setting {
	return setting{name,
		func(d fetcher.Config) ucli.Flag {
			return &ucli.IntFlag{Name: name, Aliases: aliases[name], Value: *field(&d), Usage: usage}
		},
		func(c *ucli.Context, cfg *fetcher.Config) error {
			v := c.Int(name)
			switch {
			case v < least && least == 0:
				return cli.Usagef("--%s %d: must not be negative", name, v)
			case v < least:
				return cli.Usagef("--%s %d: must be at least %d", name, v, least)
			}
			*field(cfg) = v
			return nil
		}}
}

// duration is a setting of a time span; the fetcher rejects negative ones
// (ConfigError) and takes zero as its own default for the timeouts.
func duration(name, usage string, field func(*fetcher.Config) *time.Duration) setting {
	return setting{name,
		func(d fetcher.Config) ucli.Flag {
			return &ucli.DurationFlag{Name: name, Value: *field(&d), Usage: usage, DefaultText: defaultTexts[name]}
		},
		func(c *ucli.Context, cfg *fetcher.Config) error {
			*field(cfg) = c.Duration(name)
			return nil
		}}
}

// positive wraps a duration setting for which zero makes no sense.
func positive(s setting) setting {
	apply := s.apply
	s.apply = func(c *ucli.Context, cfg *fetcher.Config) error {
		if v := c.Duration(s.name); v <= 0 {
			return cli.Usagef("--%s %v: must be positive", s.name, v)
		}
		return apply(c, cfg)
	}
	return s
}

func text(name, usage string, field func(*fetcher.Config) *string) setting {
	return setting{name,
		func(d fetcher.Config) ucli.Flag {
			return &ucli.StringFlag{Name: name, Value: *field(&d), Usage: usage, DefaultText: defaultTexts[name]}
		},
		func(c *ucli.Context, cfg *fetcher.Config) error {
			*field(cfg) = c.String(name)
			return nil
		}}
}

func boolean(name, usage string, field func(*fetcher.Config) *bool) setting {
	return setting{name,
		func(d fetcher.Config) ucli.Flag {
			return &ucli.BoolFlag{Name: name, Value: *field(&d), Usage: usage}
		},
		func(c *ucli.Context, cfg *fetcher.Config) error {
			*field(cfg) = c.Bool(name)
			return nil
		}}
}

// Flags returns the fetcher's flags a command offers, with the defaults of
// fetcher.Defaults. A command offering --header must set its app's
// DisableSliceFlagSeparator, since header values hold commas
// ("zh-CN,zh;q=0.9"); --accept and --resolve split commas themselves.
func Flags(o Options) []ucli.Flag {
	mustKnow(o.Omit)
	d := fetcher.Defaults()
	var flags []ucli.Flag
	for _, s := range settings {
		if o.offers(s.name) {
			flags = append(flags, s.flag(d))
		}
	}
	return flags
}

// Config reads the flags of Flags(o) into a fetcher configuration, from
// fetcher.Defaults. A bad value is a usage error naming its flag. The
// fetcher checks the rest when built: pass its error to ConfigError.
func Config(c *ucli.Context, o Options) (fetcher.Config, error) {
	mustKnow(o.Omit)
	cfg := fetcher.Defaults()
	for _, s := range settings {
		if !o.offers(s.name) {
			continue
		}
		if err := s.apply(c, &cfg); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// ConfigError turns an error of fetcher.New, one line per setting at fault,
// each starting with the setting's name ("proxy \"::\": not an http://…"),
// into a usage error naming the flags ("--proxy …").
func ConfigError(err error) error {
	return cli.Usagef("--%s", strings.ReplaceAll(err.Error(), "\n", "\n--"))
}

// mustKnow panics on a name that is not one of the flags: a mistake in the
// command's code, caught by any test that builds it.
func mustKnow(names []string) {
	for _, n := range names {
		if !slices.ContainsFunc(settings, func(s setting) bool { return s.name == n }) {
			panic(fmt.Sprintf("fetchflags: no flag named %q", n))
		}
	}
}

// splitCommas splits every value at its commas and drops empty items.
func splitCommas(values []string) []string {
	var out []string
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}
