package render

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Thresholds of the auto rule, in characters of visible text (white space
// collapsed). They were set on the test web (internal/render/testweb) and
// are documented in docs/fetch.md.
const (
	// emptyText: a page with scripts and less visible text than this is a
	// shell.
	emptyText = 200
	// shortText: below this, scripts that build the page or a noscript
	// asking for JavaScript are enough to render.
	shortText = 1500
	// dataRatio: an inline data object holding this many times more text
	// than the page shows is content waiting to be drawn.
	dataRatio = 2
)

// Decision is the verdict of NeedsScripts and the signal that decided it.
type Decision struct {
	Render bool
	// Reason names the rule that fired ("shell", "noscript",
	// "script-content", "data-object") or, when nothing did, "static".
	Reason string
	// Text is the visible text in characters, read up to 1500 (-1 when the
	// page has no script, and was not read); Scripts the script elements.
	Text, Scripts int
}

// Script code that builds the page or loads its content. Analytics
// snippets (which create a script element and insert it) do neither.
var (
	domBuilding = regexp.MustCompile(`\.innerHTML\s*[+]?=|insertAdjacentHTML|document\.write\s*\(|\.textContent\s*=|createTextNode|\.appendChild\s*\(|\.append\s*\(|\.replaceChildren\s*\(|\.render\s*\(|createRoot\s*\(|\.mount\s*\(`)
	dataLoading = regexp.MustCompile(`\bfetch\s*\(|XMLHttpRequest|\$\.(ajax|get|getJSON|post)\s*\(|axios[.(]`)
	// askJS: a noscript that asks for JavaScript, in English or Chinese.
	askJS = regexp.MustCompile(`(?i)javascript|\bjs\b|脚本`)
)

// NeedsScripts tells, from a page's static HTML alone, whether its content
// is built by scripts, so that fetch --render auto renders it. The rules,
// first match wins:
//
//   - shell: it has scripts and under 200 characters of visible text;
//   - noscript: under 1500 characters, and a <noscript> asks for JavaScript;
//   - script-content: under 1500 characters, and inline code both builds
//     the DOM (innerHTML, append, render, …) and either loads data (fetch,
//     XMLHttpRequest, …) or addresses an element that is empty in the HTML;
//   - data-object: an inline data object (a JSON script element or a
//     window.X = {…} assignment) holds over twice the visible text, and the
//     page shows under 1500 characters.
//
// Server-rendered pages (their text is in the HTML, whatever bundle
// hydrates it) and pages with analytics snippets pass none of them.
func NeedsScripts(page string) Decision {
	if !hasScript(page) {
		// Every rule needs a script element: a page without one is
		// decided without parsing it.
		return Decision{Reason: "static", Text: -1}
	}
	s := scan(page)
	d := Decision{Text: s.text, Scripts: s.scripts}
	switch {
	case s.text >= shortText:
		// Every rule wants less text than this: the page is static,
		// and scan stopped reading it here.
		d.Reason = "static"
	case s.scripts > 0 && s.text < emptyText:
		d.Render, d.Reason = true, "shell"
	case s.noscriptAsksJS:
		d.Render, d.Reason = true, "noscript"
	case s.buildsDOM && (s.loadsData || s.addressesEmpty):
		d.Render, d.Reason = true, "script-content"
	case s.dataText > dataRatio*max(s.text, 1) && s.dataText >= emptyText:
		d.Render, d.Reason = true, "data-object"
	default:
		d.Reason = "static"
	}
	return d
}

// hasScript tells whether page holds "<script", in any case.
func hasScript(page string) bool {
	for {
		i := strings.IndexByte(page, '<')
		if i < 0 || len(page)-i < 7 {
			return false
		}
		if strings.EqualFold(page[i+1:i+7], "script") {
			return true
		}
		page = page[i+1:]
	}
}

// signals are what scan finds in a page. Past shortText characters of
// text scan stops: the rest of the signals are then not gathered.
type signals struct {
	text           int // visible characters, white space collapsed
	scripts        int // script elements that hold or load code
	noscriptAsksJS bool
	buildsDOM      bool
	loadsData      bool
	addressesEmpty bool
	dataText       int // characters of string values in inline data objects
}

// assignedObject finds inline objects handed to the page: window.X = {…},
// var X = {…} or [ … ] of some size.
var assignedObject = regexp.MustCompile(`(?:window\.[\w$]+|var\s+[\w$]+|let\s+[\w$]+|const\s+[\w$]+)\s*=\s*[\[{]`)

// jsonStrings finds the string literals of a data object.
var jsonStrings = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"\s*[,}\]]`)

// idRef finds the ids inline code addresses.
var idRef = regexp.MustCompile(`getElementById\(\s*['"]([^'"]+)['"]|querySelector(?:All)?\(\s*['"]#([\w-]+)`)

func scan(page string) signals {
	var s signals
	z := html.NewTokenizer(strings.NewReader(page))
	var code bytes.Buffer
	emptyIDs := map[string]bool{}
	// Elements whose text is not shown.
	hidden := 0
	inNoscript, inScript, inStyle := false, false, false
	scriptIsData := false
	var noscript strings.Builder
	lastSpace := true
	// openID is the id of the element opened last, while nothing has
	// come inside it; it is empty if its end tag follows.
	openID := ""
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			// The regular expressions are most of the cost: they run only
			// on the pages short enough for a rule to apply.
			s.noscriptAsksJS = askJS.MatchString(noscript.String())
			s.finish(code.String(), emptyIDs)
			return s
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			id, typ := "", ""
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				switch string(k) {
				case "id":
					id = string(v)
				case "type":
					typ = strings.ToLower(strings.TrimSpace(string(v)))
				}
			}
			openID = ""
			if tt == html.StartTagToken && id != "" {
				openID = id
			}
			switch a {
			case atom.Script:
				inScript = tt == html.StartTagToken
				scriptIsData = strings.Contains(typ, "json")
				if !scriptIsData && (typ == "" || strings.Contains(typ, "javascript") || typ == "module") {
					s.scripts++
				}
			case atom.Style:
				inStyle = tt == html.StartTagToken
			case atom.Noscript:
				inNoscript = tt == html.StartTagToken
			case atom.Template, atom.Head, atom.Title:
				if tt == html.StartTagToken {
					hidden++
				}
			case atom.Br, atom.P, atom.Div, atom.Li, atom.Td, atom.H1, atom.H2, atom.H3:
				lastSpace = true
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Script:
				inScript = false
			case atom.Style:
				inStyle = false
			case atom.Noscript:
				inNoscript = false
			case atom.Template, atom.Head, atom.Title:
				hidden = max(hidden-1, 0)
			}
			if openID != "" {
				emptyIDs[openID] = true
			}
			openID = ""
		case html.TextToken:
			t := z.Text()
			switch {
			case inScript && scriptIsData:
				s.dataText += stringText(t)
			case inScript:
				code.Write(t)
				code.WriteByte('\n')
			case inStyle:
			case inNoscript:
				// The tokenizer gives noscript content as text.
				noscript.Write(t)
			case hidden > 0:
			default:
				n := visible(t, &lastSpace)
				s.text += n
				if n > 0 {
					openID = ""
				}
				if s.text >= shortText {
					return s
				}
			}
		}
	}
}

