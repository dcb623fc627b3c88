package runner

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/perfmut/perfmut/mutate"
)

// SampleMutants returns a seeded random sample of n mutants, in their original
// order. n <= 0 or n >= len(ms) returns ms unchanged.
func SampleMutants(ms []mutate.Mutant, n int, seed int64) []mutate.Mutant {
	if n <= 0 || n >= len(ms) {
		return ms
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	idx := rng.Perm(len(ms))[:n]
	sort.Ints(idx)
	out := make([]mutate.Mutant, n)
	for i, j := range idx {
		out[i] = ms[j]
	}
	return out
}

// ParseShard parses a -shard spec "k/n" with 1 <= k <= n.
func ParseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		k, err1 := strconv.Atoi(a)
		n, err2 := strconv.Atoi(b)
		if err1 == nil && err2 == nil && n >= 1 && k >= 1 && k <= n {
			return k, n, nil
		}
	}
	return 0, 0, fmt.Errorf("bad -shard %q: want k/n with 1 <= k <= n, e.g. 1/4 (for a Kubernetes indexed job: $((JOB_COMPLETION_INDEX+1))/N)", s)
}

// Shard returns shard k of n (1-based): the mutants whose ID hashes to
// k-1 modulo n. Every mutant is in exactly one shard, and a mutant's
// shard depends only on its ID, so shards stay stable when other mutants
// come and go.
func Shard(ms []mutate.Mutant, k, n int) []mutate.Mutant {
	if n <= 1 {
		return ms
	}
	var out []mutate.Mutant
	for _, m := range ms {
		h := fnv.New64a()
		h.Write([]byte(m.ID))
		if int(h.Sum64()%uint64(n)) == k-1 {
			out = append(out, m)
		}
	}
	return out
}
