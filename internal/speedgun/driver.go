package speedgun

import (
	"bytes"
	"fmt"
	"go/format"
	"slices"
	"strings"
)

// The driver is a test file built into the package's test binary once
// through an overlay: it runs candidates read from the JSON file named by
// the environment variable driverEnv and prints one result line per
// candidate.
const (
	driverFile = "perfmut_speedgun_driver_test.go"
	driverTest = "TestPerfmutSpeedGunDriver"
	driverEnv  = "PERFMUT_SPEEDGUN_REQUESTS"
	linePrefix = "perfmut-speedgun: "
)

// driverSource renders the driver for the targets' atoms and makes.
func driverSource(pkgName string, types []*typeGen, imports map[string]bool) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "package %s\n\nimport (\n", pkgName)
	for _, imp := range sortedKeys(imports) {
		fmt.Fprintf(&b, "\t%q\n", imp)
	}
	b.WriteString(driverImports + ")\n\n")
	for k, tg := range types {
		fmt.Fprintf(&b, "func perfmutSGNew%d(c int) (x %s) {\n\tswitch c {\n", k, tg.t.display)
		for i, mk := range tg.makes {
			fmt.Fprintf(&b, "\tcase %d:\n", i)
			switch {
			case mk.err:
				fmt.Fprintf(&b, "\t\tv, err := %s\n\t\tif err != nil {\n\t\t\tpanic(err)\n\t\t}\n", mk.expr)
			default:
				fmt.Fprintf(&b, "\t\tv := %s\n", mk.expr)
			}
			if mk.value {
				b.WriteString("\t\treturn &v\n")
			} else {
				b.WriteString("\t\treturn v\n")
			}
		}
		b.WriteString("\t}\n\tpanic(\"perfmut: no such creator\")\n}\n\n")
		fmt.Fprintf(&b, "func perfmutSGCall%d(x %s, a int) {\n\tswitch a {\n", k, tg.t.display)
		for i, a := range tg.atoms {
			if a.results > 0 {
				// An error result is Go's exception: counted, so that
				// the sequences whose calls succeed rank first.
				fmt.Fprintf(&b, "\tcase %d:\n\t\tif %serr := %s; err != nil {\n\t\t\tperfmutSGatomic.AddInt64(&perfmutSGErrs, 1)\n\t\t}\n", i, strings.Repeat("_, ", a.results-1), a.src)
				continue
			}
			fmt.Fprintf(&b, "\tcase %d:\n\t\t%s\n", i, a.src)
		}
		b.WriteString("\t}\n}\n\n")
		fmt.Fprintf(&b, "func init() {\n\tperfmutSGTypes = append(perfmutSGTypes, func(c perfmutSGCand) perfmutSGRes {\n\t\treturn perfmutSGRunOn(c, perfmutSGNew%d, perfmutSGCall%d)\n\t})\n}\n\n", k, k)
	}
	b.WriteString(driverBody)
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("the generated driver does not parse: %v", err)
	}
	return src, nil
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// driverImports are the driver's own imports, renamed so that they cannot
// clash with the package's identifiers.
var driverImports = strings.Join([]string{
	`	perfmutSGjson "encoding/json"`,
	`	perfmutSGfmt "fmt"`,
	`	perfmutSGos "os"`,
	`	perfmutSGruntime "runtime"`,
	`	perfmutSGsync "sync"`,
	`	perfmutSGatomic "sync/atomic"`,
	`	perfmutSGtesting "testing"`,
	`	perfmutSGtime "time"`,
}, "\n") + "\n"

