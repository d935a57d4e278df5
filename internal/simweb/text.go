package simweb

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// Text: sentences come from templates whose slots are filled with topic
// terms, common nouns, verbs, adjectives, adverbs, places, organisations
// and numbers. A topic page mixes in sentences of other topics and plain
// administrative sentences, and an off-topic page borrows a few topic
// terms, so telling them apart takes a real scorer.
//
// Slots: {T} topic term, {N} common noun, {V} verb, {A} adjective,
// {D} adverb, {P} place, {O} organisation, {#} number, {Y} year, {M} month
// number, {DAY} day of the month, {MONTH} month name, {NAME} a person.

var sentencesZH = []string{
	"近日，{P}召开{T}工作会议，研究部署{T}和{T}等重点任务。",
	"会议指出，要{D}{V}{T}，{V}{T}{N}，{V}{N}{N}。",
	"据了解，{P}今年共{V}{T}项目{#}个，总投资{#}亿元。",
	"{T}是{T}的{A}{N}，对{V}{T}具有{A}意义。",
	"专家认为，{T}与{T}之间存在{A}联系，应当{V}{N}{N}。",
	"在{T}方面，{O}{D}{V}了{T}和{T}的{N}。",
	"{P}的{T}{N}{D}{V}，{T}{N}也{D}{V}。",
	"下一步，{O}将{D}{V}{T}，{V}{T}{N}，为{V}{T}提供{A}{N}。",
	"记者从{O}获悉，{P}{T}{N}已经{V}，{#}名{N}参与了{T}。",
	"{T}、{T}和{T}是当前{T}的{A}{N}。",
	"通过{V}{T}，{P}的{T}{N}得到{A}{V}。",
	"{O}负责人表示，将{V}{T}{N}，{V}{T}{N}。",
	"截至{Y}年底，{P}{T}{N}达到{#}%，比上年提高{#}个百分点。",
	"许多{N}反映，{T}{N}{A}，希望{D}{V}{T}。",
	"{T}的{N}主要包括{T}、{T}、{T}等。",
	"为{V}{T}，{P}{V}了{T}{N}，全年开展{T}{#}次。",
	"从{N}来看，{T}仍然是{T}的{A}{N}。",
	"{Y}年，{O}{V}{T}{N}{#}项，{V}{T}{N}{#}项。",
	"业内人士指出，{T}{D}{V}，{T}{N}{A}。",
	"{P}{D}{V}{T}与{T}相结合的{N}，取得{A}{N}。",
	"今年以来，{O}围绕{T}和{T}，组织开展专项行动{#}次。",
	"{T}事关{T}，是一项长期而艰巨的任务。",
	"据统计，全年共完成{T}{#}项，{T}{#}项。",
	"{O}有关负责人介绍，{T}工作已纳入年度考核。",
	"在{P}，{T}已经成为当地的一张名片。",
	"与会人员围绕{T}、{T}等问题进行了深入交流。",
	"{P}将继续加大对{T}的投入，确保{T}取得实效。",
	"目前，{P}{T}工作总体平稳，{T}稳步推进。",
	"{T}和{T}的协同发展，为{P}带来了新的机遇。",
	"培训班邀请专家就{T}、{T}和{T}进行了专题讲解。",
	"{O}印发了关于加强{T}的指导意见。",
	"针对{T}中存在的问题，{O}提出了{#}条具体措施。",
	"不少群众表示，{T}让他们受益匪浅。",
	"下一阶段，将重点抓好{T}、{T}两项工作。",
}

var adminZH = []string{
	"{O}{D}{V}{N}{N}，{V}{N}{N}。",
	"会议要求，各{N}要{D}{V}{N}，{V}{N}，确保{N}{A}。",
	"{Y}年以来，{O}{D}{V}{N}{N}，{V}{N}{#}项。",
	"本{N}自发布之日起施行，由{O}负责解释。",
	"请各{N}于{M}月{DAY}日前将{N}报送{O}办公室。",
	"{O}召开{N}会议，{V}{N}{N}和{N}{N}。",
	"全体{N}要{D}{V}{N}，{V}{A}{N}。",
	"联系电话：0{#}-{#}{#}，联系人：{NAME}。",
}

