module github.com/obb2d/obb2d

go 1.22

require golang.org/x/sys v0.30.0
