package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHTMLSelfContained(t *testing.T) {
	rep := fixture(t)
	var buf bytes.Buffer
	if err := HTML(&buf, rep, Options{Dir: "perfmut-out"}); err != nil {
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
			plots += len(r.Samples)
		}
	}
	if got := strings.Count(out, "<svg"); got != plots+2 {
		t.Errorf("%d SVG plots, want %d box plots + 2 score charts", got, plots)
	}
	for _, want := range []string{
		"α = 0.01", "α = 0.05", "α = 0.1", // Fig. 4 legend
		"baseline (30)", "mutant (30)", // box plot axis
		"benchstat -filter .name:Split baseline=perfmut-out/bench/5be2d8f0a611.opt.baseline.txt",
		`<span class="add">&#43;		perfmut_spin(100000)</span>`,
		"40.0%", "50.0%",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(out, "<?xml") {
		t.Errorf("inline SVG kept its XML prolog")
	}
}
