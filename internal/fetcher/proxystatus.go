package fetcher

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// proxyErrorKinds maps the error types of an RFC 9209 Proxy-Status header
// to the kinds of Page.Error: a proxy that could not reach the origin
// says why, and the crawl should hear "dns" or "connect", not "http 502".
// Types not listed keep the status code as the kind.
var proxyErrorKinds = map[string]string{
	"dns_error":                 KindDNS,
	"dns_timeout":               KindDNS,
	"destination_not_found":     KindDNS,
	"destination_unavailable":   KindConnect,
	"destination_ip_unroutable": KindConnect,
	"connection_refused":        KindConnect,
	"destination_ip_prohibited": KindBlocked,
	"connection_timeout":        KindTimeout,
	"connection_read_timeout":   KindTimeout,
	"connection_write_timeout":  KindTimeout,
	"http_response_timeout":     KindTimeout,
	"connection_terminated":     KindNetwork,
	"connection_limit_reached":  KindNetwork,
	"tls_protocol_error":        KindTLS,
	"tls_certificate_error":     KindTLS,
	"tls_alert_received":        KindTLS,
}

// statusFailure is the Page.Error message of a non-2xx answer and whether
// another try may help. A 502, 503 or 504 whose Proxy-Status names an
// error type the proxy met on its way to the origin takes that error's
// kind: "dns: proxy localhost: dns_error".
func statusFailure(resp *http.Response) (msg string, retriable bool) {
	code := resp.StatusCode
	msg, retriable = statusError(code), retriableStatus(code)
	if code != http.StatusBadGateway && code != http.StatusServiceUnavailable && code != http.StatusGatewayTimeout {
		return msg, retriable
	}
	proxy, errType, details := proxyError(resp.Header.Values("Proxy-Status"))
	kind, ok := proxyErrorKinds[errType]
	if !ok {
		return msg, retriable
	}
	msg = kind + ": proxy " + proxy + ": " + errType
	if details != "" {
		msg += " (" + details + ")"
	}
	switch kind {
	case KindDNS, KindBlocked, KindTLS:
		retriable = false
	default:
		retriable = true
	}
	return msg, retriable
}

// proxyError reads the Proxy-Status field values (RFC 9209: a Structured
// Fields list, one member per intermediary, the one nearest the origin
// first) and gives the first member that carries an error parameter.
func proxyError(values []string) (proxy, errType, details string) {
	for _, v := range values {
		for _, member := range splitOutsideQuotes(v, ',') {
			params := splitOutsideQuotes(member, ';')
			if len(params) < 2 {
				continue
			}
			name := unquote(strings.TrimSpace(params[0]))
			var e, d string
			for _, p := range params[1:] {
				k, val, _ := strings.Cut(strings.TrimSpace(p), "=")
				switch strings.TrimSpace(k) {
				case "error":
					e = unquote(strings.TrimSpace(val))
				case "details":
					d = unquote(strings.TrimSpace(val))
				}
			}
			if e != "" {
				return name, e, d
			}
		}
	}
	return "", "", ""
}

// splitOutsideQuotes splits s at sep where sep is not inside a quoted
// string (backslash escapes honoured).
func splitOutsideQuotes(s string, sep byte) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// unquote reads a Structured Fields string ("…" with \" and \\), or gives
// a token as it is.
func unquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	s = s[1 : len(s)-1]
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// proxyStatusError is a CONNECT the proxy refused, with the kind its
// Proxy-Status gave (describe reports it as is).
type proxyStatusError struct {
	msg       string
	retriable bool
}

func (e *proxyStatusError) Error() string { return e.msg }

// proxyConnectError reads the proxy's answer to a CONNECT (https through
// an HTTP proxy): a refusal whose Proxy-Status names the error becomes that
// error's kind, as for a plain request; other answers are left to the
// transport ("Bad Gateway", a network error).
func proxyConnectError(_ context.Context, _ *url.URL, _ *http.Request, resp *http.Response) error {
	if resp.StatusCode == http.StatusOK {
		return nil
	}
	msg, retriable := statusFailure(resp)
	if strings.HasPrefix(msg, KindHTTP+" ") {
		return nil
	}
	return &proxyStatusError{msg: msg, retriable: retriable}
}
