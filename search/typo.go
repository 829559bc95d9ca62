package search

// MaxEdits is how many edits (insertions, deletions, substitutions, swaps of neighbours) a word
// may be from a correction: one for short words, two from eight letters on. Words under four
// letters are not corrected: too many words are one edit from them.
func MaxEdits(word string) int {
	switch n := len([]rune(word)); {
	case n < 4:
		return 0
	case n < 8:
		return 1
	default:
		return 2
	}
}

// Corrections picks from candidates the words closest to word within MaxEdits(word), at most
// limit of them, closest first (candidates' order breaks ties).
func Corrections(word string, candidates []string, limit int) []string {
	maxEdits := MaxEdits(word)
	if maxEdits == 0 {
		return nil
	}
	var byDistance [3][]string
	for _, c := range candidates {
		if c == word {
			continue
		}
		if d := editDistance(word, c, maxEdits); d <= maxEdits {
			byDistance[d] = append(byDistance[d], c)
		}
	}
	var out []string
	for _, ws := range byDistance {
		for _, w := range ws {
			if len(out) == limit {
				return out
			}
			out = append(out, w)
		}
	}
	return out
}

// editDistance is the optimal-string-alignment distance between a and b (a swap of neighbours
// counts one), or max+1 as soon as it must exceed max.
func editDistance(a, b string, max int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > max || -d > max {
		return max + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			best = min(best, cur[j])
		}
		if best > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