var sentencesEN = []string{
	"Officials in {P} said the new {T} program would focus on {T} and {T} over the next {#} years.",
	"The {A} {T} report, released by {O}, found that {T} and {T} have improved across {P}.",
	"According to {O}, {T} {N} increased by {#} percent last year.",
	"Experts say {T} remains a {A} issue for {N} in {P}.",
	"{P} has invested {#} million dollars in {T} and {T} since {Y}.",
	"Many {N} are turning to {T} as a way to reduce {T} costs.",
	"In a statement, {O} {V} that {T} would remain a priority this year.",
	"{T}, {T} and {T} are the {A} areas of focus for {O}.",
	"A {A} approach to {T} can help {N} manage {T} more effectively.",
	"Our guide to {T} covers everything from {T} to {T}.",
	"The study compared {T} with {T} in {#} {N} and found {A} differences.",
	"Local {N} {V} the plan, which includes new {T} and {T}.",
	"Demand for {T} has grown steadily, while {T} has remained {A}.",
	"There is still much to learn about {T} and its effect on {T}.",
	"Readers can find more about {T} and {T} in our {T} section.",
	"By the end of {Y}, {P} expects {T} to reach {#} percent of its {T} target.",
	"{O} {V} that {T} and {T} will be reviewed at its next meeting.",
	"The {T} season in {P} is {D} under way, with {#} {T} events planned.",
	"{O} announced a new plan for {T} on Tuesday.",
	"The report covers {T}, {T} and {T} across {P}.",
	"Participants discussed {T} and {T} at the annual meeting in {P}.",
	"{P} will increase funding for {T} next year, officials said.",
	"Interest in {T} has risen sharply in {P} since {Y}.",
	"New guidelines on {T} were published by {O} last month.",
	"Speakers from {O} gave talks on {T}, {T} and {T}.",
	"For many residents of {P}, {T} is part of everyday life.",
	"The program aims to improve {T} while protecting {T}.",
	"More than {#} people took part in the {T} survey.",
}

var adminEN = []string{
	"{O} {V} its {A} {N} for the coming year.",
	"The {N} will be held on {MONTH} {DAY} at the {P} office.",
	"Applications for the {N} close at the end of {MONTH}.",
	"For more information, contact the {N} office of {O}.",
	"{O} {D} {V} changes to its {N} and {N}.",
	"Staff and {N} are invited to attend the {A} {N} meeting.",
}

var months = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

var titlesZH = []string{
	"{P}{V}{T}工作", "关于{V}{T}{N}的通知", "{P}召开{T}{N}会议", "{T}{N}{V}{A}成效", "{O}{V}{T}和{T}{N}",
	"{Y}年{P}{T}{N}报告", "专家解读：{T}{N}如何{V}", "{T}：{T}{V}的{A}{N}", "{P}{T}{N}{D}{V}", "{T}与{T}：{A}{N}",
}
var adminTitlesZH = []string{"关于{V}{N}{N}的通知", "{O}召开{N}会议", "{Y}年{N}{N}公示", "{O}{V}{N}{N}", "关于{N}{N}的公告"}
var titlesEN = []string{
	"{P} sets new goals for {T}", "How {T} is changing {T}", "{#} things to know about {T}", "{O} releases {Y} {T} report",
	"Why {T} matters for {T}", "A guide to {T} and {T}", "{T} and {T}: what the data show", "The future of {T} in {P}",
	"{T}: {A} lessons from {P}", "Inside the {T} debate",
}
var adminTitlesEN = []string{"{O} announces {N} changes", "Notice of {A} {N} meeting", "{Y} {N} schedule", "Update on {N} and {N}"}

// textGen writes the text of one page.
type textGen struct {
	r     *rand.Rand
	lang  int
	topic int // the page's topic, or noTopic
	place string
	org   string
	// focus holds the few terms a page is mostly about; its title and its
	// text draw from them, as real articles repeat their subject.
	focus []string
	sb    strings.Builder
}

// zipfIndex draws an index in [0,n) with a heavy head: the word files list
// the core terms of a topic first, and real text uses them far more often
// than the rare ones (the first 1% of the list gets a fifth of the draws).
func zipfIndex(r *rand.Rand, n int) int {
	u := r.Float64()
	return int(float64(n) * u * u * u)
}

// focusTerms draws the focus of a page about topic t.
func focusTerms(r *rand.Rand, t, lang int) []string {
	words := topicWords(t, lang)
	out := make([]string, 5)
	for i := range out {
		out[i] = words[zipfIndex(r, len(words))]
	}
	return out
}

func (g *textGen) common() *common { return &lex.common[g.lang] }

// term returns a term of topic t, readable in English.
func (g *textGen) term(t int) string {
	var w string
	if t == g.topic && len(g.focus) > 0 && g.r.IntN(100) < 45 {
		w = pick(g.r, g.focus)
	} else {
		words := topicWords(t, g.lang)
		w = words[zipfIndex(g.r, len(words))]
	}
	if g.lang == langEN && strings.Contains(w, "-") && !strings.ContainsAny(w, "0123456789") {
		w = strings.ReplaceAll(w, "-", " ")
	}
	return w
}

// orgFor names an organisation that talks about topic t.
func (g *textGen) orgFor(t int) string {
	if g.org != "" && chance(g.r, 0.6) {
		return g.org
	}
	if g.lang == langEN {
		if t < 0 {
			return "the " + pick(g.r, placesEN) + " council"
		}
		return "the " + pick(g.r, placesEN) + " " + enAuthNameOrPublishers(t)
	}
	p := pick(g.r, provinces).zh
	if t < 0 {
		return pick(g.r, cities).zh + "人民政府"
	}
	if t == 0 {
		return p + "出版集团"
	}
	return p + authSuffix[t][1]
}

