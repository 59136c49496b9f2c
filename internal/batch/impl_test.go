package batch_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/obb2d/obb2d/internal/batch"
)

func TestUse(t *testing.T) {
	saved := batch.Name()
	defer batch.Use(saved)
	if err := batch.Use("sse9"); err == nil || !strings.Contains(err.Error(), `unknown implementation "sse9"`) {
		t.Errorf("Use(sse9) = %v", err)
	}
	if batch.Name() != saved {
		t.Errorf("a failed Use changed the implementation to %s", batch.Name())
	}
	available := batch.Names()
	for _, name := range []string{"generic", "avx2", "avx512"} {
		err := batch.Use(name)
		if ok := slices.Contains(available, name); ok != (err == nil) {
			t.Errorf("Use(%s) = %v, available %v", name, err, ok)
		}
		if err != nil && !strings.Contains(err.Error(), "not available") {
			t.Errorf("Use(%s) error does not say it is unavailable: %v", name, err)
		}
		if err == nil && batch.Name() != name {
			t.Errorf("Use(%s) left %s in use", name, batch.Name())
		}
	}
	if available[0] != "generic" {
		t.Errorf("Names() = %v, want generic first", available)
	}
}
