package frontier

import (
	"fmt"
	"sort"

	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// The URL-class feedback (classes.go) of the SQL stores, SQLite and
// PostgreSQL, written once: an Apply transaction loads the classes of the
// hosts it touches, counts the pages that came back in them, ranks again
// the queued URLs of the classes whose estimate moved, and adds what it
// counted to the stored figures. The stores give the SQL (classDB).
//
// A class's figures are written as increments (fetched = fetched + n), so
// two workers that count pages of one class at once, on PostgreSQL, both
// count: the estimates a transaction computes may miss a page another
// worker is counting just then, the stored figures never do.

// maxRerankRows bounds the queued URLs one transaction ranks again, so a
// large class that moves does not hold up the crawl's writes.
const maxRerankRows = 20000

// learningKey is the info row that holds the Learning configuration.
const learningKey = "learning"

// classDB is what a SQL store's Apply transaction offers the URL-class
// feedback: its classes table and the queued URLs of a class.
type classDB interface {
	// classesOf reads the classes of a host (0: the crawl's class) in id
	// order, parents first, each with its parent's id (0: none).
	classesOf(hostID int64) ([]storedClass, error)
	// addClass stores a new class, or finds the one another worker
	// stored meanwhile, and gives its id.
	addClass(hostID int64, key string, parentID int64, applied float64) (int64, error)
	// rerankClass sets the priority of the queued URLs of a class to
	// their prior times factor (clamped to [0,1]) and counts them.
	rerankClass(classID int64, factor float64) (int64, error)
	// saveClasses adds to each class the figures it gathered in the
	// transaction (urlClass.add) and writes its applied estimate (NULL
	// when not valid).
	saveClasses(cs []*urlClass) error
}

// storedClass is a class as read, with its parent's id.
type storedClass struct {
	c        *urlClass
	parentID int64
}

// classTx is the class state of one Apply transaction: the classes of the
// hosts it touched, loaded once, and which hosts saw outcomes.
type classTx struct {
	db      classDB
	cfg     *Learning
	crawl   *urlClass // the root of every host's classes
	hosts   map[int64]*hostClasses
	touched []int64 // hosts with new outcomes, in order of first outcome
}

// hostClasses are the classes of one host, in id order (parents first).
type hostClasses struct {
	byKey map[string]*urlClass
	list  []*urlClass
	seen  bool // has outcomes in this transaction
}

// newClassTx starts the feedback of a transaction with configuration
// cfg: it loads the crawl's class, making it on first use.
func newClassTx(db classDB, cfg *Learning) (*classTx, error) {
	c := &classTx{db: db, cfg: cfg, hosts: map[int64]*hostClasses{}}
	root, err := c.hostClasses(0)
	if err != nil {
		return nil, err
	}
	if c.crawl = root.byKey[""]; c.crawl == nil {
		c.crawl = &urlClass{valid: true, applied: 1}
		if c.crawl.id, err = db.addClass(0, "", 0, 1); err != nil {
			return nil, fmt.Errorf("frontier: crawl class: %w", err)
		}
		root.byKey[""] = c.crawl
		root.list = append(root.list, c.crawl)
	}
	return c, nil
}

// hostClasses loads the classes of a host.
func (c *classTx) hostClasses(hostID int64) (*hostClasses, error) {
	if hc, ok := c.hosts[hostID]; ok {
		return hc, nil
	}
	stored, err := c.db.classesOf(hostID)
	if err != nil {
		return nil, fmt.Errorf("frontier: classes: %w", err)
	}
	hc := &hostClasses{byKey: map[string]*urlClass{}}
	byID := map[int64]*urlClass{}
	for _, sc := range stored {
		u := sc.c
		u.parent = byID[sc.parentID]
		if u.parent == nil && hostID != 0 {
			u.parent = c.crawl
		}
		byID[u.id] = u
		hc.byKey[u.key] = u
		hc.list = append(hc.list, u)
	}
	c.hosts[hostID] = hc
	return hc, nil
}

// class gives the finest class of u, creating the chain as needed. New
// classes take the estimate their parent gives them.
func (c *classTx) class(u string, hostID int64) (*urlClass, error) {
	chain, err := urlx.ClassChain(u)
	if err != nil {
		return nil, fmt.Errorf("frontier: %w", err)
	}
	hc, err := c.hostClasses(hostID)
	if err != nil {
		return nil, err
	}
	parent := c.crawl
	for _, key := range chain {
		k, ok := hc.byKey[key]
		if !ok {
			k = &urlClass{key: key, parent: parent}
			k.applied, k.valid = k.relative(c.cfg), true
			var pid int64
			if parent != c.crawl {
				pid = parent.id
			}
			if k.id, err = c.db.addClass(hostID, key, pid, k.applied); err != nil {
				return nil, fmt.Errorf("frontier: class %s: %w", key, err)
			}
			hc.byKey[key] = k
			hc.list = append(hc.list, k)
		}
		parent = k
	}
	return parent, nil
}

// learn counts a page that came back in every class of its URL u (of
// host hostID, queued from a link with priority prior): its label
// (score's page score; 0 for a failed page) against the prior. The caller
// counts each page once, and leaves out seeds and pages never queued;
// pages neither scored nor failed teach nothing.
func (c *classTx) learn(u string, hostID int64, prior float64, o *Outcome) error {
	label, teaches := pageLabel(o)
	if !teaches {
		return nil
	}
	k, err := c.class(u, hostID)
	if err != nil {
		return err
	}
	learnPage(k, label, prior, o.Relevant)
	if hc := c.hosts[hostID]; !hc.seen {
		hc.seen = true
		c.touched = append(c.touched, hostID)
	}
	return nil
}

// rerank ranks again the queued URLs of every class of the hosts with new
// outcomes whose estimate moved by more than Epsilon.
func (c *classTx) rerank() error {
	lists := make([][]*urlClass, 0, len(c.touched))
	for _, hostID := range c.touched {
		lists = append(lists, c.hosts[hostID].list)
	}
	c.touched = c.touched[:0]
	rows := int64(0)
	for _, m := range c.cfg.classMoves(c.crawl, lists) {
		if rows >= maxRerankRows {
			break
		}
		n, err := c.db.rerankClass(m.c.id, c.cfg.factor(m.est))
		if err != nil {
			return fmt.Errorf("frontier: rerank class %s: %w", m.c.key, err)
		}
		rows += n
		m.c.applied, m.c.valid, m.c.dirty = m.est, true, true
	}
	return nil
}

// save writes the classes that changed, in the order of their ids (so
// two workers' transactions take their rows' locks in one order).
func (c *classTx) save() error {
	var dirty []*urlClass
	for _, hc := range c.hosts {
		for _, k := range hc.list {
			if k.dirty {
				dirty = append(dirty, k)
			}
		}
	}
	if len(dirty) == 0 {
		return nil
	}
	sort.Slice(dirty, func(i, j int) bool { return dirty[i].id < dirty[j].id })
	if err := c.db.saveClasses(dirty); err != nil {
		return fmt.Errorf("frontier: classes: %w", err)
	}
	for _, k := range dirty {
		k.dirty, k.add = false, classFigures{}
	}
	return nil
}

// appliedOrNil is the applied estimate to store: NULL when not set.
func (k *urlClass) appliedOrNil() *float64 {
	if !k.valid {
		return nil
	}
	return &k.applied
}
