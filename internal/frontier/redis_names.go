package frontier

import "strconv"

// luaNames starts every Lua script of the Redis store: the URL states,
// host modes and record fields under the names of their Go constants, so
// that no script writes one as a bare number; and the keys, counters and
// figures that scripts write and Go reads (KEY, COUNT, ST, CRAWL), so that
// no script spells one of them as a string of its own (TestNoNameStrings).
var luaNames = "\n" + luaLocals([]luaName{
	{"ST_QUEUED", int64(Queued)}, {"ST_LEASED", int64(Leased)}, {"ST_DONE", int64(Done)}, {"ST_FAILED", int64(Failed)},
	{"ST_PARKED", int64(Parked)}, {"ST_WAITING", int64(Waiting)}, {"ST_RESERVE", int64(Reserve)},
}) + luaLocals([]luaName{
	{"HOST_UP", int64(HostUp)}, {"HOST_PARKED", int64(HostParked)}, {"HOST_GIVEN_UP", int64(HostGivenUp)},
}) + luaRecordNames + luaTags("KEY", redisKeyNames) + luaTags("COUNT", redisCounterNames) +
	luaTags("ST", redisStatNames) + luaTags("CRAWL", redisMetaNames)

// The keys of the crawl (after its prefix) that the scripts write and Go
// reads; the scripts name them KEY.COUNTERS ….
const (
	keyCounters     = "counters"  // named counters (COUNT)
	keyStats        = "st"        // the URL figures (ST)
	keyMeta         = "meta"      // the crawl's own fields (META)
	keyHostURLs     = "h:urls"    // host -> its URLs
	keyHostFetched  = "h:fetched" // host -> its pages fetched
	keyHostRelevant = "h:rel"     // host -> its relevant pages
	keyHostSite     = "h:site"    // host -> its site; a host has one once it has a URL
	keyRobots       = "robots"    // host -> its robots.txt rules, "AGENT\nRULES"
	keyEdges        = "edges"     // the links kept, by the ids of their ends
)

var redisKeyNames = []luaTag{
	{"COUNTERS", keyCounters}, {"STATS", keyStats}, {"META", keyMeta}, {"HOST_URLS", keyHostURLs},
	{"HOST_FETCHED", keyHostFetched}, {"HOST_RELEVANT", keyHostRelevant}, {"HOST_SITE", keyHostSite},
	{"ROBOTS", keyRobots}, {"EDGES", keyEdges},
}

// The counters the scripts add to (fields of keyCounters): those of the
// SQL stores, under the same names.
var redisCounterNames = []luaTag{
	{"LEASE_EXPIRED", counterExpired}, {"REQUEUED", counterRequeued}, {"REFUSED", counterRefused},
	{"REFUSED_MAX_PER_HOST", counterRefused + GuardMaxPerHost}, {"REFUSED_ROBOTS", counterRefused + GuardRobots},
	{"REFUSED_GIVEN_UP", counterRefused + GuardHostGivenUp},
}

// The fields of keyStats: the URL figures the scripts keep, so that Stats
// and Progress cost the same at any size. A field of a depth is its
// prefix and the depth in decimal; the URLs in a state at a depth are
// counted under stInState, the state, stSep and the depth (stateCount).
const (
	stInState      = "n:" // + STATE + stSep + DEPTH: the URLs in STATE at DEPTH
	stSep          = ":"  // between the state and the depth
	stUnfetched    = "u:" // + DEPTH: failed URLs never fetched (counted in n: as failed)
	stRelevant     = "r:" // + DEPTH: relevant pages
	stRedirects    = "x"  // redirect targets recorded done: not pages of their own
	stRedirectsRel = "xr" // those of them relevant
	stFromReserve  = "rf" // pages fetched from the reserve
)

var redisStatNames = []luaTag{
	{"IN_STATE", stInState}, {"SEP", stSep}, {"UNFETCHED", stUnfetched}, {"RELEVANT", stRelevant},
	{"REDIRECTS", stRedirects}, {"REDIRECTS_RELEVANT", stRedirectsRel}, {"FROM_RESERVE", stFromReserve},
}

// stateCountPrefix begins the fields of keyStats that count the URLs in
// state, one field a depth.
func stateCountPrefix(state State) string { return stInState + strconv.Itoa(int(state)) + stSep }

// The fields of keyMeta that the scripts write or read; the scripts name
// them CRAWL.SEQ …
const (
	metaRobotsVersion = "robotsv"  // bumped when a host's robots.txt rules change
	metaLearning      = "learning" // the learning configuration, absent when off
	metaSeq           = "seq"      // the last URL sequence number given
	metaClassSeq      = "classseq" // the last URL class id given
	// Go's alone.
	metaCreated = "created" // the crawl's marker (mustExist)
	metaSchema  = "schema"  // the layout version (redisSchemaVersion)
)

var redisMetaNames = []luaTag{
	{"ROBOTS_VERSION", metaRobotsVersion}, {"LEARNING", metaLearning}, {"SEQ", metaSeq}, {"CLASS_SEQ", metaClassSeq},
}
