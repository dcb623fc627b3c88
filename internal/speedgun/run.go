package speedgun

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/proc"
)

// A cand is one candidate test, as the driver reads it.
type cand struct {
	ID          int
	Type        int
	New         int
	Prefix      []int
	Suffixes    [][]int
	Repeat      int
	Parallelism int
	MinWall     int64 // ns
	Timeout     int64 // ns
}

// A res is the driver's result of a candidate; Crash is set when the
// process died in it (a fatal error such as concurrent map writes).
type res struct {
	ID      int
	OK      bool
	Panic   string
	Atom    int
	Timeout bool
	Stuck   bool   // goroutines still blocked after the panic
	Errs    int64  // calls that returned an error
	Wrote   string // a file it created in the working directory
	NsPerOp float64
	Ops     int
	Crash   string `json:"-"`
}

// why is the reason a failed candidate was dropped.
func (r res) why() string {
	switch {
	case r.Crash != "":
		return "crashed the process: " + r.Crash
	case r.Wrote != "":
		return "created a file in the working directory (" + r.Wrote + ")"
	case r.Timeout:
		return "deadlocked or outlasted its deadline"
	case r.Panic != "" && r.Stuck:
		return "panicked, leaving the other goroutines blocked: " + firstLine(r.Panic)
	case r.Panic != "":
		return "panicked: " + firstLine(r.Panic)
	}
	return "failed"
}

// A driver runs candidates in a test binary built with the driver file.
type driver struct {
	e    *engine.Engine
	bin  string
	dir  string // an empty directory, where the binary runs
	tmp  string
	runs int // processes started
}

// run runs cands in as few processes as it can: a candidate that crashes
// the process or deadlocks ends it, and the rest run in a new one.
func (d *driver) run(ctx context.Context, cands []cand) (map[int]res, error) {
	out := map[int]res{}
	for len(cands) > 0 {
		done, rest, err := d.runOnce(ctx, cands, out)
		if err != nil {
			return nil, err
		}
		if done == 0 && len(rest) == len(cands) {
			return nil, fmt.Errorf("the generated driver made no progress")
		}
		cands = rest
	}
	return out, nil
}

// runOnce runs cands in one process, records their results in out and
// returns how many it decided and the candidates still to run.
func (d *driver) runOnce(ctx context.Context, cands []cand, out map[int]res) (int, []cand, error) {
	data, err := json.Marshal(cands)
	if err != nil {
		return 0, nil, err
	}
	req := filepath.Join(d.tmp, fmt.Sprintf("requests-%d.json", d.runs))
	if err := os.WriteFile(req, data, 0o644); err != nil {
		return 0, nil, err
	}
	defer os.Remove(req)
	d.runs++
	var budget time.Duration
	for _, c := range cands {
		budget += time.Duration(c.Timeout) + 4*time.Duration(c.MinWall)
	}
	args := []string{"-test.run=^" + driverTest + "$", "-test.v", "-test.count=1", "-test.timeout=0"}
	d.e.LogCmd(d.dir, d.bin, args...)
	pr, err := proc.Run(ctx, d.dir, append(os.Environ(), driverEnv+"="+req), budget+30*time.Second, d.bin, args...)
	if err != nil {
		return 0, nil, err
	}
	if pr.Canceled {
		return 0, nil, ctx.Err()
	}
	started, results, crash := parseDriver(pr.Output)
	n := 0
	for i, c := range cands {
		if r, ok := results[c.ID]; ok {
			out[c.ID] = r
			n++
			continue
		}
		if c.ID == started {
			why := crash
			if why == "" {
				why = "the process ended: " + engine.LastLines(pr.Output, 1)
			}
			out[c.ID] = res{ID: c.ID, Atom: -1, Crash: why}
			return n + 1, cands[i+1:], nil
		}
		if started < 0 && n == 0 {
			return 0, nil, fmt.Errorf("the generated driver did not run: %s", engine.LastLines(pr.Output, 3))
		}
		return n, cands[i:], nil
	}
	return n, nil, nil
}

// parseDriver reads the driver's output: the last candidate started
// without a result (-1 if none), the results by ID, and the first fatal
// error or panic line after that start.
func parseDriver(output []byte) (int, map[int]res, string) {
	results := map[int]res{}
	started, crash := -1, ""
	sc := bufio.NewScanner(bytes.NewReader(output))
	sc.Buffer(make([]byte, 0, 64<<10), 8<<20)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, linePrefix)
		switch {
		case ok && strings.HasPrefix(rest, "start "):
			started, _ = strconv.Atoi(strings.TrimPrefix(rest, "start "))
			crash = ""
		case ok:
			var r res
			if json.Unmarshal([]byte(rest), &r) == nil {
				results[r.ID] = r
				if r.ID == started {
					started = -1
				}
			}
		case crash == "" && started >= 0 && (strings.HasPrefix(line, "fatal error:") || strings.HasPrefix(line, "panic:")):
			crash = line
		}
	}
	return started, results, crash
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
