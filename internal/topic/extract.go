package topic

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

var extractKeys = []string{"site", "title", "published", "source", "author", "content", "fields"}

// extract reads the per-site extraction rules, checking every selector.
func (d *decoder) extract(path string, v *yaml.Node) []ExtractRule {
	var out []ExtractRule
	seen := map[string]int{}
	d.sequence(path, v, false, func(ip string, item *yaml.Node) {
		if item.Kind != yaml.MappingNode {
			d.errorf(item, ip, "want {site, title, published, source, author, content, fields}, got %s", kindName(item))
			return
		}
		var e ExtractRule
		var siteNode *yaml.Node
		selectors := 0
		sel := func(kp string, n *yaml.Node) string {
			s, ok := d.str(kp, n)
			if !ok {
				return ""
			}
			s = strings.TrimSpace(s)
			if _, err := ParseSelector(s); err != nil {
				d.add(resolve(n), kp, err, "bad selector")
				return ""
			}
			selectors++
			return s
		}
		d.mapping(ip, item, extractKeys, func(key, kp string, _, n *yaml.Node) {
			switch key {
			case "site":
				siteNode = resolve(n)
				s, ok := d.str(kp, n)
				if !ok {
					return
				}
				s = strings.TrimSpace(s)
				if s != "*" {
					h, err := normalizeHost(s, false)
					if err != nil {
						d.add(siteNode, kp, err, "bad site %q", s)
						return
					}
					s = h
				}
				e.Site = s
			case "title":
				e.Title = sel(kp, n)
			case "published":
				e.Published = sel(kp, n)
			case "source":
				e.Source = sel(kp, n)
			case "author":
				e.Author = sel(kp, n)
			case "content":
				e.Content = sel(kp, n)
			case "fields":
				d.mapping(kp, n, nil, func(name, fp string, k, fn *yaml.Node) {
					if name == "" {
						d.errorf(k, fp, "empty field name")
						return
					}
					if s := sel(fp, fn); s != "" {
						if e.Fields == nil {
							e.Fields = map[string]string{}
						}
						e.Fields[name] = s
					}
				})
			}
		})
		switch {
		case siteNode == nil:
			d.errorf(item, ip+".site", "missing site (a host, a domain, or \"*\" for every site)")
			return
		case e.Site == "":
			return // reported
		case selectors == 0:
			d.errorf(item, ip, "extraction rule for %s has no selectors", e.Site)
			return
		}
		if first, dup := seen[e.Site]; dup {
			d.errorf(siteNode, ip+".site", "site %s has two extraction rules (first at line %d)", e.Site, first)
			return
		}
		seen[e.Site] = siteNode.Line
		out = append(out, e)
	})
	return out
}
