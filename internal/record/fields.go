package record

import (
	"fmt"
	"reflect"
	"strings"
)

// FieldsOf checks that part, a struct a stage decodes instead of a whole
// record (the few fields it reads), names every JSON key as the record
// types do: each key of part must be a key of one of the records, with a
// Go type of the same kind, and the structs and lists in it must match
// that field's own, recursively. A tag renamed in this package and not in
// the stage's struct would otherwise make the stage silently stop reading
// the field. Fields tagged `json:"-"` and unexported fields are skipped.
func FieldsOf(part any, records ...any) error {
	pt := reflect.TypeOf(part)
	var rts []reflect.Type
	for _, r := range records {
		rts = append(rts, reflect.TypeOf(r))
	}
	return fieldsOf(pt.Name(), pt, rts)
}

func fieldsOf(path string, pt reflect.Type, rts []reflect.Type) error {
	have := map[string][]reflect.Type{}
	for _, rt := range rts {
		for key, f := range jsonKeys(deref(rt)) {
			have[key] = append(have[key], f.Type)
		}
	}
	for key, f := range jsonKeys(deref(pt)) {
		types, ok := have[key]
		if !ok {
			return fmt.Errorf("%s: field %s reads key %q, which no record has", path, f.Name, key)
		}
		var match []reflect.Type
		for _, t := range types {
			if sameKind(f.Type, t) {
				match = append(match, t)
			}
		}
		if len(match) == 0 {
			return fmt.Errorf("%s: key %q is %v here and %v in the record", path, key, f.Type, types[0])
		}
		if inner := elem(f.Type); inner.Kind() == reflect.Struct {
			var ins []reflect.Type
			for _, t := range match {
				ins = append(ins, elem(t))
			}
			if err := fieldsOf(path+"."+key, inner, ins); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonKeys lists a struct's fields by JSON key, embedded structs'
// fields included, as encoding/json sees them.
func jsonKeys(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	if t.Kind() != reflect.Struct {
		return out
	}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		switch {
		case name == "-" || !f.IsExported() && !f.Anonymous:
		case f.Anonymous && name == "" && deref(f.Type).Kind() == reflect.Struct:
			for k, sub := range jsonKeys(deref(f.Type)) {
				if _, ok := out[k]; !ok {
					out[k] = sub
				}
			}
		case f.IsExported():
			if name == "" {
				name = f.Name
			}
			out[name] = f
		}
	}
	return out
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// elem is the type inside pointers, slices and arrays.
func elem(t reflect.Type) reflect.Type {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			t = t.Elem()
		default:
			return t
		}
	}
}

// sameKind tells whether two field types read the same JSON: the same
// kind through pointers, lists of the same, any number for a number, and
// raw JSON ([]byte-like, e.g. json.RawMessage) or any for anything.
func sameKind(a, b reflect.Type) bool {
	a, b = deref(a), deref(b)
	if raw(a) || raw(b) || a.Kind() == reflect.Interface || b.Kind() == reflect.Interface {
		return true
	}
	switch {
	case number(a) && number(b):
		return true
	case a.Kind() != b.Kind():
		return false
	case a.Kind() == reflect.Slice || a.Kind() == reflect.Array || a.Kind() == reflect.Map:
		return sameKind(a.Elem(), b.Elem())
	}
	return true
}

func raw(t reflect.Type) bool {
	return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8
}

func number(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// Keys lists the JSON keys of the record types recs (structs or pointers
// to them), embedded structs' fields included, each key once.
func Keys(recs ...any) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range recs {
		for k := range jsonKeys(deref(reflect.TypeOf(r))) {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}
