package frontier

import (
	"context"
	"errors"
	"testing"
)

// TestRedisRefusesClassRanking: asking a Redis frontier for the URL-class
// re-ranking fails with a message that names the way out; turning it off
// is fine.
func TestRedisRefusesClassRanking(t *testing.T) {
	s, _ := openTestRedis(t)
	l := DefaultLearning()
	if err := s.SetLearning(context.Background(), &l); !errors.Is(err, ErrNoClassRanking) {
		t.Errorf("set learning: %v", err)
	}
	if err := s.SetLearning(context.Background(), nil); err != nil {
		t.Errorf("learning off: %v", err)
	}
	if got, err := s.Learning(context.Background()); got != nil || err != nil {
		t.Errorf("learning: %v %v", got, err)
	}
}
