package frontier

import (
	"errors"
	"fmt"
	"strconv"
)

// The rows that travel between Go and the Redis store's Lua scripts, each
// layout defined once here: Go builds and reads a row through these
// names (scriptRow), and each script is given the names of its rows as
// Lua locals (luaApplyRows …), as redis_record.go does for the stored
// records, so that neither side numbers a field itself. A row is a Lua
// array, its fields numbered from 1 as Lua counts; the width of a layout
// is its last field.

// A row of Apply's queue (redisApply): a URL to queue.
const (
	qrowURL       = iota + 1
	qrowID        // the URL's id (bytes)
	qrowHost      // its politeness key
	qrowSite      // its site, in the first row of its host in a chunk, else ""
	qrowPrio      // the link's priority
	qrowDepth     // links from a seed
	qrowParentURL // the parent's URL, "" for a seed
	qrowParentID  // the parent's id (bytes; zeros: none)
	qrowAnchor    // the anchor text of the link
	qrowInherited // the inherited score
	qrowMeta      // Entry.Meta as JSON text, "" for none
	qrowRobots    // 1: refused by the robots.txt rules the caller read
	qrowReserve   // 1: queued in the reserve
	qrowClass     // its URL class, as its place in the chunk's classes (0: none)
	// qrowRecord is the URL's record as stored if it is new and queued,
	// packed in Go but for its sequence number (redisRecordHead).
	qrowRecord
	qrowWidth = qrowRecord
)

// A row of Apply's done rows: a URL that came back, or the target of its
// redirect in the row after it.
const (
	drowURL     = iota + 1
	drowID      // as bytes beside the JSON (applyArgDone)
	drowHost    // its politeness key
	drowSite    // its site
	drowDepth   // links from a seed
	drowState   // Done or Failed
	drowFetched // when fetched (ms)
	drowStatus  // http status
	drowScore   // page score
	drowRel     // relevant: 1, not: 0, unscored: -1
	drowErr     // the error
	drowTarget  // 1: the target of the redirect of the row before
	drowWidth   = drowTarget
)

// A row of Apply's edges: a link kept from a fetched page.
const (
	erowFrom   = iota + 1
	erowFromID // hex
	erowTo
	erowToID // hex
	erowPrio
	erowAnchor
	erowContext
	erowWidth = erowContext
)

// A row of redisLease's answer: a URL leased. Go reads the URL, depth,
// priority, anchor, inherited score and meta from its record, as stored
// (MessagePack): the script need not write the numbers as text.
const (
	lrowRecord = iota + 1
	lrowParent // the parent's URL
	lrowSite
	lrowWidth = lrowSite
)

// A row of redisHistory's answer: a URL fetched.
const (
	histURL = iota + 1
	histHost
	histDepth
	histStatus
	histFetched // when (ms)
	histScore   // as text
	histRel     // relevant: 1, not: 0, unscored: -1
	histErr
	histRedirect // 1: the target of a redirect, done with its URL
)

// A row of redisReplay's answer: a page judged, with the link to it.
const (
	replURL = iota + 1
	replParent
	replAnchor
	replContext
	replParentScore // as text
	replScore       // as text
	replFailed      // 1: failed
	replFetched     // when (ms)
)

// A row of redisPeek's answer: a URL next in lease order.
const (
	peekURL = iota + 1
	peekHost
	peekPrio // as text
	peekDepth
	peekTries
	peekParked  // 1: its host is parked
	peekReserve // 1: in the reserve
)

// A row of redisHostList's answer: a parked or given-up host.
const (
	hlistHost = iota + 1
	hlistMode // HostMode
	hlistReason
	hlistSince // ms
	hlistRetry // next probe (ms)
	hlistTries
	hlistURLs // held (parked), or failed on giving up
)

// A row of redisFailedPage's answer: a failed URL.
const (
	failID = iota + 1
	failURL
	failHost
	failErr
)

// A row of redisEdges' answer: a link between known URLs.
const (
	edgeFrom = iota + 1
	edgeTo
	edgePrio // as text
	edgeAnchor
	edgeContext
)

// A row of redisPageScores' answer.
const (
	scoreURL   = iota + 1
	scoreValue // as text
)

// A row of redisHostHeld's answer: a URL a host holds.
const (
	heldID = iota + 1
	heldURL
)

// The two parts of an answer that comes in pages or with a tag: its head
// (the next cursor, the count of entries read, or the tag) and its rows.
const (
	replyHead = iota + 1
	replyRows
	replyWidth = replyRows
)

