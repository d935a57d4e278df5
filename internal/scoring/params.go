package scoring

import (
	"flag"
	"fmt"
	"strconv"
)

// Param is one parameter of a link strategy, named as score's flag for
// it (--delta is shark's δ). A strategy's options list their parameters,
// each bound to its field, so the command line sets them without knowing
// the options' types, and knows which strategy uses which flag.
type Param struct {
	Name string
	// Usage says what the parameter is, for the flag's help.
	Usage string
	// Value reads a value (as the flag's text) into the field, checking
	// it, and shows the value the field holds.
	Value flag.Value
	// DefaultText, when set, stands for the default in the help: for a
	// default that depends on another parameter.
	DefaultText string
}

// IsBool tells whether p is a switch (a flag without a value).
func (p Param) IsBool() bool {
	b, ok := p.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// floatValue is a number that ok accepts; want says which.
type floatValue struct {
	p    *float64
	ok   func(float64) bool
	want string
}

func (v floatValue) String() string { return strconv.FormatFloat(*v.p, 'g', -1, 64) }

func (v floatValue) Set(s string) error {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !v.ok(f) {
		return fmt.Errorf("want %s", v.want)
	}
	*v.p = f
	return nil
}

// unitParam is a number in [0,1].
func unitParam(p *float64) floatValue {
	return floatValue{p, func(f float64) bool { return f >= 0 && f <= 1 }, "a number in [0,1]"}
}

// contractionParam is a number in [0,1): an iteration's factor, which
// must be below 1 to converge.
func contractionParam(p *float64) floatValue {
	return floatValue{p, func(f float64) bool { return f >= 0 && f < 1 }, "a number in [0,1) (below 1 to converge)"}
}

func positiveParam(p *float64) floatValue {
	return floatValue{p, func(f float64) bool { return f > 0 }, "a number above 0"}
}

func nonNegativeParam(p *float64) floatValue {
	return floatValue{p, func(f float64) bool { return f >= 0 }, "a number ≥ 0"}
}

// intValue is a whole number of at least min.
type intValue struct {
	p   *int
	min int
}

func (v intValue) String() string { return strconv.Itoa(*v.p) }

func (v intValue) Set(s string) error {
	n, err := strconv.ParseInt(s, 0, strconv.IntSize)
	if err != nil || int(n) < v.min {
		return fmt.Errorf("want a whole number of at least %d", v.min)
	}
	*v.p = int(n)
	return nil
}

// boolValue is a switch.
type boolValue struct{ p *bool }

func (v boolValue) String() string   { return strconv.FormatBool(*v.p) }
func (v boolValue) IsBoolFlag() bool { return true }

func (v boolValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	*v.p = b
	return nil
}

// weightsValue is a list of weights "a=0.2,b=0.8" of the names, in their
// order.
type weightsValue struct {
	p     *map[string]float64
	names []string
	parse func(string) (map[string]float64, error)
}

func (v weightsValue) String() string {
	s := ""
	for _, n := range v.names {
		if w, ok := (*v.p)[n]; ok {
			if s != "" {
				s += ","
			}
			s += n + "=" + strconv.FormatFloat(w, 'g', -1, 64)
		}
	}
	return s
}

func (v weightsValue) Set(s string) error {
	w, err := v.parse(s)
	if err != nil {
		return err
	}
	*v.p = w
	return nil
}
