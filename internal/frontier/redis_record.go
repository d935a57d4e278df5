package frontier

import (
	"fmt"
	"slices"
	"strings"
)

// The layout of the Redis store's records, defined once here and given to
// every Lua script by name (luaRecordNames), so that no script numbers a
// field itself.
//
// A URL's record is a MessagePack array; its fields are numbered from 1,
// as Lua counts. A queued URL's record stops at recSeq; a leased or
// fetched one carries the rest.
const (
	recURL     = iota + 1 // the URL
	recHost               // its host[:port], "" when it is the URL's own
	recState              // State
	recPrio               // priority
	recDepth              // links from a seed
	recParent             // the parent's id, "" for a seed
	recAnchor             // the anchor text of the link
	recInh                // the inherited score
	recMeta               // Entry.Meta as JSON text, "" for none
	recSeq                // sequence number, the queue's last tie-break
	recLeased             // when leased (ms)
	recUntil              // lease end (ms)
	recOwner              // the lease's owner, decimal
	recFetched            // when fetched (ms); 0 on a failed URL never fetched
	recStatus             // http status
	recScore              // page score
	recRel                // relevant: 1, not: 0, unscored: -1
	recErr                // the error
	// recTries counts transient failures; recLogPos is the URL's place
	// in the log of fetched URLs (History skips older entries of a URL
	// fetched again).
	recTries
	recLogPos
	// recRes is 1 on a URL of the reserve (reserve.go), in every state;
	// such a record carries every field before it, so that it still packs
	// as a MessagePack array.
	recRes
	// recPrior and recClass: a URL queued while the frontier learns
	// keeps the link priority it was queued with and the id of its finest
	// URL class (redis_classes.go); such a record carries every field
	// before them.
	recPrior
	recClass
)

// A host's failure state (hs: host -> MessagePack array): its mode, the
// error that parked it, since, next probe, the wait before it, failed
// probes, timeouts in a row, the probe's id, URLs failed on give-up. A
// clean host (HostStatus.Clean) has no record.
const (
	hrecMode = iota + 1
	hrecReason
	hrecSince
	hrecRetry
	hrecWait
	hrecTries
	hrecTimeouts
	hrecProbe
	hrecHeld
)

// A URL class's record (cls:HOST field KEY): id, parent's key, fetched,
// relevant, Σ labels, Σ priors, the estimate its queued URLs carry.
const (
	crecID = iota + 1
	crecParent
	crecFetched
	crecRelevant
	crecLabels
	crecPriors
	crecApplied
)

// A link's record (edges: the ids of from and to, 16 bytes -> MessagePack
// array): its priority, anchor text and context.
const (
	erecPrio = iota + 1
	erecAnchor
	erecContext
)

// recFields names the fields of a URL's record, as the scripts do.
var recFields = []luaName{
	{"URL", recURL}, {"HOST", recHost}, {"STATE", recState}, {"PRIO", recPrio}, {"DEPTH", recDepth},
	{"PARENT", recParent}, {"ANCHOR", recAnchor}, {"INH", recInh}, {"META", recMeta}, {"SEQ", recSeq},
	{"LEASED", recLeased}, {"UNTIL", recUntil}, {"OWNER", recOwner}, {"FETCHED", recFetched},
	{"STATUS", recStatus}, {"SCORE", recScore}, {"REL", recRel}, {"ERR", recErr}, {"TRIES", recTries},
	{"LOGPOS", recLogPos}, {"RES", recRes}, {"PRIOR", recPrior}, {"CLASS", recClass},
}

