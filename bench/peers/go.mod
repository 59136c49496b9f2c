module github.com/obb2d/obb2d/bench/peers

go 1.24.0

replace github.com/obb2d/obb2d => ../..

require (
	github.com/ByteArena/box2d v1.0.2
	github.com/Tarliton/collision2d v0.1.0
	github.com/jakecoffman/cp/v2 v2.4.0
	github.com/obb2d/obb2d v0.0.0-00010101000000-000000000000
	github.com/solarlune/resolv v0.8.1
	gonum.org/v1/plot v0.17.0
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
	golang.org/x/text v0.28.0 // indirect
)
