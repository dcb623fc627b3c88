package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/perfmut/perfmut/results"
)

// compileSchema compiles a vendored schema (testdata/SCHEMAS.md says where
// each comes from) with format assertions on.
func compileSchema(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	url := "file:///schemas/" + file
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compiling %s: %v", file, err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, data []byte) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	return s.Validate(v)
}

// mutateJSON decodes data, lets edit change it and encodes it again.
func mutateJSON(t *testing.T, data []byte, edit func(map[string]any)) []byte {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	edit(v)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	schema := compileSchema(t, "sarif-schema-2.1.0.json")
	rep := fixture(t)
	for _, opts := range []Options{{}, {Levels: []string{results.NoOpt}, PathPrefix: "go/"}} {
		var buf bytes.Buffer
		if err := writeSARIF(&buf, rep, opts); err != nil {
			t.Fatal(err)
		}
		if err := validate(t, schema, buf.Bytes()); err != nil {
			t.Fatalf("report.sarif (%+v) is not valid SARIF 2.1.0: %v", opts, err)
		}
		// The validator does reject what breaks the schema.
		bad := mutateJSON(t, buf.Bytes(), func(v map[string]any) {
			v["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)["level"] = "severe"
		})
		if err := validate(t, schema, bad); err == nil {
			t.Errorf("a result with level %q passed the SARIF schema", "severe")
		}
	}
	// With notes on changed functions (a rule of their own, a result
	// each at the function's declaration) it is valid too, and a note's
	// level must be one SARIF knows.
	var notes bytes.Buffer
	if err := writeSARIF(&notes, mapFixture(t), Options{PathPrefix: "go/"}); err != nil {
		t.Fatal(err)
	}
	if err := validate(t, schema, notes.Bytes()); err != nil {
		t.Fatalf("report.sarif with changed-function notes is not valid SARIF 2.1.0: %v", err)
	}
	bad := mutateJSON(t, notes.Bytes(), func(v map[string]any) {
		rs := v["runs"].([]any)[0].(map[string]any)["results"].([]any)
		rs[len(rs)-1].(map[string]any)["level"] = "info"
	})
	if err := validate(t, schema, bad); err == nil {
		t.Errorf("a changed-function note with level %q passed the SARIF schema", "info")
	}
	// An empty campaign is valid too.
	var buf bytes.Buffer
	if err := writeSARIF(&buf, &results.Report{Schema: results.Schema}, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := validate(t, schema, buf.Bytes()); err != nil {
		t.Errorf("empty report.sarif is not valid: %v", err)
	}
}

func TestMutationTestingElementsValidatesAgainstSchema(t *testing.T) {
	schema := compileSchema(t, "mutation-testing-report-schema.json")
	rep := fixture(t)
	var buf bytes.Buffer
	if err := writeMTE(&buf, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := validate(t, schema, buf.Bytes()); err != nil {
		t.Fatalf("mutation.json does not match the mutation-testing-elements schema: %v", err)
	}
	bad := mutateJSON(t, buf.Bytes(), func(v map[string]any) {
		for _, f := range v["files"].(map[string]any) {
			f.(map[string]any)["mutants"].([]any)[0].(map[string]any)["status"] = "Slow"
			break
		}
	})
	if err := validate(t, schema, bad); err == nil || !strings.Contains(err.Error(), "/status") {
		t.Errorf("status %q passed the schema (err %v)", "Slow", err)
	}
}
