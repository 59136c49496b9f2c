package testkit

import (
	"fmt"
	"syscall"
	"testing"
	"unsafe"
)

// Guarded is memory whose last usable byte is followed by a PROT_NONE page,
// like bytes/boundary_test.go in the standard library: a slice placed at
// its end faults on any read or write past its length. With
// debug.SetPanicOnFault on, Fault turns that fault into an error.
type Guarded struct {
	mem  []byte
	data []byte // the readable, writable part, ending at the guard page
}

// NewGuarded maps at least size usable bytes and the guard page after them.
func NewGuarded(t *testing.T, size int) *Guarded {
	t.Helper()
	page := syscall.Getpagesize()
	data := (size + page - 1) / page * page
	mem, err := syscall.Mmap(-1, 0, data+page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	if err := syscall.Mprotect(mem[data:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	g := &Guarded{mem: mem, data: mem[:data]}
	t.Cleanup(func() { syscall.Munmap(g.mem) })
	return g
}

// FloatsAtEnd returns n float32s whose last element is the last before the
// guard page.
func (g *Guarded) FloatsAtEnd(n int) []float32 {
	all := unsafe.Slice((*float32)(unsafe.Pointer(&g.data[0])), len(g.data)/4)
	return all[len(all)-n:]
}

// FloatsCopy returns a copy of src whose last element is the last before
// the guard page.
func (g *Guarded) FloatsCopy(src []float32) []float32 {
	dst := g.FloatsAtEnd(len(src))
	copy(dst, src)
	return dst
}

// Int32sAtEnd returns n int32s whose last element is the last before the
// guard page.
func (g *Guarded) Int32sAtEnd(n int) []int32 {
	all := unsafe.Slice((*int32)(unsafe.Pointer(&g.data[0])), len(g.data)/4)
	return all[len(all)-n:]
}

// WordsAtEnd returns n uint64s whose last element is the last before the
// guard page.
func (g *Guarded) WordsAtEnd(n int) []uint64 {
	all := unsafe.Slice((*uint64)(unsafe.Pointer(&g.data[0])), len(g.data)/8)
	return all[len(all)-n:]
}

// Fault runs f and returns the panic it raised, if any: with
// debug.SetPanicOnFault on, a read or write of the guard page.
func Fault(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("fault: %v", r)
		}
	}()
	f()
	return nil
}
