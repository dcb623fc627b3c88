package attrib

import (
	"bytes"
	"fmt"
	"os"

	"github.com/google/pprof/profile"
)

// Metrics pairs each measured metric with the profile sample type that
// explains it and the unit of its values per op.
var Metrics = []struct{ Metric, Type, Unit string }{
	{"sec/op", "cpu", "ns/op"},
	{"B/op", "alloc_space", "B/op"},
	{"allocs/op", "alloc_objects", "allocs/op"},
}

// Read reads the pprof files paths.
func Read(paths []string) ([]*profile.Profile, error) {
	var out []*profile.Profile
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		pr, err := profile.Parse(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		out = append(out, pr)
	}
	return out, nil
}

// Rounds pairs OLD's and NEW's profiles round by round and charges their
// values of sample type typ.
func Rounds(old, new []*profile.Profile, typ string, key Keyer) ([]Round, error) {
	if len(old) != len(new) {
		return nil, fmt.Errorf("%d profiles of OLD and %d of NEW: want one of each per round", len(old), len(new))
	}
	rounds := make([]Round, len(old))
	for i := range old {
		var err error
		if rounds[i].Old, err = Charge(old[i], typ, key); err != nil {
			return nil, err
		}
		if rounds[i].New, err = Charge(new[i], typ, key); err != nil {
			return nil, err
		}
	}
	return rounds, nil
}

// WriteMerged writes ps merged into one profile (gzipped pprof) at path:
// a side's rounds as one file for go tool pprof -diff_base.
func WriteMerged(path string, ps []*profile.Profile) error {
	m, err := profile.Merge(ps)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
