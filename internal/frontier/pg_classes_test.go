package frontier

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// The URL-class feedback on PostgreSQL (pg_classes.go) beyond the cases
// of store_classes_contract_test.go, which run on every store that ranks
// URL classes: workers that count pages of one class at once.

// TestPostgresLearningWorkersLoseNoCount: four workers, each on a host of
// its own (so their host locks do not order them), report pages one
// Apply at a time, all at once; every page counts in the crawl's class
// that all of them share, and in its host's.
func TestPostgresLearningWorkersLoseNoCount(t *testing.T) {
	ctx := context.Background()
	s, dsn := openTestPostgres(t)
	d := DefaultLearning()
	if err := s.SetLearning(ctx, &d); err != nil {
		t.Fatal(err)
	}
	const workers, pages = 4, 30
	var q []Entry
	for w := range workers {
		host := fmt.Sprintf("w%d.cn", w)
		q = append(q, entry("http://"+host+"/", host, 1, 0))
		for i := range pages {
			e := entry(fmt.Sprintf("http://%s/d%d/p%d.html", host, i%3, i), host, 0.5, 1)
			e.Parent = "http://" + host + "/"
			q = append(q, e)
		}
	}
	cQueue(t, s, q...)
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := OpenPostgres(ctx, dsn)
			if err != nil {
				errs <- err
				return
			}
			defer st.Close()
			host := fmt.Sprintf("w%d.cn", w)
			for i := range pages {
				o := Outcome{URL: fmt.Sprintf("http://%s/d%d/p%d.html", host, i%3, i), Host: host, Site: host,
					Scored: true, Score: 0.25, Relevant: i%2 == 0}
				if _, err := st.Apply(ctx, Batch{Done: []Outcome{o}}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	fetched, relevant, labels, priors, _ := readClassFigures(t, s, "")
	if fetched != workers*pages || relevant != workers*pages/2 || !near(labels, workers*pages*0.25) || !near(priors, workers*pages*0.5) {
		t.Errorf("crawl class: fetched %d, relevant %d, labels %v, priors %v; want %d, %d, %v, %v",
			fetched, relevant, labels, priors, workers*pages, workers*pages/2, workers*pages*0.25, workers*pages*0.5)
	}
	var hosts int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM classes WHERE key = '/' AND fetched = $1`, pages).Scan(&hosts); err != nil {
		t.Fatal(err)
	}
	if hosts != workers {
		t.Errorf("%d host classes counted all %d pages, want %d", hosts, pages, workers)
	}
}

// TestPostgresClassesMigrate: a crawl made before the URL classes (layout
// 1) gets them when a worker opens it, and keeps its URLs.
func TestPostgresClassesMigrate(t *testing.T) {
	ctx := context.Background()
	s, dsn := openTestPostgres(t)
	cQueue(t, s, entry("http://h.cn/", "h.cn", 1, 0))
	if _, err := s.Pool().Exec(ctx, `DROP TABLE classes; DROP INDEX urls_class;
		ALTER TABLE urls DROP COLUMN prior, DROP COLUMN class_id;
		UPDATE info SET value = '1' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	s2, err := OpenPostgres(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	d := DefaultLearning()
	if err := s2.SetLearning(ctx, &d); err != nil {
		t.Fatal(err)
	}
	cQueue(t, s2, child("http://h.cn/a/1.html", 0.5))
	if got := leaseAll(t, s2); len(got) != 2 {
		t.Fatalf("after the migration leased %v, want the old URL and the new", got)
	}
	var v string
	if err := s2.Pool().QueryRow(ctx, `SELECT value FROM info WHERE key = 'schema_version'`).Scan(&v); err != nil || v != pgSchemaVersion {
		t.Fatalf("schema version %q (%v), want %s", v, err, pgSchemaVersion)
	}
}
