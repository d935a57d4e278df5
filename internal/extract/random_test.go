package extract

import (
	"math/rand"
	"strings"
)

// randomTexts is the fixed texts, then n more made of up to maxParts
// pieces drawn from parts at random (seeded: the same texts each run).
func randomTexts(seed int64, n, maxParts int, parts []string, fixed ...string) []string {
	rng := rand.New(rand.NewSource(seed))
	texts := fixed
	for range n {
		var sb strings.Builder
		for k := rng.Intn(maxParts); k >= 0; k-- {
			sb.WriteString(parts[rng.Intn(len(parts))])
		}
		texts = append(texts, sb.String())
	}
	return texts
}
