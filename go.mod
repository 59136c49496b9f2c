module github.com/obb2d/obb2d

go 1.22
