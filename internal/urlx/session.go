package urlx

import "strings"

// sessionParams are the query parameter names (lower case) that carry a
// session id on real sites: PHP's, Java servlets', ASP's, and the plain
// forms forum software uses (Discuz!'s sid, phpBB's sid). A session id in
// a URL is a crawler trap: every page hands out a new one, so one page is
// reachable under endless URLs. Nutch's default regex-normalize rules and
// Heritrix's StripSessionIDs canonicaliser remove the same names.
var sessionParams = map[string]bool{
	"sid": true, "sessid": true, "sessionid": true, "session_id": true,
	"phpsessid": true, "jsessionid": true, "cfid": true, "cftoken": true,
}

// isSessionParam reports whether a query parameter name carries a session
// id; ASP's are named ASPSESSIONID followed by random letters.
func isSessionParam(name string) bool {
	name = strings.ToLower(name)
	return sessionParams[name] || strings.HasPrefix(name, "aspsessionid")
}

// StripSessionIDs removes session ids from a normalised URL: query
// parameters named sid, sessid, sessionid, session_id, phpsessid,
// jsessionid, cfid, cftoken or aspsessionid…, in any case, and a
// ";jsessionid=…" path parameter. Other parameters keep their order and
// bytes; a query left empty is dropped. A URL without session ids is
// returned unchanged (the same string, no allocation).
func StripSessionIDs(u string) string {
	q := strings.IndexByte(u, '?')
	path, query := u, ""
	if q >= 0 {
		path, query = u[:q], u[q+1:]
	}
	if i := strings.Index(strings.ToLower(path), ";jsessionid="); i >= 0 {
		end := len(path)
		if j := strings.IndexByte(path[i:], '/'); j >= 0 {
			end = i + j
		}
		path = path[:i] + path[end:]
	} else if query == "" || !hasSessionParam(query) {
		return u
	}
	if query == "" {
		return path
	}
	var kept []string
	for _, p := range strings.Split(query, "&") {
		name, _, _ := strings.Cut(p, "=")
		if !isSessionParam(name) {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return path
	}
	return path + "?" + strings.Join(kept, "&")
}

// hasSessionParam is the cheap test before StripSessionIDs rebuilds a
// query.
func hasSessionParam(query string) bool {
	for p := range strings.SplitSeq(query, "&") {
		name, _, _ := strings.Cut(p, "=")
		if isSessionParam(name) {
			return true
		}
	}
	return false
}
