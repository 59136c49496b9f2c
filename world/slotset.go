package world

// slotSet is a set of slots: a list in the order they were added, and a
// bitset for the test, with a bit for every slot (its owner grows bits with
// the slots). The World's dirty marks, the slots its Moves could not vouch
// for (fat_unsure.go) and those pending a check against their fat bounds
// are slotSets.
type slotSet struct {
	list []int32
	bits []uint64
}

func (s *slotSet) add(i int32) {
	if !s.has(i) {
		s.bits[i>>6] |= 1 << (i & 63)
		s.list = append(s.list, i)
	}
}

func (s *slotSet) has(i int32) bool { return s.bits[i>>6]&(1<<(i&63)) != 0 }

// clear empties s: the words its slots set, or the whole bitset when the
// list is as long as it.
func (s *slotSet) clear() {
	if len(s.list) >= len(s.bits) {
		clear(s.bits)
	} else {
		for _, i := range s.list {
			s.bits[i>>6] = 0
		}
	}
	s.list = s.list[:0]
}
