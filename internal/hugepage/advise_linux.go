package hugepage

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// advising reports whether the system backs a region with huge pages only
// when advised to: the setting reads "[madvise]" among its choices. A
// system set to "always" needs no advice, one set to "never" takes none,
// and one without the file (no transparent huge pages, or no /sys) gets
// none. GODEBUG=disablethp=1, with which the runtime keeps the heap off
// huge pages, turns the advice off too.
var advising = sync.OnceValue(func() bool {
	if disabled(os.Getenv("GODEBUG")) {
		return false
	}
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && bytes.Contains(b, []byte("[madvise]"))
})

// disabled reports whether a GODEBUG value sets disablethp=1: its last
// disablethp setting, as the runtime reads it.
func disabled(godebug string) bool {
	off := false
	for _, kv := range strings.Split(godebug, ",") {
		if v, ok := strings.CutPrefix(kv, "disablethp="); ok {
			off = v == "1"
		}
	}
	return off
}

// advise gives (on) or withdraws the advice for the whole pages within the
// size bytes at p. Its errors are dropped: advice that is not taken leaves
// the memory as it was.
func advise(p unsafe.Pointer, size uintptr, on bool) {
	pg := uintptr(os.Getpagesize())
	beg := (uintptr(p) + pg - 1) &^ (pg - 1)
	end := (uintptr(p) + size) &^ (pg - 1)
	if beg >= end {
		return
	}
	how := unix.MADV_HUGEPAGE
	if !on {
		how = unix.MADV_NOHUGEPAGE
	}
	_ = unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, beg-uintptr(p))), end-beg), how)
}
