module github.com/obb2d/obb2d

go 1.24

require (
	github.com/klauspost/cpuid/v2 v2.2.9
	golang.org/x/sys v0.30.0
)