// luaRecordNames declares the field numbers above as Lua locals under
// the names the scripts use.
var luaRecordNames = luaLocals(recFields) + luaLocals([]luaName{
	{"PK", hrecMode}, {"REASON", hrecReason}, {"SINCE", hrecSince}, {"RETRY", hrecRetry},
	{"WAIT", hrecWait}, {"HTRIES", hrecTries}, {"TIMEOUTS", hrecTimeouts}, {"PROBE", hrecProbe},
	{"HELD", hrecHeld},
}) + luaLocals([]luaName{
	{"CL_ID", crecID}, {"CL_PARENT", crecParent}, {"CL_FETCHED", crecFetched},
	{"CL_RELEVANT", crecRelevant}, {"CL_LABELS", crecLabels}, {"CL_PRIORS", crecPriors},
	{"CL_APPLIED", crecApplied},
}) + luaLocals([]luaName{{"EG_PRIO", erecPrio}, {"EG_ANCHOR", erecAnchor}, {"EG_CONTEXT", erecContext}})

// packedRecord is a URL's record as stored, read by field (recURL …): a
// field of another kind than the layout gives it is an error that names
// the field (err, the first), not a zero.
type packedRecord struct {
	fields []any
	err    error
}

// readRecord decodes a URL's record; it carries at least the fields of a
// queued URL (up to recSeq).
func readRecord(b []byte) (*packedRecord, error) {
	fields, err := decodeMsgpackArray(b)
	if err != nil {
		return nil, err
	}
	if len(fields) < recSeq {
		return nil, fmt.Errorf("a record of %d fields, less than %d", len(fields), recSeq)
	}
	return &packedRecord{fields: fields}, nil
}

// number reads a numeric field as the scripts' Lua has it.
func (r *packedRecord) number(field int) float64 {
	v := r.field(field)
	f, ok := msgpackNumber(v)
	if !ok {
		r.fail(field, v, "a number")
	}
	return f
}

// text reads a field of text.
func (r *packedRecord) text(field int) string {
	v := r.field(field)
	s, ok := v.(string)
	if !ok {
		r.fail(field, v, "text")
	}
	return s
}

func (r *packedRecord) field(field int) any {
	if field > len(r.fields) {
		return nil
	}
	return r.fields[field-1]
}

func (r *packedRecord) fail(field int, v any, want string) {
	if r.err != nil {
		return
	}
	name := fmt.Sprint(field)
	if i := slices.IndexFunc(recFields, func(n luaName) bool { return n.value == int64(field) }); i >= 0 {
		name = recFields[i].name
	}
	r.err = fmt.Errorf("record field %s is %T %v, not %s", name, v, v, want)
}

// luaRecordMakers declares the Lua functions that build a new record:
// newrecord, a URL's record as queued, and newedge, a link's.
var luaRecordMakers = luaMaker("newrecord", []luaName{
	{"url", recURL}, {"host", recHost}, {"state", recState}, {"prio", recPrio}, {"depth", recDepth},
	{"parent", recParent}, {"anchor", recAnchor}, {"inh", recInh}, {"meta", recMeta}, {"seq", recSeq},
}) + luaMaker("newedge", []luaName{{"prio", erecPrio}, {"anchor", erecAnchor}, {"context", erecContext}})

// luaMaker declares a Lua function, name(param, …), that builds a table
// of the fields the params name, with one table constructor: each param
// goes to its field's place, so that the function's params keep their
// order whatever the numbers of the fields, and the table is built as
// fast as Lua builds one (its array part, not a hash of numbered keys).
// The fields must be 1 … len(params).
func luaMaker(name string, params []luaName) string {
	places := make([]string, len(params))
	var args []string
	for _, p := range params {
		if p.value < 1 || p.value > int64(len(params)) || places[p.value-1] != "" {
			panic(fmt.Sprintf("frontier: %s: the fields are not 1 … %d", name, len(params)))
		}
		places[p.value-1] = p.name
		args = append(args, p.name)
	}
	return fmt.Sprintf("local function %s(%s) return {%s} end\n", name, strings.Join(args, ", "), strings.Join(places, ", "))
}

// luaName is a Go constant as a Lua script names it.
type luaName struct {
	name  string
	value int64
}

// luaLocals declares names as one Lua local statement.
func luaLocals(names []luaName) string {
	var left, right []string
	for _, n := range names {
		left = append(left, n.name)
		right = append(right, fmt.Sprint(n.value))
	}
	return "local " + strings.Join(left, ", ") + " = " + strings.Join(right, ", ") + "\n"
}
