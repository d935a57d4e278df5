package main

import (
	"fmt"
	"strconv"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher"
)

// Flag names.
const (
	flagConcurrency    = "concurrency"
	flagPerHost        = "per-host"
	flagDelay          = "delay"
	flagMaxCrawlDelay  = "max-crawl-delay"
	flagRetries        = "retries"
	flagBackoff        = "backoff"
	flagMaxBackoff     = "max-backoff"
	flagMaxRetryAfter  = "max-retry-after"
	flagTimeout        = "timeout"
	flagConnectTimeout = "connect-timeout"
	flagTLSTimeout     = "tls-timeout"
	flagHeaderTimeout  = "header-timeout"
	flagMaxBytes       = "max-bytes"
	flagMaxRedirects   = "max-redirects"
	flagAccept         = "accept"
	flagUserAgent      = "user-agent"
	flagIgnoreRobots   = "ignore-robots"
	flagRobotsTTL      = "robots-ttl"
	flagRobotsErrorTTL = "robots-error-ttl"
	flagProxy          = "proxy"
	flagResolve        = "resolve"
	flagInsecure       = "insecure"
	flagCookies        = "cookies"
	flagHeader         = "header"
	flagQueue          = "queue"
	flagWARC           = "warc"
)

func fetchFlags() []ucli.Flag {
	d := fetcher.Defaults()
	return append(cli.StreamFlags(),
		&ucli.IntFlag{Name: flagConcurrency, Aliases: []string{"c"}, Value: d.Concurrency, Usage: "requests in flight over all hosts", EnvVars: cli.Env(flagConcurrency)},
		&ucli.IntFlag{Name: flagPerHost, Value: d.PerHost, Usage: "requests in flight to one host", EnvVars: cli.Env(flagPerHost)},
		&ucli.DurationFlag{Name: flagDelay, Value: d.Delay, Usage: "pause between requests to one host", EnvVars: cli.Env(flagDelay)},
		&ucli.DurationFlag{Name: flagMaxCrawlDelay, Value: d.MaxCrawlDelay, Usage: "largest robots.txt Crawl-delay honoured", EnvVars: cli.Env(flagMaxCrawlDelay)},
		&ucli.IntFlag{Name: flagRetries, Value: d.Retries, Usage: "retries after 429/502/503/504, timeouts and connection errors", EnvVars: cli.Env(flagRetries)},
		&ucli.DurationFlag{Name: flagBackoff, Value: d.Backoff, Usage: "first retry pause; doubles per retry, with jitter", EnvVars: cli.Env(flagBackoff)},
		&ucli.DurationFlag{Name: flagMaxBackoff, Value: d.MaxBackoff, Usage: "longest retry pause", EnvVars: cli.Env(flagMaxBackoff)},
		&ucli.DurationFlag{Name: flagMaxRetryAfter, Value: d.MaxRetryAfter, Usage: "longest Retry-After honoured; longer gives an error record", EnvVars: cli.Env(flagMaxRetryAfter)},
		&ucli.DurationFlag{Name: flagTimeout, Value: d.Timeout, Usage: "whole request: connect, headers and body", EnvVars: cli.Env(flagTimeout)},
		&ucli.DurationFlag{Name: flagConnectTimeout, Value: d.ConnectTimeout, Usage: "TCP connect", EnvVars: cli.Env(flagConnectTimeout)},
		&ucli.DurationFlag{Name: flagTLSTimeout, Value: d.TLSTimeout, Usage: "TLS handshake", EnvVars: cli.Env(flagTLSTimeout)},
		&ucli.DurationFlag{Name: flagHeaderTimeout, Usage: "wait for response headers", DefaultText: "--timeout", EnvVars: cli.Env(flagHeaderTimeout)},
		&ucli.StringFlag{Name: flagMaxBytes, Value: "10MiB", Usage: "body cap, on the wire and decompressed (k, KiB, M, MiB, …); a cut body is truncated", EnvVars: cli.Env(flagMaxBytes)},
		&ucli.IntFlag{Name: flagMaxRedirects, Value: d.MaxRedirects, Usage: "redirects followed; more, or a loop, is an error", EnvVars: cli.Env(flagMaxRedirects)},
		&ucli.StringSliceFlag{Name: flagAccept, Usage: "media types whose bodies are kept (repeat or comma-separate; text/*, */* work)", DefaultText: "text/html,application/xhtml+xml", EnvVars: cli.Env(flagAccept)},
		&ucli.StringSliceFlag{Name: flagHeader, Aliases: []string{"H"}, Usage: "extra request header, like curl (repeatable; Accept-Language, Referer, …)", EnvVars: cli.Env(flagHeader)},
		&ucli.StringFlag{Name: flagUserAgent, Value: d.UserAgent, Usage: "User-Agent header; its first word is matched in robots.txt", EnvVars: cli.Env(flagUserAgent)},
		&ucli.BoolFlag{Name: flagIgnoreRobots, Usage: "do not fetch or obey robots.txt (only for sites you own)", EnvVars: cli.Env(flagIgnoreRobots)},
		&ucli.DurationFlag{Name: flagRobotsTTL, Value: d.RobotsTTL, Usage: "how long a robots.txt is cached", EnvVars: cli.Env(flagRobotsTTL)},
		&ucli.DurationFlag{Name: flagRobotsErrorTTL, Value: d.RobotsErrorTTL, Usage: "how long a host whose robots.txt gave 5xx or no answer stays disallowed", EnvVars: cli.Env(flagRobotsErrorTTL)},
		&ucli.StringFlag{Name: flagProxy, Usage: "HTTP proxy `URL`", DefaultText: "$HTTP_PROXY, $HTTPS_PROXY, $NO_PROXY", EnvVars: cli.Env(flagProxy)},
		&ucli.StringSliceFlag{Name: flagResolve, Usage: "connect HOST:PORT to ADDR or ADDR:PORT, like curl (`HOST:PORT:ADDR`; * for any host or port)", EnvVars: cli.Env(flagResolve)},
		&ucli.BoolFlag{Name: flagInsecure, Usage: "do not verify TLS certificates", EnvVars: cli.Env(flagInsecure)},
		&ucli.BoolFlag{Name: flagCookies, Value: d.Cookies, Usage: "keep cookies servers set, in memory, for the run (--cookies=false to drop them)", EnvVars: cli.Env(flagCookies)},
		&ucli.IntFlag{Name: flagQueue, Value: d.Queue, Usage: "most URLs waiting in host queues; input reading pauses beyond", EnvVars: cli.Env(flagQueue)},
		&ucli.StringFlag{Name: flagWARC, Usage: "also write every HTTP exchange to `FILE.warc.gz` (WARC/1.1)", EnvVars: cli.Env(flagWARC)},
	)
}

