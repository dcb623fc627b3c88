package load

import (
	"fmt"
	"sort"
	"strings"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/mutate"
)

// selectMutants keeps the mutants named in list (comma-separated IDs or
// unique ID prefixes), in their generated order.
func selectMutants(mutants []mutate.Mutant, list string) ([]mutate.Mutant, error) {
	named, err := FindMutants(mutants, splitList(list))
	if err != nil {
		return nil, fmt.Errorf("-mutants: %w", err)
	}
	if len(named) == 0 {
		return nil, fmt.Errorf("-mutants %q names no mutant ID; give IDs as printed by perfmut list, e.g. -mutants 1f238fb2b4fb,075215b5af18", list)
	}
	want := map[string]bool{}
	for _, m := range named {
		want[m.ID] = true
	}
	var kept []mutate.Mutant
	for _, m := range mutants {
		if want[m.ID] {
			kept = append(kept, m)
		}
	}
	return kept, nil
}

// FindMutants returns the mutants with the given IDs or unique ID
// prefixes, in the order of ids.
func FindMutants(mutants []mutate.Mutant, ids []string) ([]mutate.Mutant, error) {
	sorted := make([]string, len(mutants))
	byID := make(map[string]mutate.Mutant, len(mutants))
	for i, m := range mutants {
		sorted[i] = m.ID
		byID[m.ID] = m
	}
	sort.Strings(sorted)
	var found []mutate.Mutant
	for _, id := range ids {
		id, err := CheckID(id)
		if err != nil {
			return nil, err
		}
		full, err := resolveID(sorted, id)
		if err != nil {
			return nil, err
		}
		found = append(found, byID[full])
	}
	return found, nil
}

// CheckID returns the mutant ID (or prefix) id in lower case, or an error
// when it is not one: 4 to 12 hex digits.
func CheckID(id string) (string, error) {
	low := strings.ToLower(id)
	if strings.Trim(low, "0123456789abcdef") != "" || len(low) < 4 || len(low) > 12 {
		return "", inputerr.Errorf("%q is not a mutant ID (IDs are 12 hex digits, as printed by 'perfmut list'; a unique prefix of at least 4 works)", id)
	}
	return low, nil
}

// resolveID finds the ID in sorted that equals id or starts with it.
func resolveID(sorted []string, id string) (string, error) {
	i := sort.SearchStrings(sorted, id)
	if i < len(sorted) && sorted[i] == id {
		return id, nil
	}
	if i >= len(sorted) || !strings.HasPrefix(sorted[i], id) {
		return "", fmt.Errorf("unknown mutant ID %s; run 'perfmut list' to see the IDs (they change when the mutated code changes)", id)
	}
	if i+1 < len(sorted) && strings.HasPrefix(sorted[i+1], id) {
		return "", fmt.Errorf("mutant ID prefix %s is ambiguous (%s, %s, ...); give more digits", id, sorted[i], sorted[i+1])
	}
	return sorted[i], nil
}
