package score

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/pagemodel"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// trainWeb writes a small labelled web: forest pages under /forest/ that
// are the topic, and pages under /timber/ that share its words (logging,
// trees) but are about the timber trade, which the profile's keywords
// cannot tell apart. It returns the profile, the docs file and the labels
// file (five of each kind labelled; the other pages unlabelled).
func trainWeb(t *testing.T, dir string) (prof *topic.Profile, docs, labels string) {
	t.Helper()
	path := filepath.Join(dir, "forest.yaml")
	err := os.WriteFile(path, []byte(`name: forest
language: en
description: forest management, tree planting, thinning and logging in forests
keywords: {forest: 2.0, thinning: 1.0, logging: 1.0, trees: 1.0}
thresholds: {page: 0.3, link: 0.2}
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if prof, err = topic.Load(path); err != nil {
		t.Fatal(err)
	}
	var d, l bytes.Buffer
	enc := json.NewEncoder(&d)
	for i := 0; i < 20; i++ {
		forest := record.Doc{URL: fmt.Sprintf("http://a.test/forest/plan%d.html", i), Title: fmt.Sprintf("Forest plan %d", i),
			Content: "Thinning and logging plans keep the forest trees healthy; silviculture and regeneration of stands after thinning."}
		timber := record.Doc{URL: fmt.Sprintf("http://a.test/timber/price%d.html", i), Title: fmt.Sprintf("Timber price %d", i),
			Content: "Logging companies sell trees from the forest; timber prices, export markets and sawmill contracts this quarter."}
		for _, doc := range []record.Doc{forest, timber} {
			if err := enc.Encode(doc); err != nil {
				t.Fatal(err)
			}
		}
		if i < 5 {
			fmt.Fprintf(&l, "{\"url\":%q,\"relevant\":true}\n{\"url\":%q,\"relevant\":false}\n", forest.URL, timber.URL)
		}
	}
	docs, labels = filepath.Join(dir, "docs.jsonl"), filepath.Join(dir, "labels.jsonl")
	for name, b := range map[string][]byte{docs: d.Bytes(), labels: l.Bytes()} {
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return prof, docs, labels
}

// TestTrainAndScore: a model trained from labels and a crawl's docs tells
// the topic from the look-alike pages the profile's score cannot, and
// score --model uses it: score is the probability, relevant at the model's
// threshold, the profile's score kept in scores.
func TestTrainAndScore(t *testing.T) {
	dir := t.TempDir()
	prof, docs, labels := trainWeb(t, dir)
	o := TrainOptions{Profile: prof, Page: scoring.DefaultPageOptions(), Labels: []string{labels}, Docs: []string{docs},
		MaxPool: 100, Model: pagemodel.DefaultOptions()}
	res, err := Train(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Model
	if m.Topic != "forest" || m.Training.Positive != 5 || m.Training.Negative != 5 || m.Training.Unlabelled != 30 || res.Missing != 0 {
		t.Fatalf("model %+v, missing %d: want forest, 5+5 labels, 30 unlabelled", m.Training, res.Missing)
	}
	modelPath := filepath.Join(dir, "forest.model.json")
	if err := m.Save(modelPath); err != nil {
		t.Fatal(err)
	}
	in, err := os.ReadFile(docs)
	if err != nil {
		t.Fatal(err)
	}
	for _, withModel := range []bool{false, true} {
		so := forestOptions(t, "shark")
		so.Profile = prof
		if withModel {
			so.Model = modelPath
		}
		var out bytes.Buffer
		if err := Run(context.Background(), bytes.NewReader(in), &out, so); err != nil {
			t.Fatal(err)
		}
		right := 0
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			var sd record.ScoredDoc
			if err := json.Unmarshal([]byte(line), &sd); err != nil {
				t.Fatal(err)
			}
			truth := strings.Contains(sd.URL, "/forest/")
			if sd.Relevant == truth {
				right++
			}
			if withModel {
				if sd.Scores[scoring.PageMethodModel] != sd.Score || sd.Scores[scoring.PageVSM] == 0 {
					t.Errorf("%s: scores %v, score %v: want the model's probability as the score and the profile's vsm beside it", sd.URL, sd.Scores, sd.Score)
				}
				if sd.Relevant != (sd.Score >= m.Threshold) {
					t.Errorf("%s: relevant %v at score %v, the model's threshold %v", sd.URL, sd.Relevant, sd.Score, m.Threshold)
				}
			}
		}
		switch {
		case !withModel && right > 30:
			t.Errorf("the profile alone judged %d of 40 right: the web is meant to fool it", right)
		case withModel && right < 38:
			t.Errorf("the model judged %d of 40 right, want ≥ 38", right)
		}
	}
}

// TestTrainErrors: bad input names the file and line; a missing label is
// reported and counted, not dropped in silence.
func TestTrainErrors(t *testing.T) {
	dir := t.TempDir()
	prof, docs, labels := trainWeb(t, dir)
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badLabel := write("bad-labels.jsonl", "{\"url\":\"http://a.test/forest/plan1.html\",\"relevant\":true}\n{\"url\":\"http://a.test/x\"}\n")
	notJSON := write("not-json.jsonl", "{\"url\":\"http://a.test/forest/plan1.html\",\"relevant\":true}\nnot json\n")
	blankDoc := write("blank.jsonl", "{\"url\":\"http://a.test/empty.html\"}\n")
	failed := write("failed.jsonl", "{\"url\":\"http://a.test/gone.html\",\"error\":\"status 404\"}\n")
	oneKind := write("one.jsonl", "{\"url\":\"http://a.test/forest/plan1.html\",\"relevant\":true}\n")
	for _, c := range []struct {
		name string
		o    TrainOptions
		want string
	}{
		{"label without relevant", TrainOptions{Labels: []string{badLabel}, Docs: []string{docs}}, `bad-labels.jsonl:2: not a label: no "relevant"`},
		{"label not JSON", TrainOptions{Labels: []string{notJSON}, Docs: []string{docs}}, "not-json.jsonl:2: not a label"},
		{"positive doc without words", TrainOptions{Positive: []string{blankDoc}, Negative: []string{docs}}, "blank.jsonl:1: http://a.test/empty.html has no tokens"},
		{"failed page as example", TrainOptions{Positive: []string{failed}, Negative: []string{docs}}, "failed.jsonl:1: http://a.test/gone.html failed"},
		{"one kind only", TrainOptions{Labels: []string{oneKind}, Docs: []string{docs}}, "1 relevant and 0 irrelevant examples; 1 of 1 labelled URLs found"},
		{"missing file", TrainOptions{Labels: []string{filepath.Join(dir, "nope.jsonl")}}, "nope.jsonl"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.o.Profile, c.o.Page, c.o.Model = prof, scoring.DefaultPageOptions(), pagemodel.DefaultOptions()
			_, err := Train(context.Background(), c.o)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Train: %v, want an error with %q", err, c.want)
			}
		})
	}
	t.Run("label in no docs file", func(t *testing.T) {
		extra := write("extra.jsonl", "{\"url\":\"http://a.test/forest/unseen.html\",\"relevant\":true}\n")
		var log bytes.Buffer
		o := TrainOptions{Profile: prof, Page: scoring.DefaultPageOptions(), Model: pagemodel.DefaultOptions(),
			Labels: []string{labels, extra}, Docs: []string{docs}, Log: cli.NewLogger("score train", &log, false)}
		res, err := Train(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Missing != 1 || !strings.Contains(log.String(), "extra.jsonl:1: http://a.test/forest/unseen.html is in no --docs file") {
			t.Errorf("missing %d, log %q: want the label reported with its file and line", res.Missing, log.String())
		}
	})
}

// TestModelOfAnotherTopic: score refuses a model trained for another
// topic, or with another dictionary, naming what differs.
func TestModelOfAnotherTopic(t *testing.T) {
	dir := t.TempDir()
	prof, docs, labels := trainWeb(t, dir)
	res, err := Train(context.Background(), TrainOptions{Profile: prof, Page: scoring.DefaultPageOptions(),
		Model: pagemodel.DefaultOptions(), Labels: []string{labels}, Docs: []string{docs}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		profile, want string
	}{
		{"name: bees\ndescription: bees and honey\n", `trained for topic "forest", not "bees"`},
		{"name: forest\ndescription: forest management\ndictionary: [forest management]\n", "another dictionary"},
	} {
		path := filepath.Join(dir, "other.yaml")
		if err := os.WriteFile(path, []byte(c.profile), 0o644); err != nil {
			t.Fatal(err)
		}
		other, err := topic.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		mp := filepath.Join(dir, "m.json")
		if err := res.Model.Save(mp); err != nil {
			t.Fatal(err)
		}
		so := forestOptions(t, "shark")
		so.Profile, so.Model = other, mp
		_, err = New(context.Background(), so)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New with %q: %v, want %q", c.profile, err, c.want)
		}
	}
}
