package topic

import (
	"regexp"

	"go.yaml.in/yaml/v3"
)

var ruleKeys = []string{"name", "any", "all", "not", "weight"}

// rules reads the rule list, compiles every regular expression once and
// normalises the weights to sum to 1.
func (d *decoder) rules(path string, v *yaml.Node) []Rule {
	var out []Rule
	names := map[string]int{}
	total, bad := 0.0, false
	d.sequence(path, v, false, func(ip string, item *yaml.Node) {
		r, ok := d.rule(ip, item)
		if !ok {
			bad = true
			return
		}
		if first, dup := names[r.Name]; dup {
			d.errorf(item, ip+".name", "rule name %q used twice (first at line %d)", r.Name, first)
			bad = true
			return
		}
		names[r.Name] = item.Line
		total += r.Weight
		out = append(out, r)
	})
	if bad {
		return nil
	}
	if len(out) > 0 && total == 0 {
		d.errorf(resolve(v), path, "rule weights sum to 0: give at least one rule a weight above 0")
		return nil
	}
	for i := range out {
		out[i].Weight /= total
		out[i].compileFilters()
	}
	return out
}

func (d *decoder) rule(path string, item *yaml.Node) (Rule, bool) {
	if item.Kind != yaml.MappingNode {
		d.errorf(item, path, "want a rule {name, any, all, not, weight}, got %s", kindName(item))
		return Rule{}, false
	}
	// The name first, so that regex messages can say which rule.
	r := Rule{Weight: 1}
	named := false
	for i := 0; i+1 < len(item.Content); i += 2 {
		if item.Content[i].Value == "name" && !named {
			named = true
			r.Name, _ = d.term(join(path, "name"), item.Content[i+1])
		}
	}
	ok := r.Name != ""
	if !named {
		d.errorf(item, path+".name", "rule has no name")
	}
	hasName := ok
	d.mapping(path, item, ruleKeys, func(key, kp string, _, v *yaml.Node) {
		switch key {
		case "any", "all", "not":
			res, good := d.regexps(kp, v, r.Name)
			ok = ok && good
			switch key {
			case "any":
				r.Any = res
			case "all":
				r.All = res
			case "not":
				r.Not = res
			}
		case "weight":
			w, good := d.weight(kp, v, false)
			ok = ok && good
			r.Weight = w
		}
	})
	if hasName && len(r.Any) == 0 && len(r.All) == 0 && ok {
		d.errorf(item, path, "rule %q has no any: or all: patterns (not: alone would match every page without them)", r.Name)
		ok = false
	}
	return r, ok
}

// regexps compiles a pattern list (or a single pattern).
func (d *decoder) regexps(path string, v *yaml.Node, rule string) ([]*regexp.Regexp, bool) {
	var out []*regexp.Regexp
	ok := true
	d.sequence(path, v, true, func(ip string, item *yaml.Node) {
		s, good := d.str(ip, item)
		if !good {
			ok = false
			return
		}
		if s == "" {
			d.errorf(item, ip, "empty pattern in rule %q (it would match everything)", rule)
			ok = false
			return
		}
		re, err := regexp.Compile(s)
		if err != nil {
			d.add(item, ip, err, "bad regex in rule %q", rule)
			ok = false
			return
		}
		out = append(out, re)
	})
	return out, ok
}
