package operators

import (
	"github.com/perfmut/perfmut/mutate"
)

// LockContention takes a global lock at the start of every loop body.
var LockContention = &mutate.Operator{
	Name:       "lock-contention",
	Quadrant:   mutate.Q3,
	Cost:       mutate.CostContention,
	Contention: mutate.ContentionOnly,
	Inert:      true,
	Doc: mutate.Doc{
		Title: "lock a shared mutex at the start of every loop iteration",
		Body: `Inserts a Lock and Unlock of one package-level sync.Mutex, shared by all
goroutines, at the start of every for and range body: cheap when one goroutine
runs, contended when many do.`,
		Before: `for _, x := range xs {
	sum += x
}`,
		After: `for _, x := range xs { perfmut_lock();
	sum += x
}`,
	},
	Helper: `// perfmut_lockMu is the mutex all mutated loops share.
var perfmut_lockMu sync.Mutex

// perfmut_lock locks and unlocks perfmut_lockMu.
//
//go:noinline
func perfmut_lock() {
	perfmut_lockMu.Lock()
	perfmut_lockMu.Unlock()
}
`,
	HelperImports: []string{"sync"},
	Run:           runLockContention,
}

// lockNames are the helper's identifiers and import names.
var lockNames = helperNames{calls: []string{"perfmut_lock"}, pkgLevel: []string{"perfmut_lockMu", "sync"}}

func runLockContention(pass *mutate.Pass) {
	insertAtLoops(pass, []q3Size{{
		stmt: "perfmut_lock()",
		desc: "lock and unlock a shared mutex per loop iteration",
	}}, lockNames)
}