// configFromFlags builds the fetcher configuration, naming the flag at
// fault in a usage error.
func configFromFlags(c *ucli.Context) (fetcher.Config, error) {
	cfg := fetcher.Defaults()
	cfg.Concurrency = c.Int(flagConcurrency)
	cfg.PerHost = c.Int(flagPerHost)
	cfg.Delay = c.Duration(flagDelay)
	cfg.MaxCrawlDelay = c.Duration(flagMaxCrawlDelay)
	cfg.Retries = c.Int(flagRetries)
	cfg.Backoff = c.Duration(flagBackoff)
	cfg.MaxBackoff = c.Duration(flagMaxBackoff)
	cfg.MaxRetryAfter = c.Duration(flagMaxRetryAfter)
	cfg.Timeout = c.Duration(flagTimeout)
	cfg.ConnectTimeout = c.Duration(flagConnectTimeout)
	cfg.TLSTimeout = c.Duration(flagTLSTimeout)
	cfg.HeaderTimeout = c.Duration(flagHeaderTimeout)
	cfg.MaxRedirects = c.Int(flagMaxRedirects)
	cfg.UserAgent = c.String(flagUserAgent)
	cfg.IgnoreRobots = c.Bool(flagIgnoreRobots)
	cfg.RobotsTTL = c.Duration(flagRobotsTTL)
	cfg.RobotsErrorTTL = c.Duration(flagRobotsErrorTTL)
	cfg.Proxy = c.String(flagProxy)
	cfg.Insecure = c.Bool(flagInsecure)
	cfg.Cookies = c.Bool(flagCookies)
	cfg.Queue = c.Int(flagQueue)
	for _, check := range []struct {
		name string
		v    int
	}{{flagConcurrency, cfg.Concurrency}, {flagPerHost, cfg.PerHost}, {flagQueue, cfg.Queue}} {
		if check.v < 1 {
			return cfg, cli.Usagef("--%s %d: must be at least 1", check.name, check.v)
		}
	}
	for _, check := range []struct {
		name string
		v    int
	}{{flagRetries, cfg.Retries}, {flagMaxRedirects, cfg.MaxRedirects}} {
		if check.v < 0 {
			return cfg, cli.Usagef("--%s %d: must not be negative", check.name, check.v)
		}
	}
	if cfg.Timeout <= 0 {
		return cfg, cli.Usagef("--%s %v: must be positive", flagTimeout, cfg.Timeout)
	}
	n, err := parseSize(c.String(flagMaxBytes))
	if err != nil {
		return cfg, cli.Usagef("--%s: %v", flagMaxBytes, err)
	}
	cfg.MaxBytes = n
	if c.IsSet(flagAccept) {
		cfg.Accept = nil
		for _, a := range c.StringSlice(flagAccept) {
			for _, t := range strings.Split(a, ",") {
				if t = strings.TrimSpace(t); t != "" {
					cfg.Accept = append(cfg.Accept, t)
				}
			}
		}
	}
	if cfg.Header, err = fetcher.ParseHeaders(c.StringSlice(flagHeader)); err != nil {
		return cfg, cli.Usagef("--%v", err)
	}
	var resolve []string // comma-separated lists work too (handy in $FOCUSCRAWL_RESOLVE)
	for _, r := range c.StringSlice(flagResolve) {
		resolve = append(resolve, strings.Split(r, ",")...)
	}
	if cfg.Resolve, err = fetcher.ParseResolve(resolve); err != nil {
		return cfg, cli.Usagef("--%v", err) // "--resolve "x": want HOST:PORT:ADDR"
	}
	return cfg, nil
}

// parseSize reads 10MiB, 512k, 1M, 2G or a plain number of bytes.
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"kb", 1000}, {"mb", 1000 * 1000}, {"gb", 1000 * 1000 * 1000},
		{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.m
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f <= 0 || f*float64(mult) > 1<<40 {
		return 0, fmt.Errorf("%q is not a size like 10MiB, 512k or 1048576", s)
	}
	return int64(f * float64(mult)), nil
}
