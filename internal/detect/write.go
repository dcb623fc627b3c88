package detect

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/perfmut/perfmut/internal/english"
)

// WriteJSON writes the map as indented JSON.
func WriteJSON(w io.Writer, m *Map) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(m)
}

// WriteText writes one line per function, worst protected first: the
// function, its factor (with its 95% interval), the benchmark that
// protects it best and the function's share of that benchmark's timed
// samples (with its interval).
func WriteText(w io.Writer, m *Map) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FUNCTION\tFACTOR\t95% INTERVAL\tBENCHMARK\tSHARE\t95% INTERVAL\tSAMPLES")
	for _, r := range m.Functions {
		fmt.Fprintf(tw, "%s.%s\t%s\n", r.Package, r.Function, rowText(r))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if n := m.fewSampled(); n > 0 {
		fmt.Fprintf(w, "%s got fewer than %d timed profile samples: their shares are rough (wide intervals); raise -profile-time or map on a quieter machine\n", english.Plural(n, "benchmark"), fewSamples)
	}
	for _, sk := range m.Skipped {
		fmt.Fprintf(w, "left out: %s failed on the baseline: %s\n", sk.Benchmark, sk.Reason)
	}
	_, err := fmt.Fprintf(w, "%d functions, %d benchmarks; factor: the smallest slowdown of the function alone that its best benchmark detects at the campaign's sample budget\n"+
		"took %v: %v build, %v coverage at two b.N, %v calibration, %v profiled runs (the noise samples too)\n",
		len(m.Functions), len(m.Benchmarks), round(m.Cost.Total()), round(m.Cost.Build), round(m.Cost.Coverage), round(m.Cost.Calibrate), round(m.Cost.Profile))
	return err
}

// WriteNotes writes the notes on the functions changed since rev, one
// line each, "warning" or "note" first; warn is the threshold they were
// made with (DefaultWarnFactor when 0).
func WriteNotes(w io.Writer, rev string, notes []Note, warn float64) error {
	if warn <= 0 {
		warn = DefaultWarnFactor
	}
	if len(notes) == 0 {
		_, err := fmt.Fprintf(w, "no function in scope changed since %s\n", rev)
		return err
	}
	fmt.Fprintf(w, "changed since %s: what notices each function slowing down (a warning: no benchmark times it, or its factor is above x%.3g, -warn-factor):\n", rev, warn)
	for _, n := range notes {
		kind := "note"
		if n.Warning {
			kind = "warning"
		}
		if _, err := fmt.Fprintf(w, "  %-7s %s\n", kind, n.Text); err != nil {
			return err
		}
	}
	return nil
}

// round rounds d to 0.1s.
func round(d time.Duration) time.Duration { return d.Round(100 * time.Millisecond) }

// rowText is a row's columns after the function.
func rowText(r Row) string {
	if r.Status != Timed {
		return string(r.Status) + "\t\t\t\t\t"
	}
	factor := fmt.Sprintf("x%.3g", *r.Factor)
	if r.AtLeast {
		factor = ">" + factor
	}
	high := "inf"
	if r.FactorHigh > 0 {
		high = fmt.Sprintf("%.3g", r.FactorHigh)
	}
	return fmt.Sprintf("%s\t[%.3g, %s]\t%s\t%.1f%%\t[%.1f%%, %.1f%%]\t%d", factor, r.FactorLow, high, r.Benchmark, 100*r.Share, 100*r.ShareLow, 100*r.ShareHigh, r.Samples)
}

// fewSamples is the timed sample count below which a benchmark's shares
// are rough: a share of 50 % then has a 95 % interval about 40 points
// wide. The default profiled run (5 rounds of 20ms) gets about 25 on an
// idle machine with a 250 Hz tick.
const fewSamples = 20

// fewSampled is the number of benchmarks with fewer than fewSamples timed
// profile samples.
func (m *Map) fewSampled() int {
	n := 0
	for _, b := range m.Benchmarks {
		if b.Shares.Total < fewSamples {
			n++
		}
	}
	return n
}
