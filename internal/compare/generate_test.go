package compare

import (
	"reflect"
	"testing"

	"github.com/perfmut/perfmut/internal/speedgun"
)

// TestCommonChanged: a type both versions have is generated for when one
// of its methods (exported or not, on either side, also of an embedded
// type its methods are promoted from) or a constructor changed, with the
// methods and constructors both export alike; the changed exported ones
// are the focus.
func TestCommonChanged(t *testing.T) {
	store := func(setSig, ctorSig string, extra string) speedgun.Type {
		ty := speedgun.Type{Name: "Store",
			Methods:      map[string]string{"Get": "func(k string) int", "Set": setSig, extra: "func()"},
			Covers:       map[string]string{"Get": "(*Store).Get", "Set": "(*Store).Set", extra: "(*Store)." + extra},
			Constructors: map[string]string{"New": "func() *Store", "NewSized": ctorSig}}
		return ty
	}
	cache := speedgun.Type{Name: "Cache", Methods: map[string]string{"Get": "func(k string) (any, bool)"}, Covers: map[string]string{"Get": "(*cache).Get"}}
	quiet := speedgun.Type{Name: "Quiet", Methods: map[string]string{"Len": "func() int"}, Covers: map[string]string{"Len": "Quiet.Len"}}
	old := []speedgun.Type{store("func(k string, v int)", "func(n int) *Store", "Gone"), quiet, cache, {Name: "OnlyOld"}}
	new := []speedgun.Type{store("func(k string, v int64)", "func(n int64) *Store", "Added"), quiet, cache,
		{Name: "Inner", Methods: map[string]string{"Do": "func()"}, Covers: map[string]string{"Do": "(*Inner).Do"}}}
	for _, c := range []struct {
		name         string
		changed      [2]map[string]bool
		methods      map[string][]string
		ctors, focus []string
	}{
		{"a method on OLD", [2]map[string]bool{{"(*Store).Get": true}, {"(*Inner).helper": true, "Quiet.String": false}},
			map[string][]string{"Store": {"Get"}}, []string{"New"}, []string{"(*Store).Get"}},
		{"an unexported method on NEW", [2]map[string]bool{{}, {"(*Quiet).grow": true}},
			map[string][]string{"Quiet": {"Len"}}, []string{"New"}, nil},
		{"a promoted method", [2]map[string]bool{{}, {"(*cache).Get": true}},
			map[string][]string{"Cache": {"Get"}}, []string{"New"}, []string{"(*cache).Get"}},
		{"an unexported method of the embedded type", [2]map[string]bool{{"(*cache).get": true}, {}},
			map[string][]string{"Cache": {"Get"}}, []string{"New"}, nil},
		{"a function", [2]map[string]bool{{"helper": true}, {}}, map[string][]string{}, []string{"New"}, nil},
	} {
		methods, ctors, focus := commonChanged(old, new, c.changed)
		if !reflect.DeepEqual(methods, c.methods) || !reflect.DeepEqual(ctors, c.ctors) || !reflect.DeepEqual(focus, c.focus) {
			t.Errorf("%s: methods %v, constructors %v, focus %v; want %v, %v, %v (Set and NewSized changed their signatures, Gone and Added are on one side, Inner is new)",
				c.name, methods, ctors, focus, c.methods, c.ctors, c.focus)
		}
	}
}
