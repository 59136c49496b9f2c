//go:build !linux

package hugepage

import "unsafe"

// advising is false where there is no madvise(MADV_HUGEPAGE) to give.
var advising = func() bool { return false }

func advise(p unsafe.Pointer, size uintptr, on bool) {}
