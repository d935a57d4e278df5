package topic

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	"golang.org/x/net/idna"

	"github.com/focuscrawl/focuscrawl/internal/slicesx"
)

var hostKeys = []string{"host", "rank", "name"}

// hosts reads the address library. An item is {host, rank, name} or a
// plain host (rank other).
func (d *decoder) hosts(path string, v *yaml.Node) []Host {
	var out []Host
	seen := map[string]int{}
	d.sequence(path, v, false, func(ip string, item *yaml.Node) {
		h := Host{Rank: RankOther}
		var hostNode *yaml.Node
		switch item.Kind {
		case yaml.ScalarNode:
			hostNode = item
		case yaml.MappingNode:
			d.mapping(ip, item, hostKeys, func(key, kp string, _, n *yaml.Node) {
				switch key {
				case "host":
					hostNode = resolve(n)
				case "rank":
					s, _ := d.str(kp, n)
					s = strings.ToLower(strings.TrimSpace(s))
					if !slices.Contains(Ranks, s) {
						msg := fmt.Sprintf("unknown rank %q; ranks are %s", s, strings.Join(Ranks, ", "))
						if g := suggest(s, Ranks); g != "" && s != "" {
							msg = fmt.Sprintf("unknown rank %q; did you mean %q? (ranks are %s)", s, g, strings.Join(Ranks, ", "))
						}
						d.errorf(resolve(n), kp, "%s", msg)
						return
					}
					h.Rank = s
				case "name":
					h.Name, _ = d.str(kp, n)
					h.Name = strings.TrimSpace(h.Name)
				}
			})
		default:
			d.errorf(item, ip, "want {host, rank, name} or a host name, got %s", kindName(item))
			return
		}
		if hostNode == nil {
			d.errorf(item, ip+".host", "missing host")
			return
		}
		kp := ip
		if item.Kind == yaml.MappingNode {
			kp = ip + ".host"
		}
		s, ok := d.str(kp, hostNode)
		if !ok {
			return
		}
		host, err := normalizeHost(s, true)
		if err != nil {
			d.add(hostNode, kp, err, "bad host %q", s)
			return
		}
		if first, dup := seen[host]; dup {
			d.errorf(hostNode, kp, "host %s listed twice (first at line %d)", host, first)
			return
		}
		seen[host] = hostNode.Line
		h.Host = host
		out = append(out, h)
	})
	return out
}

// adHosts reads the ad host list; "*.x" and ".x" are taken as x, since an
// entry always covers its subdomains.
func (d *decoder) adHosts(path string, v *yaml.Node) []string {
	var out []string
	d.sequence(path, v, true, func(ip string, item *yaml.Node) {
		s, ok := d.term(ip, item)
		if !ok {
			return
		}
		s = strings.TrimPrefix(strings.TrimPrefix(s, "*"), ".")
		host, err := normalizeHost(s, false)
		if err != nil {
			d.add(item, ip, err, "bad host %q", s)
			return
		}
		out = append(out, host)
	})
	return slicesx.Unique(out)
}

// normalizeHost lower-cases a host[:port], converts an internationalised
// name to punycode and refuses URLs and paths. With wildcard, a leading
// "*." is kept.
func normalizeHost(s string, wildcard bool) (string, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "://") || strings.Contains(s, "/") {
		return "", fmt.Errorf("want a host name such as www.example.cn, not a URL or path")
	}
	prefix := ""
	if wildcard {
		if rest, ok := strings.CutPrefix(s, "*."); ok {
			prefix, s = "*.", rest
		}
	}
	if strings.Contains(s, "*") {
		return "", fmt.Errorf("a wildcard is only allowed as a leading \"*.\"")
	}
	name, port := s, ""
	if h, p, err := net.SplitHostPort(s); err == nil {
		name, port = h, p
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("bad port %q", p)
		}
	}
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
		name = name[1 : len(name)-1]
	}
	if name == "" {
		return "", fmt.Errorf("empty host name")
	}
	if ip := net.ParseIP(name); ip != nil {
		if prefix != "" {
			return "", fmt.Errorf("a wildcard cannot apply to an IP address")
		}
		if ip.To4() == nil {
			name = "[" + name + "]"
		}
	} else {
		ascii, err := idna.Lookup.ToASCII(name)
		if err != nil {
			return "", err
		}
		name = ascii
	}
	if port != "" {
		name += ":" + port
	}
	return prefix + name, nil
}
