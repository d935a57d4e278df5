package record

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFieldsOf(t *testing.T) {
	type block struct {
		ID   int    `json:"id"`
		Kind string `json:"kind"`
	}
	type good struct {
		URL    string          `json:"url"`
		HTML   json.RawMessage `json:"html"`
		Tokens []string        `json:"tokens"`
		Blocks []block         `json:"blocks"`
		Lineage
		Score float32 `json:"score"` // a ScoredDoc's
		note  string
		Skip  int `json:"-"`
	}
	if err := FieldsOf(good{note: "unexported: skipped"}, Doc{}, ScoredDoc{}); err != nil {
		t.Errorf("a true subset: %v", err)
	}
	type renamed struct {
		Tokens []string `json:"token"`
	}
	type wrongType struct {
		Tokens string `json:"tokens"`
	}
	type badInner struct {
		Blocks []struct {
			Kind string `json:"type"`
		} `json:"blocks"`
	}
	for name, part := range map[string]any{"token": renamed{}, "tokens": wrongType{}, "blocks.type": badInner{}} {
		err := FieldsOf(part, Doc{})
		if err == nil || !strings.Contains(err.Error(), `"`+name[strings.LastIndex(name, ".")+1:]+`"`) {
			t.Errorf("%s: got %v, want an error naming the key", name, err)
		}
	}
}
