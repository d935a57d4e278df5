package frontier

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
	v, err := learningValue(l)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO info (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, learningKey, v)
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
	return parseLearning(v)
}

// sqliteClasses is the SQLite side of the URL-class feedback of an Apply
// transaction (sql_classes.go): its prepared statements.
type sqliteClasses struct {
	a *applyTx
	insertURL, raiseURL,
	insertClass, updateClass, rerank, linkPrior *sql.Stmt
}

var _ classDB = (*sqliteClasses)(nil)

// startLearning reads the configuration; with learning off the transaction
// goes on as before.
func (a *applyTx) startLearning() error {
	cfg, err := readLearning(a.ctx, a.tx.QueryRowContext(a.ctx, `SELECT value FROM info WHERE key = ?`, learningKey))
	if err != nil || cfg == nil {
		return err
	}
	c := &sqliteClasses{a: a}
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
	c.updateClass = prep(`UPDATE classes SET fetched = fetched + ?2, relevant = relevant + ?3, labels = labels + ?4,
		  priors = priors + ?5, applied = ?6 WHERE id = ?1`)
	c.rerank = prep(sq(`UPDATE urls SET priority = max(0, min(1, prior * ?2)) WHERE class_id = ?1 AND state = {queued}`))
	c.linkPrior = prep(`SELECT prior, priority, parent_id FROM urls WHERE id = ?`)
	if err != nil {
		c.close()
		return fmt.Errorf("frontier: prepare learning: %w", err)
	}
	a.sqlCls = c
	if a.cls, err = newClassTx(c, cfg); err != nil {
		return err
	}
	return nil
}

func (c *sqliteClasses) close() {
	for _, st := range []*sql.Stmt{c.insertURL, c.raiseURL, c.insertClass, c.updateClass, c.rerank, c.linkPrior} {
		if st != nil {
			st.Close()
		}
	}
}

func (c *sqliteClasses) classesOf(hostID int64) ([]storedClass, error) {
	rows, err := c.a.tx.QueryContext(c.a.ctx, `SELECT id, key, coalesce(parent_id, 0), fetched, relevant, labels, priors, applied
		FROM classes WHERE host_id = ? ORDER BY id`, hostID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []storedClass
	for rows.Next() {
		k := &urlClass{}
		var parent int64
		var applied sql.NullFloat64
		if err := rows.Scan(&k.id, &k.key, &parent, &k.fetched, &k.relevant, &k.labels, &k.priors, &applied); err != nil {
			return nil, err
		}
		k.applied, k.valid = applied.Float64, applied.Valid
		out = append(out, storedClass{k, parent})
	}
	return out, rows.Err()
}

func (c *sqliteClasses) addClass(hostID int64, key string, parentID int64, applied float64) (int64, error) {
	var id int64
	err := c.insertClass.QueryRowContext(c.a.ctx, hostID, key, nullInt64(parentID), applied).Scan(&id)
	return id, err
}

func (c *sqliteClasses) rerankClass(classID int64, factor float64) (int64, error) {
	r, err := c.rerank.ExecContext(c.a.ctx, classID, factor)
	if err != nil {
		return 0, err
	}
	return r.RowsAffected()
}

func (c *sqliteClasses) saveClasses(cs []*urlClass) error {
	for _, k := range cs {
		if _, err := c.updateClass.ExecContext(c.a.ctx, k.id, k.add.fetched, k.add.relevant, k.add.labels, k.add.priors,
			k.appliedOrNil()); err != nil {
			return fmt.Errorf("class %s: %w", k.key, err)
		}
	}
	return nil
}

// learnOutcome counts a page that came back in the classes of its URL
// (classTx.learn) with the link priority it was queued with. Seeds (no
// parent) and pages never queued teach nothing.
func (a *applyTx) learnOutcome(id int64, u string, hostID int64, o *Outcome) error {
	if a.cls == nil || (!o.Scored && o.Error == "") {
		return nil
	}
	var prior, priority sql.NullFloat64
	var parent sql.NullInt64
	if err := a.sqlCls.linkPrior.QueryRowContext(a.ctx, id).Scan(&prior, &priority, &parent); err != nil {
		return fmt.Errorf("frontier: learn from %s: %w", u, err)
	}
	if !parent.Valid {
		return nil
	}
	if !prior.Valid {
		prior = priority // queued before the crawl learned
	}
	return a.cls.learn(u, hostID, prior.Float64, o)
}

// rerankClasses ranks again the queued URLs of the classes that moved and
// writes the classes' figures.
func (a *applyTx) rerankClasses() error {
	if a.cls == nil {
		return nil
	}
	if err := a.cls.rerank(); err != nil {
		return err
	}
	return a.cls.save()
}

// insertLearned queues a new URL in its class: it keeps the link priority
// as prior and is ordered by the blend with the class's estimate.
func (a *applyTx) insertLearned(h int64, e *Entry, hostID int64, parent, anchor, inherited, meta any) (sql.Result, error) {
	c, err := a.cls.class(e.URL, hostID)
	if err != nil {
		return nil, err
	}
	return a.sqlCls.insertURL.ExecContext(a.ctx, h, e.URL, hostID, a.cls.cfg.blend(e.Priority, c.applied), e.Depth,
		parent, anchor, inherited, meta, a.now, e.Priority, c.id, e.Reserve)
}

// raiseLearned is raise for a frontier that learns.
func (a *applyTx) raiseLearned(e *Entry, id, hostID int64, parent, anchor, inherited any) (sql.Result, error) {
	c, err := a.cls.class(e.URL, hostID)
	if err != nil {
		return nil, err
	}
	return a.sqlCls.raiseURL.ExecContext(a.ctx, e.Priority, e.Depth, parent, anchor, inherited, id,
		a.cls.cfg.blend(e.Priority, c.applied), c.id, e.Reserve)
}