// finish derives the signals that need all inline code.
func (s *signals) finish(code string, emptyIDs map[string]bool) {
	if code == "" {
		return
	}
	s.buildsDOM = domBuilding.MatchString(code)
	s.loadsData = dataLoading.MatchString(code)
	for _, m := range idRef.FindAllStringSubmatch(code, -1) {
		if emptyIDs[m[1]] || emptyIDs[m[2]] {
			s.addressesEmpty = true
			break
		}
	}
	for _, loc := range assignedObject.FindAllStringIndex(code, -1) {
		s.dataText += stringText([]byte(code[loc[1]-1:]))
	}
}

// stringText counts the characters of string values in a data object,
// up to the end of the object (the first line that closes it, roughly):
// only strings of words count, not ids or URLs.
func stringText(b []byte) int {
	if len(b) > 1<<20 {
		b = b[:1<<20]
	}
	n := 0
	for _, m := range jsonStrings.FindAllSubmatch(b, -1) {
		v := m[1]
		if bytes.ContainsAny(v, " ") || !isASCII(v) {
			n += utf8.RuneCount(v)
		}
	}
	return n
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf || c == '\\' {
			return false
		}
	}
	return true
}

// visible counts the characters of text as shown, runs of white space as
// one.
func visible(t []byte, lastSpace *bool) int {
	n := 0
	for len(t) > 0 {
		c := t[0]
		var space bool
		if c < utf8.RuneSelf {
			t = t[1:]
			space = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v'
		} else {
			r, size := utf8.DecodeRune(t)
			t = t[size:]
			space = unicode.IsSpace(r)
		}
		if space {
			if !*lastSpace {
				n++
				*lastSpace = true
			}
			continue
		}
		n++
		*lastSpace = false
	}
	return n
}
