package room

import "testing"

func TestEvenOut(t *testing.T) {
	type worker struct{ a, b []int32 }
	ws := []worker{
		{a: make([]int32, 3, 5), b: make([]int32, 0, 9)},
		{a: make([]int32, 2, 8), b: make([]int32, 1, 2)},
		{a: nil, b: make([]int32, 0, 9)},
	}
	keep := &ws[1].a[0]
	EvenOut(ws, func(w *worker) *[]int32 { return &w.a })
	EvenOut(ws, func(w *worker) *[]int32 { return &w.b })
	for i, w := range ws {
		if cap(w.a) != 8 || cap(w.b) != 9 {
			t.Fatalf("worker %d has room %d and %d, want 8 and 9", i, cap(w.a), cap(w.b))
		}
	}
	if len(ws[1].a) != 2 || &ws[1].a[0] != keep {
		t.Fatal("the roomiest worker's buffer was replaced")
	}
	if len(ws[0].a) != 0 || len(ws[1].b) != 0 {
		t.Fatal("a grown buffer is not empty")
	}
}
