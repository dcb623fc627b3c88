package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHTMLSelfContained(t *testing.T) {
	rep := fixture(t)
	var buf bytes.Buffer
	if err := writeHTML(&buf, rep, Options{Dir: "perfmut-out"}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if dir := os.Getenv("PERFMUT_HTML_OUT"); dir != "" {
		os.WriteFile(filepath.Join(dir, "report.html"), buf.Bytes(), 0o644)
	}
	// No network: nothing is fetched from anywhere.
	for _, bad := range []string{"src=\"http", "href=\"http", "@import", "url(http", "<link"} {
		if strings.Contains(out, bad) {
			t.Errorf("report.html refers to the network: contains %q", bad)
		}
	}
	// Every mutant has its section; every measured sample set its box plot;
	// each level its score chart.
	plots := 0
	for _, m := range rep.Mutants {
		if !strings.Contains(out, `id="m-`+m.ID+`"`) {
			t.Errorf("no section for mutant %s", m.ID)
		}
		for _, r := range m.Results {
			for _, s := range r.Samples {
				if _, ok := constantSamples(s); !ok {
					plots++
				}
			}
		}
	}
	if got := strings.Count(out, "<svg"); got != plots+2 {
		t.Errorf("%d SVG plots, want %d box plots + 2 score charts", got, plots)
	}
	for _, want := range []string{
		"α = 0.01", "α = 0.05", "α = 0.1", // Fig. 4 legend
		"baseline (30)", "mutant (30)", // box plot axis
		"benchstat -filter .name:Split baseline=perfmut-out/samples/5be2d8f0a611/opt/base.txt",
		`<span class="add">&#43;		perfmut_spin(100000)</span>`,
		"45.5%", "54.5%",
		"BenchmarkSplit B/op: 256 in all 30 baseline and 30 mutant samples",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(out, "<?xml") {
		t.Errorf("inline SVG kept its XML prolog")
	}
}

// TestHTMLLargeCampaign: past maxDetailedMutants mutants become table
// rows, and only the first maxPlottedMutants get plots, so the page stays
// small enough to open.
func TestHTMLLargeCampaign(t *testing.T) {
	rep := bigReport(t, 30) // 450 mutants
	n := len(rep.Mutants)
	var buf bytes.Buffer
	if err := writeHTML(&buf, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if got := strings.Count(out, `<details class="mutant`); got != maxDetailedMutants {
		t.Errorf("%d detailed mutants, want %d", got, maxDetailedMutants)
	}
	if got := strings.Count(out, `<tr class="mutant"`); got != n-maxDetailedMutants {
		t.Errorf("%d brief rows, want %d", got, n-maxDetailedMutants)
	}
	// The first 50 are covered survivors (2 per copy of the fixture), each
	// with 2 levels of 2 non-constant sample sets at most.
	if got := strings.Count(out, "<svg"); got > 2+maxPlottedMutants*4 {
		t.Errorf("%d plots, more than the cap allows", got)
	}
	if !strings.Contains(out, fmt.Sprintf("%d more mutants, in one line each", n-maxDetailedMutants)) {
		t.Errorf("no note about the brief rows")
	}
}

// TestHTMLUndecided: the score card counts the undecided mutants beside
// the score, "killed among covered" replaces a bare "covered", an undecided
// mutant has its group (and filter) and its check command.
func TestHTMLUndecided(t *testing.T) {
	var buf bytes.Buffer
	if err := writeHTML(&buf, fixture(t), Options{Dir: "perfmut-out"}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		`<div class="sub">5 killed of 11 valid · killed among covered 71.4% (killed / (killed + survived))</div>`,
		`<div class="sub undecided">1 undecided: measured to -max-samples without a kill or a slowdown ruled out; outside the score</div>`,
		`<button data-group="undecided">undecided</button>`,
		`<details class="mutant g-undecided" data-group="undecided" id="m-5c0e9a7f3b18">`,
		`<pre class="cmd">perfmut reproduce 5c0e9a7f3b18</pre>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report.html lacks %s", want)
		}
	}
	if strings.Contains(out, "· covered ") {
		t.Error("report.html still says a bare covered")
	}
}
