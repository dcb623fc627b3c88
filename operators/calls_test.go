package operators

import "testing"

func TestHasWordPrefix(t *testing.T) {
	words := []string{"Add", "Next", "New"}
	for name, want := range map[string]bool{
		"Add": true, "AddRow": true, "addRow": true, "Address": false, "add": true,
		"Next": true, "nextToken": true, "Nexus": false, "NewReplacer": true, "Newton": false,
		"Len": false,
	} {
		if got := hasWordPrefix(name, words); got != want {
			t.Errorf("hasWordPrefix(%q) = %v, want %v", name, got, want)
		}
	}
}