func enAuthNameOrPublishers(t int) string {
	if t == 0 {
		return "Publishers Association"
	}
	return enAuthName[t][1]
}

func (g *textGen) placeName() string {
	if g.place != "" && chance(g.r, 0.5) {
		return g.place
	}
	if g.lang == langEN {
		return pick(g.r, placesEN)
	}
	if chance(g.r, 0.5) {
		return pick(g.r, provinces).zh
	}
	return pick(g.r, cities).zh
}

func (g *textGen) person() string {
	if g.lang == langEN {
		return pick(g.r, firstEN) + " " + pick(g.r, lastEN)
	}
	return pick(g.r, surnamesZH) + pick(g.r, givenZH)
}

// fill writes template tpl with topic t into the builder.
func (g *textGen) fill(tpl string, t int) {
	c := g.common()
	for i := 0; i < len(tpl); i++ {
		if tpl[i] != '{' {
			g.sb.WriteByte(tpl[i])
			continue
		}
		j := strings.IndexByte(tpl[i:], '}')
		slot := tpl[i+1 : i+j]
		i += j
		switch slot {
		case "T":
			if t < 0 {
				g.sb.WriteString(pick(g.r, c.nouns))
			} else {
				g.sb.WriteString(g.term(t))
			}
		case "N":
			g.sb.WriteString(pick(g.r, c.nouns))
		case "V":
			g.sb.WriteString(pick(g.r, c.verbs))
		case "A":
			g.sb.WriteString(pick(g.r, c.adjs))
		case "D":
			g.sb.WriteString(pick(g.r, c.advs))
		case "P":
			g.sb.WriteString(g.placeName())
		case "O":
			g.sb.WriteString(g.orgFor(t))
		case "#":
			g.sb.WriteString(strconv.Itoa(between(g.r, 2, 98)))
		case "Y":
			g.sb.WriteString(strconv.Itoa(between(g.r, 2019, 2026)))
		case "NAME":
			g.sb.WriteString(g.person())
		case "MONTH":
			g.sb.WriteString(pick(g.r, months))
		case "M":
			g.sb.WriteString(strconv.Itoa(between(g.r, 1, 12)))
		case "DAY":
			g.sb.WriteString(strconv.Itoa(between(g.r, 1, 28)))
		}
	}
}

// sentenceTopic decides what one sentence of a page about topic t is
// about: mostly t, sometimes another topic, sometimes nothing.
func (g *textGen) sentenceTopic() int {
	x := g.r.Float64()
	if g.topic < 0 {
		switch {
		case x < 0.12:
			return g.r.IntN(len(Topics))
		default:
			return noTopic
		}
	}
	switch {
	case x < 0.72:
		return g.topic
	case x < 0.82:
		return g.r.IntN(len(Topics))
	}
	return noTopic
}

// sentence appends one sentence.
func (g *textGen) sentence() {
	t := g.sentenceTopic()
	var tpl string
	if t < 0 {
		if g.lang == langEN {
			tpl = pick(g.r, adminEN)
		} else {
			tpl = pick(g.r, adminZH)
		}
	} else if g.lang == langEN {
		tpl = pick(g.r, sentencesEN)
	} else {
		tpl = pick(g.r, sentencesZH)
	}
	start := g.sb.Len()
	g.fill(tpl, t)
	if g.lang == langEN {
		g.fixEnglish(start)
		g.sb.WriteByte(' ')
	}
}

// fixEnglish capitalises the sentence written from start and turns "a"
// into "an" before a vowel.
func (g *textGen) fixEnglish(start int) {
	s := g.sb.String()
	sent := s[start:]
	if strings.Contains(sent, " a ") {
		for _, v := range []string{"a", "e", "i", "o", "u"} {
			sent = strings.ReplaceAll(sent, " a "+v, " an "+v)
		}
	}
	sent = title(sent)
	g.sb.Reset()
	g.sb.WriteString(s[:start])
	g.sb.WriteString(sent)
}

// paragraph returns a paragraph of n sentences.
func (g *textGen) paragraph(n int) string {
	g.sb.Reset()
	for i := 0; i < n; i++ {
		g.sentence()
	}
	return strings.TrimSpace(g.sb.String())
}

// title returns a headline about topic t (noTopic: administrative).
func (g *textGen) title(t int) string {
	g.sb.Reset()
	var tpl string
	switch {
	case t < 0 && g.lang == langEN:
		tpl = pick(g.r, adminTitlesEN)
	case t < 0:
		tpl = pick(g.r, adminTitlesZH)
	case g.lang == langEN:
		tpl = pick(g.r, titlesEN)
	default:
		tpl = pick(g.r, titlesZH)
	}
	g.fill(tpl, t)
	if g.lang == langEN {
		g.fixEnglish(0)
	}
	return g.sb.String()
}

// phrase returns a short phrase of n topic terms (anchors, tags).
func (g *textGen) phrase(t, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.term(t)
	}
	if g.lang == langEN {
		return title(strings.Join(parts, " "))
	}
	return strings.Join(parts, "")
}