// luaReply names the parts of a paged or tagged answer in every script;
// reply builds one.
var luaReply = luaLocals([]luaName{{"R_HEAD", replyHead}, {"R_ROWS", replyRows}}) + `
local function reply(head, rows)
  local a = {}
  a[R_HEAD], a[R_ROWS] = head, rows
  return a
end
`

// The layouts of the rows of the scripts' answers, as the scripts name
// their fields; Go reads a row by the same fields (answerRow), and an
// error names the field it could not read.
var (
	leaseAnswer   = rowLayout{{"L_REC", lrowRecord}, {"L_PARENT", lrowParent}, {"L_SITE", lrowSite}}
	historyAnswer = rowLayout{
		{"HI_URL", histURL}, {"HI_HOST", histHost}, {"HI_DEPTH", histDepth}, {"HI_STATUS", histStatus},
		{"HI_FETCHED", histFetched}, {"HI_SCORE", histScore}, {"HI_REL", histRel}, {"HI_ERR", histErr},
		{"HI_REDIRECT", histRedirect},
	}
	replayAnswer = rowLayout{
		{"RP_URL", replURL}, {"RP_PARENT", replParent}, {"RP_ANCHOR", replAnchor}, {"RP_CONTEXT", replContext},
		{"RP_PSCORE", replParentScore}, {"RP_SCORE", replScore}, {"RP_FAILED", replFailed}, {"RP_FETCHED", replFetched},
	}
	peekAnswer = rowLayout{
		{"PE_URL", peekURL}, {"PE_HOST", peekHost}, {"PE_PRIO", peekPrio}, {"PE_DEPTH", peekDepth},
		{"PE_TRIES", peekTries}, {"PE_PARKED", peekParked}, {"PE_RES", peekReserve},
	}
	hostListAnswer = rowLayout{
		{"HL_HOST", hlistHost}, {"HL_MODE", hlistMode}, {"HL_REASON", hlistReason}, {"HL_SINCE", hlistSince},
		{"HL_RETRY", hlistRetry}, {"HL_TRIES", hlistTries}, {"HL_URLS", hlistURLs},
	}
	failedAnswer = rowLayout{{"F_ID", failID}, {"F_URL", failURL}, {"F_HOST", failHost}, {"F_ERR", failErr}}
	edgeAnswer   = rowLayout{
		{"ER_FROM", edgeFrom}, {"ER_TO", edgeTo}, {"ER_PRIO", edgePrio}, {"ER_ANCHOR", edgeAnchor}, {"ER_CONTEXT", edgeContext},
	}
	scoreAnswer   = rowLayout{{"PS_URL", scoreURL}, {"PS_SCORE", scoreValue}}
	heldAnswer    = rowLayout{{"HD_ID", heldID}, {"HD_URL", heldURL}}
	answerLayouts = []rowLayout{leaseAnswer, historyAnswer, replayAnswer, peekAnswer, hostListAnswer, failedAnswer, edgeAnswer, scoreAnswer, heldAnswer}
)

// The Lua names of each script's rows.
var (
	luaApplyRows = luaLocals([]luaName{
		{"Q_URL", qrowURL}, {"Q_ID", qrowID}, {"Q_HOST", qrowHost}, {"Q_SITE", qrowSite}, {"Q_PRIO", qrowPrio},
		{"Q_DEPTH", qrowDepth}, {"Q_PURL", qrowParentURL}, {"Q_PID", qrowParentID}, {"Q_ANCHOR", qrowAnchor},
		{"Q_INH", qrowInherited}, {"Q_META", qrowMeta}, {"Q_ROBOTS", qrowRobots}, {"Q_RES", qrowReserve},
		{"Q_CLASS", qrowClass}, {"Q_REC", qrowRecord},
	}) + luaLocals([]luaName{
		{"D_URL", drowURL}, {"D_ID", drowID}, {"D_HOST", drowHost}, {"D_SITE", drowSite}, {"D_DEPTH", drowDepth},
		{"D_STATE", drowState}, {"D_FETCHED", drowFetched}, {"D_STATUS", drowStatus}, {"D_SCORE", drowScore},
		{"D_REL", drowRel}, {"D_ERR", drowErr}, {"D_TARGET", drowTarget},
	}) + luaLocals([]luaName{
		{"E_FROM", erowFrom}, {"E_FROMID", erowFromID}, {"E_TO", erowTo}, {"E_TOID", erowToID},
		{"E_PRIO", erowPrio}, {"E_ANCHOR", erowAnchor}, {"E_CONTEXT", erowContext},
	})
	luaLeaseRow    = luaLocals(leaseAnswer)
	luaHistoryRow  = luaLocals(historyAnswer)
	luaReplayRow   = luaLocals(replayAnswer)
	luaPeekRow     = luaLocals(peekAnswer)
	luaHostListRow = luaLocals(hostListAnswer)
	luaFailedRow   = luaLocals(failedAnswer)
	luaEdgeRow     = luaLocals(edgeAnswer)
	luaScoreRow    = luaLocals(scoreAnswer)
	luaHeldRow     = luaLocals(heldAnswer)
)

