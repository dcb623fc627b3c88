package operators

import (
	"fmt"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/perfmut/perfmut/mutate"
)

// Catalogue describes ops, one operator a line: its quadrant, name and
// title, and for an operator with options its section of perfmut.yaml
// with the defaults (operators sharing a section show it once).
func Catalogue(ops []*mutate.Operator) string {
	width := 0
	for _, op := range ops {
		width = max(width, len(op.Name))
	}
	var b strings.Builder
	shown := map[string]bool{}
	for _, op := range ops {
		fmt.Fprintf(&b, "  %s  %-*s  %s\n", op.Quadrant, width, op.Name, op.Doc.Title)
		if op.Options == nil {
			continue
		}
		key := op.Options.Key
		if shown[key] {
			fmt.Fprintf(&b, "      %-*s  options: %s: (as above)\n", width, "", key)
			continue
		}
		shown[key] = true
		fmt.Fprintf(&b, "      %-*s  options: %s: %s\n", width, "", key, flow(op.Options.New()))
	}
	return b.String()
}

// flow renders v as one line of YAML in flow style; an empty list of
// entries as the keys of an entry.
func flow(v any) string {
	if t := reflect.TypeOf(v); t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Slice && reflect.ValueOf(v).Elem().Len() == 0 {
		if et := t.Elem().Elem(); et.Kind() == reflect.Struct {
			var keys []string
			for i := range et.NumField() {
				if k, _, _ := strings.Cut(et.Field(i).Tag.Get("yaml"), ","); k != "" && k != "-" {
					keys = append(keys, k)
				}
			}
			return "a list of {" + strings.Join(keys, ", ") + "}"
		}
	}
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	var set func(n *yaml.Node)
	set = func(n *yaml.Node) {
		n.Style |= yaml.FlowStyle
		for _, c := range n.Content {
			set(c)
		}
	}
	set(&n)
	out, err := yaml.Marshal(&n)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	return strings.TrimSpace(string(out))
}
