package netguard

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"syscall"
	"testing"
	"time"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		addr, class string
	}{
		{"127.0.0.1", ClassLoopback},
		{"127.255.0.9", ClassLoopback},
		{"::1", ClassLoopback},
		{"::ffff:127.0.0.1", ClassLoopback},
		{"10.1.2.3", ClassPrivate},
		{"172.16.0.1", ClassPrivate},
		{"172.31.255.255", ClassPrivate},
		{"192.168.1.1", ClassPrivate},
		{"::ffff:10.1.2.3", ClassPrivate},
		{"fc00::1", ClassUniqueLocal},
		{"fd12:3456::1", ClassUniqueLocal},
		{"fec0::1", ClassSiteLocal},
		{"169.254.169.254", ClassLinkLocal},
		{"fe80::1", ClassLinkLocal},
		{"fe80::1%eth0", ClassLinkLocal},
		{"::ffff:169.254.169.254", ClassLinkLocal},
		{"100.64.0.1", ClassCGNAT},
		{"100.127.255.254", ClassCGNAT},
		{"224.0.0.1", ClassMulticast},
		{"239.255.255.250", ClassMulticast},
		{"ff02::1", ClassMulticast},
		{"0.0.0.0", ClassUnspecified},
		{"0.1.2.3", ClassUnspecified},
		{"::", ClassUnspecified},
		{"255.255.255.255", ClassBroadcast},
		{"240.0.0.1", ClassReserved},
		{"192.0.0.8", ClassReserved},
		{"100::1", ClassReserved},
		{"192.0.2.1", ClassDocumentation},
		{"198.51.100.7", ClassDocumentation},
		{"203.0.113.7", ClassDocumentation},
		{"2001:db8::1", ClassDocumentation},
		{"198.18.0.1", ClassBenchmarking},
		{"64:ff9b:1::1", ClassNAT64Local},
		{"::10.1.2.3", ClassIPv4Compat},
		// IPv4 embedded in IPv6 transition addresses.
		{"64:ff9b::a9fe:a9fe", ClassLinkLocal},                 // NAT64 of 169.254.169.254
		{"2002:7f00:1::1", ClassLoopback},                      // 6to4 of 127.0.0.1
		{"2001:0:4136:e378:8000:63bf:f5fe:fdfc", ClassPrivate}, // Teredo, client 10.1.2.3
		// Public addresses.
		{"93.184.216.34", ""},
		{"8.8.8.8", ""},
		{"100.128.0.1", ""},
		{"172.32.0.1", ""},
		{"2606:4700:4700::1111", ""},
		{"::ffff:8.8.8.8", ""},
		{"64:ff9b::808:808", ""},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			got := Classify(netip.MustParseAddr(tc.addr))
			if got != tc.class {
				t.Errorf("Classify(%s) = %q, want %q", tc.addr, got, tc.class)
			}
		})
	}
}

func TestControlMessage(t *testing.T) {
	err := Policy{}.Control("tcp4", "10.1.2.3:80", nil)
	var be *BlockedError
	if !errors.As(err, &be) || err.Error() != "blocked address 10.1.2.3 (private)" {
		t.Fatalf("Control = %v", err)
	}
	if err := (Policy{}).Control("tcp6", "[::ffff:169.254.169.254]:80", nil); err == nil ||
		err.Error() != "blocked address 169.254.169.254 (link-local)" {
		t.Fatalf("mapped: %v", err)
	}
	if err := (Policy{AllowPrivate: true}).Control("tcp4", "10.1.2.3:80", nil); err != nil {
		t.Fatalf("allow-private: %v", err)
	}
	if err := (Policy{}).Control("tcp4", "93.184.216.34:443", nil); err != nil {
		t.Fatalf("public: %v", err)
	}
}

// TestDialer dials loopback for real: refused before any connect by
// default (no listener needed), connected when trusted or allowed.
func TestDialer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	addr := ln.Addr().String()
	d := &net.Dialer{Timeout: 5 * time.Second}
	ctx := context.Background()

	_, err = Policy{}.Dialer(d)(ctx, "tcp", addr)
	var be *BlockedError
	if !errors.As(err, &be) || be.Class != ClassLoopback {
		t.Fatalf("default policy dialled %s: %v", addr, err)
	}
	// A name that resolves to loopback is caught after resolution.
	_, port, _ := net.SplitHostPort(addr)
	if _, err := (Policy{}).Dialer(d)(ctx, "tcp", net.JoinHostPort("localhost", port)); !errors.As(err, &be) {
		t.Fatalf("localhost: %v", err)
	}
	for name, dial := range map[string]DialFunc{
		"trusted":       Policy{}.Dialer(d, addr),
		"allow-private": Policy{AllowPrivate: true}.Dialer(d),
	} {
		c, err := dial(ctx, "tcp", addr)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c.Close()
	}
}

func TestProxyAddr(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:3128":  "127.0.0.1:3128",
		"127.0.0.1:3128":         "127.0.0.1:3128",
		"https://proxy.example":  "proxy.example:443",
		"socks5://[::1]":         "[::1]:1080",
		"http://user:pw@px:8080": "px:8080",
		"":                       "",
	} {
		if got := ProxyAddr(in); got != want {
			t.Errorf("ProxyAddr(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDialerKeepsControlContext: a dialer that already has a
// ControlContext (which net.Dialer prefers to Control) is still checked.
func TestDialerKeepsControlContext(t *testing.T) {
	called := false
	d := &net.Dialer{Timeout: time.Second, ControlContext: func(context.Context, string, string, syscall.RawConn) error {
		called = true
		return nil
	}}
	_, err := Policy{}.Dialer(d)(context.Background(), "tcp", "127.0.0.1:1")
	var be *BlockedError
	if !errors.As(err, &be) || called {
		t.Fatalf("dial: %v (previous ControlContext called: %v)", err, called)
	}
}
