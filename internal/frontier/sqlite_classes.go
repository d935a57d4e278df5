package frontier

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// classSchema holds the URL classes of the frontier's feedback (Learning):
// one row per class of a host, under the host's class "/", under the
// crawl's class (host_id 0, key "").
// A URL queued while learning is on carries its link priority in prior and
// its finest class in class_id; the urls_class index finds the queued URLs
// of a class when its estimate moves.
const classSchema = `
CREATE TABLE IF NOT EXISTS classes (
  id        INTEGER PRIMARY KEY,
  host_id   INTEGER NOT NULL,
  key       TEXT NOT NULL,
  parent_id INTEGER,
  fetched   INTEGER NOT NULL DEFAULT 0,
  relevant  INTEGER NOT NULL DEFAULT 0,
  labels    REAL NOT NULL DEFAULT 0,
  priors    REAL NOT NULL DEFAULT 0,
  applied   REAL,
  UNIQUE (host_id, key)
);
`

// maxRerankRows bounds the queued URLs one transaction ranks again, so a
// large class that moves does not hold up the crawl's writes.
const maxRerankRows = 20000

// learningKey is the info row that holds the Learning configuration.
const learningKey = "learning"

// migrateClasses adds the class columns to a urls table made before them
// and creates the classes table; both are no-ops on a current file.
func migrateClasses(tx *sql.Tx) error {
	if _, err := tx.Exec(classSchema); err != nil {
		return fmt.Errorf("create classes: %w", err)
	}
	rows, err := tx.Query(`SELECT name FROM pragma_table_info('urls')`)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		have[name] = true
	}
	if err := rows.Close(); err != nil {
		return err
	}
	for _, col := range [][2]string{{"prior", "REAL"}, {"class_id", "INTEGER"}} {
		if have[col[0]] {
			continue
		}
		if _, err := tx.Exec(`ALTER TABLE urls ADD COLUMN ` + col[0] + ` ` + col[1]); err != nil {
			return fmt.Errorf("add urls.%s: %w", col[0], err)
		}
	}
	_, err = tx.Exec(sq(`CREATE INDEX IF NOT EXISTS urls_class ON urls (class_id) WHERE state = {queued} AND class_id IS NOT NULL`))
	return err
}

// SetLearning turns the frontier's feedback on with l, or off with nil,
// for every process that uses the file (score --db does it for its learned
// strategies). URLs queued before keep their priority until their class
// is ranked again.
func (s *SQLiteStore) SetLearning(ctx context.Context, l *Learning) error {
	if s.db == nil {
		return ErrClosed
	}
	if l == nil {
		_, err := s.db.ExecContext(ctx, `DELETE FROM info WHERE key = ?`, learningKey)
		return err
	}
	if err := l.Validate(); err != nil {
		return fmt.Errorf("frontier: %w", err)
	}
	v, err := json.Marshal(l)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO info (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, learningKey, string(v))
	if err != nil {
		return fmt.Errorf("frontier: set learning: %w", err)
	}
	return nil
}

// Learning gives the feedback configuration, nil when it is off.
func (s *SQLiteStore) Learning(ctx context.Context) (*Learning, error) {
	if s.db == nil {
		return nil, ErrClosed
	}
	return readLearning(ctx, s.db.QueryRowContext(ctx, `SELECT value FROM info WHERE key = ?`, learningKey))
}

func readLearning(ctx context.Context, row *sql.Row) (*Learning, error) {
	var v string
	err := row.Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("frontier: learning: %w", err)
	}
	var l Learning
	if err := json.Unmarshal([]byte(v), &l); err != nil {
		return nil, fmt.Errorf("frontier: learning %q: %w", v, err)
	}
	if err := l.Validate(); err != nil {
		return nil, fmt.Errorf("frontier: %w", err)
	}
	return &l, nil
}

// classTx is the class state of one Apply transaction: the classes of the
// hosts it touched, loaded once, and which hosts saw outcomes.
type classTx struct {
	cfg     *Learning
	crawl   *urlClass // the root of every host's classes
	hosts   map[int64]*hostClasses
	touched []int64 // hosts with new outcomes, in order of first outcome
	insertURL, raiseURL,
	insertClass, updateClass, rerank, linkPrior *sql.Stmt
}

// hostClasses are the classes of one host, in id order (parents first).
type hostClasses struct {
	byKey map[string]*urlClass
	list  []*urlClass
	seen  bool // has outcomes in this transaction
}