// scriptRow is one row of a layout above, as Go builds it for a script
// or reads it from a script's answer: fields go by their names, which
// count from 1.
type scriptRow []any

func newRow(width int) scriptRow { return make(scriptRow, width) }

func (r scriptRow) set(field int, v any) { r[field-1] = v }
func (r scriptRow) get(field int) any    { return r[field-1] }

// rowLayout names the fields of a row of a script's answer, 1 … n.
type rowLayout []luaName

// name is the name of field, for an error.
func (l rowLayout) name(field int) string {
	for _, n := range l {
		if n.value == int64(field) {
			return n.name
		}
	}
	return fmt.Sprint(field)
}

// answerRow is a row of a script's answer, read by field. A field of
// another type than asked reads as the zero value and makes err, the
// first such, name it: the caller returns err once it read the row.
type answerRow struct {
	fields scriptRow
	layout rowLayout
	err    error
}

func (r *answerRow) str(field int) string  { return readField(r, field, textOf, "text") }
func (r *answerRow) num(field int) int64   { return readField(r, field, intOf, "a whole number") }
func (r *answerRow) flt(field int) float64 { return readField(r, field, floatOf, "a number") }

// readField reads field of r with of, noting the field when it is not
// want.
func readField[T any](r *answerRow, field int, of func(any) (T, bool), want string) T {
	v := r.fields.get(field)
	x, ok := of(v)
	if !ok {
		r.fail(field, v, want)
	}
	return x
}

func (r *answerRow) fail(field int, v any, want string) {
	if r.err == nil {
		r.err = answerTypeError(r.layout.name(field), v, want)
	}
}

// errAnswer marks an answer of a script that is not of the shape or the
// types Go reads it as.
var errAnswer = errors.New("unexpected answer")

func answerTypeError(what string, v any, want string) error {
	return fmt.Errorf("%w: %s is %T %v, not %s", errAnswer, what, v, v, want)
}

// answerText reads a value of a script's answer as text; what names it,
// for the error.
func answerText(what string, v any) (string, error) {
	x, ok := textOf(v)
	if !ok {
		return "", answerTypeError(what, v, "text")
	}
	return x, nil
}

// answerInt reads a value of a script's answer as a whole number.
func answerInt(what string, v any) (int64, error) {
	x, ok := intOf(v)
	if !ok {
		return 0, answerTypeError(what, v, "a whole number")
	}
	return x, nil
}

// textOf reads text: Redis gives a Lua number as an integer.
func textOf(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case int64:
		return strconv.FormatInt(x, 10), true
	}
	return "", false
}

// intOf reads a whole number: an integer, or one as text.
func intOf(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// floatOf reads a number: one as text (a script writes a fraction so,
// '%.17g'), or an integer.
func floatOf(v any) (float64, bool) {
	switch x := v.(type) {
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	case int64:
		return float64(x), true
	}
	return 0, false
}

// replyOf reads an answer of two parts (replyHead, replyRows) whose rows
// are of layout.
func replyOf(v any, layout rowLayout) (head any, rows []answerRow, err error) {
	a, ok := v.([]any)
	if !ok || len(a) != replyWidth {
		return nil, nil, fmt.Errorf("%w %v", errAnswer, v)
	}
	r := scriptRow(a)
	rows, err = rowsOf(r.get(replyRows), layout)
	return r.get(replyHead), rows, err
}

// rowsOf reads a script's answer made of rows of layout.
func rowsOf(v any, layout rowLayout) ([]answerRow, error) {
	list, ok := v.([]any)
	if !ok && v != nil {
		return nil, fmt.Errorf("%w %v", errAnswer, v)
	}
	out := make([]answerRow, len(list))
	for i, x := range list {
		row, ok := x.([]any)
		if !ok || len(row) != len(layout) {
			return nil, fmt.Errorf("%w: row %v", errAnswer, x)
		}
		out[i] = answerRow{fields: row, layout: layout}
	}
	return out, nil
}
