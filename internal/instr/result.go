package instr

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// Unit is the benchmark unit of an instruction count per operation, as a
// samples file names it.
const Unit = "instructions/op"

// Values returns the sample's values by unit, as a benchmark result line
// gives them: Unit, and the B/op and allocs/op that the longer run
// reported (-test.benchmem), when it did. Its sec/op is valgrind's and is
// left out.
func (s Sample) Values() map[string]float64 {
	vals := map[string]float64{Unit: s.PerOp}
	rd := benchfmt.NewReader(bytes.NewReader(s.Output), "sample")
	for rd.Scan() {
		if r, ok := rd.Result().(*benchfmt.Result); ok {
			for _, v := range r.Values {
				if v.Unit == "B/op" || v.Unit == "allocs/op" {
					vals[v.Unit] = v.Value
				}
			}
			break
		}
	}
	return vals
}

// WriteResult writes s to w as a benchmark result line of the benchmark
// called name (its full name, "BenchmarkX" or "BenchmarkX/sub"), after a
// comment line with the raw counts:
//
//	# instructions of BenchmarkX: 4847434 at 2 iterations, 104840790 at 1170
//	BenchmarkX-1 1168 85610.8 instructions/op 4096 B/op 3 allocs/op
//
// (a sample of sampleOne: "# instructions of BenchmarkX: 104840790 at 1170
// iterations, less a set-up of 4676213").
// The "-1" says the benchmark ran with GOMAXPROCS=1; N is the sample's
// iteration count. A file of such lines is benchfmt: benchstat compares
// two of them on instructions/op.
func WriteResult(w io.Writer, name string, s Sample) error {
	vals := s.Values()
	var b strings.Builder
	if s.Short == 0 {
		fmt.Fprintf(&b, "# instructions of %s: %d at %d iterations, less a set-up of %.0f\n", name, s.Long, s.N+MinIters, s.SetUp)
	} else {
		fmt.Fprintf(&b, "# instructions of %s: %d at %d iterations, %d at %d\n", name, s.Short, MinIters, s.Long, s.N+MinIters)
	}
	fmt.Fprintf(&b, "%s-1 %d %s %s", name, s.N, strconv.FormatFloat(s.PerOp, 'f', -1, 64), Unit)
	for _, u := range []string{"B/op", "allocs/op"} {
		if v, ok := vals[u]; ok {
			fmt.Fprintf(&b, " %s %s", strconv.FormatFloat(v, 'f', -1, 64), u)
		}
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// readResults reads the instruction counts of a samples file: for each
// benchmark (by its full name without the "-1", as WriteResult was given
// it), its instructions/op values in file order. Other lines (comments,
// configuration, results without instructions/op) are skipped; a
// malformed result line is an error naming its line.
func readResults(r io.Reader, file string) (map[string][]float64, error) {
	out := map[string][]float64{}
	rd := benchfmt.NewReader(r, file)
	for rd.Scan() {
		switch res := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, res
		case *benchfmt.Result:
			v, ok := res.Value(Unit)
			if !ok {
				continue
			}
			name := "Benchmark" + res.Name.String()
			name = strings.TrimSuffix(name, "-1")
			out[name] = append(out[name], v)
		}
	}
	return out, rd.Err()
}
