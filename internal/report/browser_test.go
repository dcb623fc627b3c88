package report

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTMLInChromium opens report.html in headless Chromium through
// scripts/screenshot-report.sh: the page must run its script to the end
// (it sets data-perfmut-ready), write nothing to the console and render a
// screenshot. Set PERFMUT_SCREENSHOT=path.png to keep the screenshot.
func TestHTMLInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser; skipped with -short")
	}
	found := false
	for _, c := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if _, err := exec.LookPath(c); err == nil {
			found = true
		}
	}
	if !found {
		t.Skip("no chromium in PATH (apt-get install -y chromium); report.html not checked in a browser")
	}
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := writeHTML(&buf, fixture(t), Options{Dir: "perfmut-out"}); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	png := filepath.Join(dir, "report.png")
	if p := os.Getenv("PERFMUT_SCREENSHOT"); p != "" {
		png, _ = filepath.Abs(p)
	}
	cmd := exec.Command("bash", filepath.Join("..", "..", "scripts", "screenshot-report.sh"), "-h", "1600", page, png)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("screenshot-report.sh: %v\n%s", err, out)
	}
	dom, err := os.ReadFile(strings.TrimSuffix(png, ".png") + ".dom.html")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(dom, []byte(htmlReadyMarker)) {
		t.Errorf("the page's script did not finish: no %s in the DOM", htmlReadyMarker)
	}
	if bytes.Contains(dom, []byte(`data-perfmut-errors="`)) {
		t.Errorf("the page reported script errors")
	}
	if st, err := os.Stat(png); err != nil || st.Size() < 20000 {
		t.Errorf("screenshot missing or blank: %v", err)
	}
}
