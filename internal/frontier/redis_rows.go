package frontier

import "fmt"

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
	histWidth    = histRedirect
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
	replWidth       = replFetched
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
	peekWidth   = peekReserve
)

// A row of redisHostList's answer: a parked or given-up host.
const (
	hlistHost = iota + 1
	hlistMode // HostMode
	hlistReason
	hlistSince // ms
	hlistRetry // next probe (ms)
	hlistTries
	hlistURLs  // held (parked), or failed on giving up
	hlistWidth = hlistURLs
)

// A row of redisFailedPage's answer: a failed URL.
const (
	failID = iota + 1
	failURL
	failHost
	failErr
	failWidth = failErr
)

// A row of redisEdges' answer: a link between known URLs.
const (
	edgeFrom = iota + 1
	edgeTo
	edgePrio // as text
	edgeAnchor
	edgeContext
	edgeWidth = edgeContext
)

// A row of redisPageScores' answer.
const (
	scoreURL   = iota + 1
	scoreValue // as text
	scoreWidth = scoreValue
)

// A row of redisHostHeld's answer: a URL a host holds.
const (
	heldID = iota + 1
	heldURL
	heldWidth = heldURL
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
	luaLeaseRow   = luaLocals([]luaName{{"L_REC", lrowRecord}, {"L_PARENT", lrowParent}, {"L_SITE", lrowSite}})
	luaHistoryRow = luaLocals([]luaName{
		{"HI_URL", histURL}, {"HI_HOST", histHost}, {"HI_DEPTH", histDepth}, {"HI_STATUS", histStatus},
		{"HI_FETCHED", histFetched}, {"HI_SCORE", histScore}, {"HI_REL", histRel}, {"HI_ERR", histErr},
		{"HI_REDIRECT", histRedirect},
	})
	luaReplayRow = luaLocals([]luaName{
		{"RP_URL", replURL}, {"RP_PARENT", replParent}, {"RP_ANCHOR", replAnchor}, {"RP_CONTEXT", replContext},
		{"RP_PSCORE", replParentScore}, {"RP_SCORE", replScore}, {"RP_FAILED", replFailed}, {"RP_FETCHED", replFetched},
	})
	luaPeekRow = luaLocals([]luaName{
		{"PE_URL", peekURL}, {"PE_HOST", peekHost}, {"PE_PRIO", peekPrio}, {"PE_DEPTH", peekDepth},
		{"PE_TRIES", peekTries}, {"PE_PARKED", peekParked}, {"PE_RES", peekReserve},
	})
	luaHostListRow = luaLocals([]luaName{
		{"HL_HOST", hlistHost}, {"HL_MODE", hlistMode}, {"HL_REASON", hlistReason}, {"HL_SINCE", hlistSince},
		{"HL_RETRY", hlistRetry}, {"HL_TRIES", hlistTries}, {"HL_URLS", hlistURLs},
	})
	luaFailedRow = luaLocals([]luaName{{"F_ID", failID}, {"F_URL", failURL}, {"F_HOST", failHost}, {"F_ERR", failErr}})
	luaEdgeRow   = luaLocals([]luaName{
		{"ER_FROM", edgeFrom}, {"ER_TO", edgeTo}, {"ER_PRIO", edgePrio}, {"ER_ANCHOR", edgeAnchor}, {"ER_CONTEXT", edgeContext},
	})
	luaScoreRow = luaLocals([]luaName{{"PS_URL", scoreURL}, {"PS_SCORE", scoreValue}})
	luaHeldRow  = luaLocals([]luaName{{"HD_ID", heldID}, {"HD_URL", heldURL}})
)

// scriptRow is one row of a layout above, as Go builds it for a script
// or reads it from a script's answer: fields go by their names, which
// count from 1.
type scriptRow []any

func newRow(width int) scriptRow { return make(scriptRow, width) }

func (r scriptRow) set(field int, v any) { r[field-1] = v }
func (r scriptRow) get(field int) any    { return r[field-1] }
func (r scriptRow) str(field int) string { return str(r[field-1]) }
func (r scriptRow) num(field int) int64  { return num(r[field-1]) }
func (r scriptRow) flt(field int) float64 {
	return flt(r[field-1])
}

// replyOf reads an answer of two parts (replyHead, replyRows) whose rows
// are width fields each.
func replyOf(v any, width int) (head any, rows []scriptRow, err error) {
	a, ok := v.([]any)
	if !ok || len(a) != replyWidth {
		return nil, nil, fmt.Errorf("unexpected answer %v", v)
	}
	r := scriptRow(a)
	rows, err = rowsOf(r.get(replyRows), width)
	return r.get(replyHead), rows, err
}

// rowsOf reads a script's answer made of rows of width fields each.
func rowsOf(v any, width int) ([]scriptRow, error) {
	list, ok := v.([]any)
	if !ok && v != nil {
		return nil, fmt.Errorf("unexpected answer %v", v)
	}
	out := make([]scriptRow, len(list))
	for i, x := range list {
		row, ok := x.([]any)
		if !ok || len(row) != width {
			return nil, fmt.Errorf("unexpected row %v", x)
		}
		out[i] = row
	}
	return out, nil
}
