package netguard

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"

	"golang.org/x/net/http/httpproxy"
)

// Kind is the kind of error records for refused addresses: the text
// before the first ":" of "blocked address 10.1.2.3 (private)".
const Kind = "blocked address"

// BlockedError is a dial refused because of where it leads.
type BlockedError struct {
	Addr  netip.Addr
	Class string
}

func (e *BlockedError) Error() string {
	return fmt.Sprintf("%s %s (%s)", Kind, e.Addr, e.Class)
}

// Policy says which addresses dials may reach. The zero Policy refuses
// every class Classify names.
type Policy struct {
	// AllowPrivate lets dials reach every address (--allow-private).
	AllowPrivate bool
}

// Check returns a *BlockedError when ip may not be dialled.
func (p Policy) Check(ip netip.Addr) error {
	if p.AllowPrivate {
		return nil
	}
	if c := Classify(ip); c != "" {
		return &BlockedError{Addr: ip.Unmap().WithZone(""), Class: c}
	}
	return nil
}

// Control is a net.Dialer.Control that refuses blocked addresses. It runs
// after name resolution, once per address tried, before the connect.
func (p Policy) Control(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		host = address
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("%s %q: not an IP address", Kind, address)
	}
	return p.Check(ip)
}

// DialFunc is the shape of http.Transport.DialContext.
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Dialer returns a dial function over d whose connections are checked,
// except dials to the trusted addresses: "host:port" as the transport
// asks for them (before name resolution), for the proxies and endpoints
// the user named. The proxies of the HTTP_PROXY and HTTPS_PROXY
// environment variables are trusted too. d is not changed.
func (p Policy) Dialer(d *net.Dialer, trusted ...string) DialFunc {
	trust := map[string]bool{}
	for _, t := range trusted {
		if t != "" {
			trust[strings.ToLower(t)] = true
		}
	}
	return p.DialerTrusting(d, func(addr string) bool { return trust[addr] })
}

// DialerTrusting is Dialer with the trusted addresses given by a
// function, called with lower-case "host:port" dial addresses; it must
// be safe for concurrent use.
func (p Policy) DialerTrusting(d *net.Dialer, trusted func(addr string) bool) DialFunc {
	plain := *d
	if p.AllowPrivate {
		return plain.DialContext
	}
	checked := *d
	if prev := d.ControlContext; prev != nil {
		// ControlContext wins over Control in net.Dialer: check in it.
		checked.ControlContext = func(ctx context.Context, network, address string, c syscall.RawConn) error {
			if err := p.Control(network, address, c); err != nil {
				return err
			}
			return prev(ctx, network, address, c)
		}
	} else if prev := d.Control; prev != nil {
		checked.Control = func(network, address string, c syscall.RawConn) error {
			if err := p.Control(network, address, c); err != nil {
				return err
			}
			return prev(network, address, c)
		}
	} else {
		checked.Control = p.Control
	}
	env := map[string]bool{}
	for _, a := range envProxies() {
		if a != "" {
			env[strings.ToLower(a)] = true
		}
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if a := strings.ToLower(addr); env[a] || trusted(a) {
			return plain.DialContext(ctx, network, addr)
		}
		return checked.DialContext(ctx, network, addr)
	}
}

// ProxyAddr gives the dial address ("host:port") of a proxy URL, or ""
// when it has no host.
func ProxyAddr(raw string) string {
	if raw == "" {
		return ""
	}
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw // the environment variables allow a bare host:port
	}
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	return URLAddr(u)
}

// URLAddr gives the dial address of a URL: its host and its port, or the
// scheme's default port.
func URLAddr(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "https":
			port = "443"
		case "socks5", "socks5h":
			port = "1080"
		default:
			port = "80"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

func envProxies() []string {
	c := httpproxy.FromEnvironment()
	return []string{ProxyAddr(c.HTTPProxy), ProxyAddr(c.HTTPSProxy)}
}
