package world

// SortAllMoves makes MoveBoxes sort its writes by block in worlds of every
// size when on, so that small worlds test that path too, and restores the
// size limit when off.
func SortAllMoves(on bool) {
	directBytes = defaultDirectBytes
	if on {
		directBytes = -1
	}
}