// driverBody runs the candidates. A candidate creates an instance (New),
// runs the prefix on it, then runs its suffixes from Parallelism x
// GOMAXPROCS goroutines at once (goroutine g's op k runs suffix g+k mod
// their number, Repeat times), as the benchmark does, in rounds of doubling ops until MinWall
// has passed, and reports the time per op. A panic anywhere drops it; one
// that outlasts Timeout, or whose goroutines are stuck after a panic, is
// reported and ends the process (its goroutines may hold the instance's
// locks or still run).
const driverBody = `
type perfmutSGCand struct {
	ID          int
	Type        int
	New         int
	Prefix      []int
	Suffixes    [][]int
	Repeat      int
	Parallelism int
	MinWall     int64
	Timeout     int64
}

// perfmutSGErrs counts the calls that returned an error.
var perfmutSGErrs int64

type perfmutSGRes struct {
	ID      int
	OK      bool
	Errs    int64 // calls that returned an error
	Panic   string  ` + "`json:\",omitempty\"`" + `
	Atom    int     // the atom that panicked, -1 for none or the creator
	Timeout bool    ` + "`json:\",omitempty\"`" + `
	Stuck   bool    ` + "`json:\",omitempty\"`" + `
	Wrote   string  ` + "`json:\",omitempty\"`" + ` // a file it created
	NsPerOp float64
	Ops     int
}

var perfmutSGTypes []func(perfmutSGCand) perfmutSGRes

func perfmutSGRunOn[T any](c perfmutSGCand, mk func(int) T, call func(T, int)) (r perfmutSGRes) {
	r.ID, r.Atom = c.ID, -1
	cur := -1
	defer func() {
		if p := recover(); p != nil {
			r.OK, r.Panic, r.Atom = false, perfmutSGfmt.Sprint(p), cur
		}
	}()
	x := mk(c.New)
	for _, a := range c.Prefix {
		cur = a
		call(x, a)
	}
	cur = -1
	if len(c.Suffixes) == 0 {
		r.OK = true
		return r
	}
	g := c.Parallelism * perfmutSGruntime.GOMAXPROCS(0)
	var mu perfmutSGsync.Mutex
	for rounds := 1; ; rounds *= 2 {
		var wg perfmutSGsync.WaitGroup
		panicked := make(chan struct{})
		errs0 := perfmutSGatomic.LoadInt64(&perfmutSGErrs)
		start := perfmutSGtime.Now()
		for i := range g {
			wg.Add(1)
			go func() {
				defer wg.Done()
				at := -1
				defer func() {
					if p := recover(); p != nil {
						mu.Lock()
						if r.Panic == "" {
							r.Panic, r.Atom = perfmutSGfmt.Sprint(p), at
							close(panicked)
						}
						mu.Unlock()
					}
				}()
				for op := i; op < i+rounds; op++ {
					s := c.Suffixes[op%len(c.Suffixes)]
					for range c.Repeat {
						for _, a := range s {
							at = a
							call(x, a)
						}
					}
				}
			}()
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-panicked:
			// A call that panicked may have left a lock held: the
			// other goroutines may never finish. Give them a moment,
			// then report the candidate as stuck (the process ends).
			select {
			case <-done:
			case <-perfmutSGtime.After(100 * perfmutSGtime.Millisecond):
				r.Stuck = true
			}
			mu.Lock()
			defer mu.Unlock()
			return r
		}
		wall := perfmutSGtime.Since(start)
		if r.Panic != "" {
			return r
		}
		if wall.Nanoseconds() >= c.MinWall || rounds >= 1<<20 {
			r.OK, r.Ops, r.Errs = true, g*rounds, perfmutSGatomic.LoadInt64(&perfmutSGErrs)-errs0
			r.NsPerOp = float64(wall.Nanoseconds()) / float64(g*rounds)
			return r
		}
	}
}

func TestPerfmutSpeedGunDriver(t *perfmutSGtesting.T) {
	name := perfmutSGos.Getenv("PERFMUT_SPEEDGUN_REQUESTS")
	if name == "" {
		t.Skip("run by perfmut only")
	}
	data, err := perfmutSGos.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var cands []perfmutSGCand
	if err := perfmutSGjson.Unmarshal(data, &cands); err != nil {
		t.Fatal(err)
	}
	for _, c := range cands {
		perfmutSGfmt.Printf("perfmut-speedgun: start %d\n", c.ID)
		done := make(chan perfmutSGRes, 1)
		go func() { done <- perfmutSGTypes[c.Type](c) }()
		var r perfmutSGRes
		select {
		case r = <-done:
		case <-perfmutSGtime.After(perfmutSGtime.Duration(c.Timeout)):
			r = perfmutSGRes{ID: c.ID, Timeout: true, Atom: -1}
		}
		// A call that writes files (SaveFile("a")) would write them
		// into the user's package when the benchmark runs: the driver
		// runs in an empty directory, and a candidate that leaves
		// something there is dropped.
		if left, _ := perfmutSGos.ReadDir("."); len(left) > 0 {
			r.OK, r.Wrote = false, left[0].Name()
			for _, e := range left {
				perfmutSGos.RemoveAll(e.Name())
			}
		}
		line, _ := perfmutSGjson.Marshal(r)
		perfmutSGfmt.Printf("perfmut-speedgun: %s\n", line)
		if r.Timeout || r.Stuck {
			perfmutSGos.Exit(3)
		}
	}
}
`