// startLearning reads the configuration; with learning off the transaction
// goes on as before.
func (a *applyTx) startLearning() error {
	cfg, err := readLearning(a.ctx, a.tx.QueryRowContext(a.ctx, `SELECT value FROM info WHERE key = ?`, learningKey))
	if err != nil || cfg == nil {
		return err
	}
	c := &classTx{cfg: cfg, hosts: map[int64]*hostClasses{}}
	prep := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = a.tx.PrepareContext(a.ctx, q)
		return st
	}
	c.insertURL = prep(`INSERT INTO urls (h, url, host_id, state, priority, depth, parent_id, anchor, inherited, meta, added_at, prior, class_id, reserve)
		VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (h) DO NOTHING`)
	// A better sighting raises the prior and ranks the URL in its class
	// (?7 is the blended priority of the new prior); a kept link takes a
	// URL out of the reserve (?9 = 0), as raiseURL does.
	c.raiseURL = prep(sq(`UPDATE urls SET
		  depth     = CASE WHEN state IN ({queued}, {leased}) THEN min(depth, ?2) ELSE depth END,
		  priority  = CASE WHEN state IN ({queued}, {leased}) AND ?1 > coalesce(prior, priority) THEN ?7 ELSE priority END,
		  parent_id = CASE WHEN state IN ({queued}, {leased}) AND ?1 > coalesce(prior, priority) THEN ?3 ELSE parent_id END,
		  anchor    = CASE WHEN state IN ({queued}, {leased}) AND ?1 > coalesce(prior, priority) THEN ?4 ELSE anchor END,
		  inherited = CASE WHEN state IN ({queued}, {leased}) AND ?1 > coalesce(prior, priority) THEN ?5 ELSE inherited END,
		  class_id  = CASE WHEN state IN ({queued}, {leased}) AND ?1 > coalesce(prior, priority) THEN coalesce(class_id, ?8) ELSE class_id END,
		  prior     = CASE WHEN state IN ({queued}, {leased}) AND ?1 > coalesce(prior, priority) THEN ?1 ELSE prior END,
		  reserve   = reserve AND ?9
		WHERE id = ?6 AND ((state IN ({queued}, {leased}) AND (?1 > coalesce(prior, priority) OR ?2 < depth))
		  OR (reserve = 1 AND ?9 = 0 AND state IN ({queued}, {leased}, {parked}, {waiting})))`))
	c.insertClass = prep(`INSERT INTO classes (host_id, key, parent_id, applied) VALUES (?, ?, ?, ?) RETURNING id`)
	c.updateClass = prep(`UPDATE classes SET fetched = ?2, relevant = ?3, labels = ?4, priors = ?5, applied = ?6 WHERE id = ?1`)
	c.rerank = prep(sq(`UPDATE urls SET priority = max(0, min(1, prior * ?2)) WHERE class_id = ?1 AND state = {queued}`))
	c.linkPrior = prep(`SELECT prior, priority, parent_id FROM urls WHERE id = ?`)
	if err != nil {
		c.close()
		return fmt.Errorf("frontier: prepare learning: %w", err)
	}
	a.cls = c
	root, err := a.hostClasses(0)
	if err != nil {
		return err
	}
	if c.crawl = root.byKey[""]; c.crawl == nil {
		c.crawl = &urlClass{valid: true, applied: 1}
		if err := c.insertClass.QueryRowContext(a.ctx, 0, "", nil, 1.0).Scan(&c.crawl.id); err != nil {
			return fmt.Errorf("frontier: crawl class: %w", err)
		}
		root.byKey[""] = c.crawl
		root.list = append(root.list, c.crawl)
	}
	return nil
}

func (c *classTx) close() {
	for _, st := range []*sql.Stmt{c.insertURL, c.raiseURL, c.insertClass, c.updateClass, c.rerank, c.linkPrior} {
		if st != nil {
			st.Close()
		}
	}
}

