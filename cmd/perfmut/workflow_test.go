package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestCompareWorkflow checks docs/github-actions-compare.yml, the job
// docs/ci.md gives to copy: it parses as YAML, the comment step reads the
// compare.md the compare step writes, and no condition asks hashFiles()
// about a file outside the workspace (hashFiles sees only
// GITHUB_WORKSPACE: such a condition is always false and the comment
// would never be posted).
func TestCompareWorkflow(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "github-actions-compare.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		On   map[string]any `yaml:"on"`
		Jobs map[string]struct {
			Steps []struct {
				Name string            `yaml:"name"`
				If   string            `yaml:"if"`
				Run  string            `yaml:"run"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	if _, ok := wf.On["pull_request"]; !ok {
		t.Errorf("the workflow does not run on pull requests: on %v", wf.On)
	}
	job, ok := wf.Jobs["compare"]
	if !ok {
		t.Fatalf("no job compare: %v", wf.Jobs)
	}
	out := regexp.MustCompile(`perfmut compare .*-out "\$RUNNER_TEMP/([^"]+)"`)
	var dir string
	for _, s := range job.Steps {
		if m := out.FindStringSubmatch(s.Run); m != nil {
			dir = m[1]
		}
		if strings.Contains(s.If, "hashFiles(") && (strings.Contains(s.If, "runner.temp") || strings.Contains(s.If, "RUNNER_TEMP")) {
			t.Errorf("step %q: if: %s: hashFiles() sees only the workspace, never runner.temp", s.Name, s.If)
		}
	}
	if dir == "" {
		t.Fatal("no step runs perfmut compare -out \"$RUNNER_TEMP/...\"")
	}
	posts := false
	for _, s := range job.Steps {
		if strings.Contains(s.With["script"], "'/"+dir+"/compare.md'") && strings.Contains(s.With["script"], "createComment") {
			posts = true
		}
	}
	if !posts {
		t.Errorf("no step posts $RUNNER_TEMP/%s/compare.md as a comment", dir)
	}
}
