package fetcher

// robotsCut reports a robots.txt cut at maxRobotsBytes: rules past the
// cut are not read, so a Disallow there is not obeyed.
func (f *Fetcher) robotsCut(origin string) {
	f.stats.robotsCut.Add(1)
	f.warnf("robots.txt of %s is over %d KiB: read up to there, rules past the cut are ignored", origin, maxRobotsBytes>>10)
}
