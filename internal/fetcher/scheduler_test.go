package fetcher

import (
	"fmt"
	"testing"
	"time"
)

func TestRobotsCacheIsBounded(t *testing.T) {
	s := newScheduler(&Fetcher{cfg: Defaults()})
	now := time.Now()
	for i := 0; i < maxRobotsEntries; i++ {
		s.robots[fmt.Sprintf("http://h%d.test:80", i)] = &robotsEntry{expires: now.Add(time.Hour)}
	}
	s.robots["http://loading.test:80"] = &robotsEntry{loading: true}
	s.robots["http://old.test:80"] = &robotsEntry{expires: now.Add(-time.Second)}
	s.shrinkRobots(now)
	if n := len(s.robots); n > maxRobotsEntries*9/10+1 || n < maxRobotsEntries/2 {
		t.Errorf("%d entries after shrinking a cache of %d", n, maxRobotsEntries+2)
	}
	if s.robots["http://loading.test:80"] == nil {
		t.Error("an entry being fetched was dropped")
	}
	if s.robots["http://old.test:80"] != nil {
		t.Error("an expired entry was kept")
	}
}
