package behave

import (
	"github.com/perfmut/perfmut/internal/attrib"
)

// Feature names' prefixes.
const (
	CPUFunc   = "cpu "   // a function's share of the CPU time (attrib's charges)
	CPUStack  = "stack " // a stack of module functions' share of the CPU time
	GC        = "gc"     // the garbage collector's share of the CPU time
	AllocFunc = "alloc " // a function's share of the allocated bytes
)

// Features reduces one profiled round, its CPU and allocated-bytes
// charges, to shares of their totals.
func Features(cpu, alloc attrib.Charges) map[string]float64 {
	out := map[string]float64{}
	if cpu.Total > 0 {
		for k, v := range cpu.Self {
			out[CPUFunc+k] = v / cpu.Total
		}
		for k, v := range cpu.Stacks {
			if k != "" {
				out[CPUStack+k] = v / cpu.Total
			}
		}
		out[GC] = cpu.GC / cpu.Total
	}
	if alloc.Total > 0 {
		for k, v := range alloc.Self {
			out[AllocFunc+k] = v / alloc.Total
		}
	}
	return out
}
