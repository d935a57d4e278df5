package topic_test

import (
	"fmt"
	"path/filepath"

	"github.com/focuscrawl/focuscrawl/internal/topic"
)

func ExampleProfile_RuleScore() {
	p, err := topic.Load(filepath.Join("..", "..", "examples", "topics", "bookstores.yaml"))
	if err != nil {
		fmt.Println(err)
		return
	}
	page := "活着 余华 著 作家出版社 定价：35.00元 ISBN 9787506365437 加入购物车"
	score, matched := p.RuleScore(page)
	fmt.Printf("%.3f %v relevant=%v\n", score, matched, score >= p.Thresholds.Page)
	// Output: 0.783 [price buy_online publisher author isbn] relevant=true
}

func ExampleParse_error() {
	_, err := topic.Parse([]byte("name: demo\nrules:\n  - {name: price, any: ['(定价'], weight: 1}\n"), "demo.yaml")
	fmt.Println(err)
	// Output: demo.yaml:3:25: rules[0].any[0]: bad regex in rule "price": error parsing regexp: missing closing ): `(定价`
}
