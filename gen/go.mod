module github.com/obb2d/obb2d/gen

go 1.22.0

require github.com/mmcloughlin/avo v0.6.0

require (
	golang.org/x/mod v0.21.0 // indirect
	golang.org/x/sync v0.8.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
