package simweb

import (
	"embed"
	"fmt"
	"strings"
)

// Topics are the topics of the simulated web, in a fixed order: truth
// records and Config refer to them by these names.
var Topics = []string{"books", "forestry", "travel", "finance", "sports", "health"}

// Topic indexes into Topics; noTopic marks pages and sites about nothing in
// particular (administration, navigation, mixed portals).
const noTopic = -1

// TopicIndex returns the index of the named topic in Topics, or -1.
func TopicIndex(name string) int {
	for i, t := range Topics {
		if t == name {
			return i
		}
	}
	return noTopic
}

//go:embed vocab/*.txt
var vocabFiles embed.FS

// Vocabulary is the word list of one topic in one language.
type Vocabulary struct {
	Topic string
	Lang  string
	Words []string
}

// common holds the shared words of one language by part of speech.
type common struct {
	nouns, verbs, adjs, advs []string
}

// lexicon is every word list, loaded once from the embedded files.
type lexicon struct {
	topic  map[string][2][]string // topic -> [zh, en]
	common [2]common
}

const (
	langZH = 0
	langEN = 1
)

var langNames = [2]string{"zh", "en"}

var lex = mustLoadLexicon()

func mustLoadLexicon() *lexicon {
	l, err := loadLexicon()
	if err != nil {
		panic(err) // the files are embedded: only a broken build gets here
	}
	return l
}

func loadLexicon() (*lexicon, error) {
	l := &lexicon{topic: map[string][2][]string{}}
	for _, t := range Topics {
		var pair [2][]string
		for li, lang := range langNames {
			name := fmt.Sprintf("vocab/%s.%s.txt", t, lang)
			sections, err := readWords(name)
			if err != nil {
				return nil, err
			}
			pair[li] = sections[""]
		}
		l.topic[t] = pair
	}
	for li, lang := range langNames {
		name := fmt.Sprintf("vocab/common.%s.txt", lang)
		s, err := readWords(name)
		if err != nil {
			return nil, err
		}
		l.common[li] = common{nouns: s["noun"], verbs: s["verb"], adjs: s["adj"], advs: s["adv"]}
		for _, sec := range []string{"noun", "verb", "adj", "adv"} {
			if len(s[sec]) == 0 {
				return nil, fmt.Errorf("%s: section @%s is empty", name, sec)
			}
		}
	}
	return l, nil
}

// readWords reads a word file: whitespace-separated words, # comments,
// and @section lines that start a named section. Duplicates are dropped so
// sampling stays uniform.
func readWords(name string) (map[string][]string, error) {
	data, err := vocabFiles.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("vocabulary %s: %w", name, err)
	}
	out := map[string][]string{}
	seen := map[string]bool{}
	section := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "@"):
			section = line[1:]
			continue
		}
		for _, w := range strings.Fields(line) {
			key := section + "\x00" + w
			if seen[key] {
				continue
			}
			seen[key] = true
			out[section] = append(out[section], w)
		}
	}
	return out, nil
}

// Vocabularies returns every topic's word list in both languages, for
// tests and for users who want to know what the pages are made of.
func Vocabularies() []Vocabulary {
	var out []Vocabulary
	for _, t := range Topics {
		for li, lang := range langNames {
			out = append(out, Vocabulary{Topic: t, Lang: lang, Words: append([]string(nil), lex.topic[t][li]...)})
		}
	}
	return out
}

// topicWords returns the words of topic t (an index) in language lang.
func topicWords(t, lang int) []string { return lex.topic[Topics[t]][lang] }
