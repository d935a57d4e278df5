package frontier

// sqlHostTx is what the SQL stores' Apply transactions (SQLite, PostgreSQL)
// offer the host policy: their hosts and host states, and writing a step.
type sqlHostTx interface {
	host(host, site string) (hostInfo, error)
	hostState(hostID int64) (*hostState, error)
	applyHost(hostID int64, hs *hostState, step Step, probe int64) error
	putBack(id int64, state State, retryAt int64, tries int, msg string) error
	settledByHost()
}

// applyFailure does what OutcomeStep says of an outcome with an error:
// the URL (id, of host hostID; facts u, State and Tries read) and the host
// its failure speaks for. It reports whether the URL was put back or
// settled with its host rather than recorded.
func applyFailure(a sqlHostTx, o *Outcome, u URLFacts, id, hostID int64, p RetryPolicy, now int64) (bool, error) {
	u.Known = id != 0
	if !NeedsHost(u, o.Error) {
		step := OutcomeStep(HostStatus{}, u, o.Error, p, now)
		if step.Action == URLPutBack {
			return true, a.putBack(id, step.State, step.RetryAt, step.AddTries, step.Error)
		}
		return false, nil
	}
	down, err := a.host(outcomeHost(o), o.Site)
	if err != nil {
		return false, err
	}
	hs, err := a.hostState(down.id)
	if err != nil {
		return false, err
	}
	u.IsProbe = hs.probeID != 0 && hs.probeID == id
	u.OtherHost = hostID != down.id
	step := OutcomeStep(hs.HostStatus, u, o.Error, p, now)
	if err := a.applyHost(down.id, hs, step, id); err != nil {
		return false, err
	}
	switch step.Action {
	case URLPutBack:
		return true, a.putBack(id, step.State, step.RetryAt, step.AddTries, step.Error)
	case URLSettledByHost:
		a.settledByHost()
		return true, nil
	}
	return false, nil
}

// pageCount counts pages recorded, and the relevant ones among them.
type pageCount struct{ pages, relevant int64 }

// add counts the page of o.
func (c *pageCount) add(o *Outcome) {
	c.pages++
	if o.Scored && o.Relevant {
		c.relevant++
	}
}
