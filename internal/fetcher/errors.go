package fetcher

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/robotsrules"
)

// Errors recorded in Page.Error. Each message starts with its kind (the
// text before the first ":"), which summaries and the frontier count by;
// docs/records.md lists them.
var (
	errorCanceled       = errors.New("canceled")
	errRedirectLoop     = errors.New("redirect loop")
	errTooManyRedirects = errors.New("too many redirects")
	errRedirectScheme   = errors.New("redirect to a non-http(s) URL")
)

// Error kinds, the first word of Page.Error.
const (
	// KindRobotsDisallow: robots.txt forbids the URL. The message may go
	// on with the robots.txt rules that decided it (robotsRulesMessage).
	KindRobotsDisallow = robotsrules.Kind
	// KindRobotsUnreachable: robots.txt could not be fetched (5xx, a
	// timeout, a broken connection), so RFC 9309 has the host disallowed.
	// A DNS or connection failure on robots.txt is reported as KindDNS or
	// KindConnect instead: the host itself is down.
	KindRobotsUnreachable = "robots-unreachable"
	KindCanceled          = "canceled"
	KindInvalid           = "invalid url"
	KindTimeout           = "timeout"
	KindDNS               = "dns"
	KindConnect           = "connect"
	KindTLS               = "tls"
	KindRedirect          = "redirect"
	KindHTTP              = "http"
	KindBody              = "body"
	KindNetwork           = "network"
	// KindProxy: the proxy itself could not be reached (refused, no such
	// host, timed out): the fault is the proxy's, or its address's, not
	// the host's, and no answer says anything about the host.
	KindProxy = "proxy"
)

// ErrorKind gives the kind of a Page.Error message: "robots-disallow",
// "timeout", "http 404", "blocked address", … ("" for no error).
func ErrorKind(msg string) string {
	if strings.HasPrefix(msg, KindBlocked+" ") {
		return KindBlocked // "blocked address ::1 (loopback)": no ":" ends the kind
	}
	kind, _, _ := strings.Cut(msg, ":")
	return kind
}

// IsRobots tells whether a Page.Error message says that robots.txt kept
// the URL from being fetched: disallowed by its rules, or unreachable.
func IsRobots(msg string) bool {
	k := ErrorKind(msg)
	return k == KindRobotsDisallow || k == KindRobotsUnreachable
}

// describe turns a request error into the Page.Error message and says
// whether trying again may help.
func describe(err error) (msg string, retriable bool) {
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var recErr tls.RecordHeaderError
	var opErr *net.OpError
	var psErr *proxyStatusError
	switch {
	case errors.As(err, &psErr):
		return psErr.msg, psErr.retriable
	case errors.Is(err, errRedirectLoop), errors.Is(err, errTooManyRedirects), errors.Is(err, errRedirectScheme):
		return KindRedirect + ": " + rootCause(err).Error(), false
	case errors.Is(err, context.Canceled):
		return errorCanceled.Error(), false
	case errors.As(err, &opErr) && opErr.Op == "proxyconnect":
		return KindProxy + ": " + trimURL(err), false
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), isTimeout(err):
		return KindTimeout + ": " + trimURL(err), true
	case errors.As(err, &dnsErr):
		return KindDNS + ": " + dnsErr.Error(), dnsErr.IsTemporary
	case errors.As(err, &certErr), errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &recErr):
		return KindTLS + ": " + trimURL(err), false
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return KindConnect + ": " + trimURL(err), true
	case errors.As(err, &opErr) && opErr.Op == "remote error":
		return KindTLS + ": " + trimURL(err), false
	}
	// Resets, EOFs mid-answer, protocol errors: worth another try.
	return KindNetwork + ": " + trimURL(err), true
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// trimURL drops the `Get "url": ` prefix url.Error adds: the record
// already holds the URL.
func trimURL(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

func rootCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// statusError is the message for a final non-2xx status.
func statusError(code int) string { return fmt.Sprintf("%s %d", KindHTTP, code) }