// host loads the classes of a host.
func (a *applyTx) hostClasses(hostID int64) (*hostClasses, error) {
	if hc, ok := a.cls.hosts[hostID]; ok {
		return hc, nil
	}
	rows, err := a.tx.QueryContext(a.ctx, `SELECT id, key, parent_id, fetched, relevant, labels, priors, applied
		FROM classes WHERE host_id = ? ORDER BY id`, hostID)
	if err != nil {
		return nil, fmt.Errorf("frontier: classes: %w", err)
	}
	defer rows.Close()
	hc := &hostClasses{byKey: map[string]*urlClass{}}
	byID := map[int64]*urlClass{}
	for rows.Next() {
		c := &urlClass{}
		var parent sql.NullInt64
		var applied sql.NullFloat64
		if err := rows.Scan(&c.id, &c.key, &parent, &c.fetched, &c.relevant, &c.labels, &c.priors, &applied); err != nil {
			return nil, fmt.Errorf("frontier: classes: %w", err)
		}
		c.parent = byID[parent.Int64]
		if c.parent == nil && hostID != 0 {
			c.parent = a.cls.crawl
		}
		c.applied, c.valid = applied.Float64, applied.Valid
		byID[c.id] = c
		hc.byKey[c.key] = c
		hc.list = append(hc.list, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("frontier: classes: %w", err)
	}
	a.cls.hosts[hostID] = hc
	return hc, nil
}

// class gives the finest class of u, creating the chain as needed. New
// classes take the estimate their parent gives them.
func (a *applyTx) class(u string, hostID int64) (*urlClass, error) {
	chain, err := urlx.ClassChain(u)
	if err != nil {
		return nil, fmt.Errorf("frontier: %w", err)
	}
	hc, err := a.hostClasses(hostID)
	if err != nil {
		return nil, err
	}
	parent := a.cls.crawl
	for _, key := range chain {
		c, ok := hc.byKey[key]
		if !ok {
			c = &urlClass{key: key, parent: parent}
			c.applied, c.valid = c.relative(a.cls.cfg), true
			var pid any
			if parent != a.cls.crawl {
				pid = parent.id
			}
			if err := a.cls.insertClass.QueryRowContext(a.ctx, hostID, key, pid, c.applied).Scan(&c.id); err != nil {
				return nil, fmt.Errorf("frontier: class %s: %w", key, err)
			}
			hc.byKey[key] = c
			hc.list = append(hc.list, c)
		}
		parent = c
	}
	return parent, nil
}

// learnOutcome counts a page that came back in every class of its URL,
// with its residual: its label (score's page score; 0 for a failed page)
// minus the link priority its URL was queued with. Seeds (no parent),
// pages never queued and pages neither scored nor failed teach nothing.
func (a *applyTx) learnOutcome(id int64, u string, hostID int64, o *Outcome) error {
	if a.cls == nil {
		return nil
	}
	label, teaches := pageLabel(o)
	if !teaches {
		return nil
	}
	var prior, priority sql.NullFloat64
	var parent sql.NullInt64
	if err := a.cls.linkPrior.QueryRowContext(a.ctx, id).Scan(&prior, &priority, &parent); err != nil {
		return fmt.Errorf("frontier: learn from %s: %w", u, err)
	}
	if !parent.Valid {
		return nil
	}
	if !prior.Valid {
		prior = priority // queued before the crawl learned
	}
	c, err := a.class(u, hostID)
	if err != nil {
		return err
	}
	learnPage(c, label, prior.Float64, o.Relevant)
	if hc := a.cls.hosts[hostID]; !hc.seen {
		hc.seen = true
		a.cls.touched = append(a.cls.touched, hostID)
	}
	return nil
}

// rerankClasses ranks again the queued URLs of every class of the hosts
// with new outcomes whose estimate moved by more than Epsilon, and writes
// the classes' figures.
func (a *applyTx) rerankClasses() error {
	if a.cls == nil {
		return nil
	}
	cfg := a.cls.cfg
	lists := make([][]*urlClass, 0, len(a.cls.touched))
	for _, hostID := range a.cls.touched {
		lists = append(lists, a.cls.hosts[hostID].list)
	}
	moves := cfg.classMoves(a.cls.crawl, lists)
	rows := int64(0)
	for _, m := range moves {
		if rows >= maxRerankRows {
			break
		}
		r, err := a.cls.rerank.ExecContext(a.ctx, m.c.id, cfg.factor(m.est))
		if err != nil {
			return fmt.Errorf("frontier: rerank class %s: %w", m.c.key, err)
		}
		n, _ := r.RowsAffected()
		rows += n
		m.c.applied, m.c.valid, m.c.dirty = m.est, true, true
	}
	for _, hc := range a.cls.hosts {
		for _, c := range hc.list {
			if !c.dirty {
				continue
			}
			var applied any
			if c.valid {
				applied = c.applied
			}
			if _, err := a.cls.updateClass.ExecContext(a.ctx, c.id, c.fetched, c.relevant, c.labels, c.priors, applied); err != nil {
				return fmt.Errorf("frontier: class %s: %w", c.key, err)
			}
			c.dirty = false
		}
	}
	return nil
}

// insertLearned queues a new URL in its class: it keeps the link priority
// as prior and is ordered by the blend with the class's estimate.
func (a *applyTx) insertLearned(h int64, e *Entry, hostID int64, parent, anchor, inherited, meta any) (sql.Result, error) {
	c, err := a.class(e.URL, hostID)
	if err != nil {
		return nil, err
	}
	return a.cls.insertURL.ExecContext(a.ctx, h, e.URL, hostID, a.cls.cfg.blend(e.Priority, c.applied), e.Depth,
		parent, anchor, inherited, meta, a.now, e.Priority, c.id, e.Reserve)
}

// raiseLearned is raise for a frontier that learns.
func (a *applyTx) raiseLearned(e *Entry, id, hostID int64, parent, anchor, inherited any) (sql.Result, error) {
	c, err := a.class(e.URL, hostID)
	if err != nil {
		return nil, err
	}
	return a.cls.raiseURL.ExecContext(a.ctx, e.Priority, e.Depth, parent, anchor, inherited, id,
		a.cls.cfg.blend(e.Priority, c.applied), c.id, e.Reserve)
}
