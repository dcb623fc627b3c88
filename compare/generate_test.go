package compare

import (
	"reflect"
	"testing"

	"github.com/perfmut/perfmut/internal/generate/speedgun"
)

// TestCommonChanged: a type both versions have is generated for when one
// of its methods (exported or not, on either side) or a constructor
// changed, with the methods and constructors both export alike; the
// changed exported ones are the focus.
func TestCommonChanged(t *testing.T) {
	old := []speedgun.Type{
		{Name: "Store", Methods: map[string]string{"Get": "func(k string) int", "Set": "func(k string, v int)", "Gone": "func()"},
			Constructors: map[string]string{"New": "func() *Store", "NewSized": "func(n int) *Store"}},
		{Name: "Quiet", Methods: map[string]string{"Len": "func() int"}},
		{Name: "OnlyOld", Methods: map[string]string{"X": "func()"}},
	}
	new := []speedgun.Type{
		{Name: "Store", Methods: map[string]string{"Get": "func(k string) int", "Set": "func(k string, v int64)", "Added": "func()"},
			Constructors: map[string]string{"New": "func() *Store", "NewSized": "func(n int64) *Store"}},
		{Name: "Quiet", Methods: map[string]string{"Len": "func() int"}},
		{Name: "Inner", Methods: map[string]string{"Do": "func()"}},
	}
	changed := [2]map[string]bool{{"(*Store).Get": true}, {"(*Inner).helper": true, "Quiet.String": false}}
	methods, ctors, focus := commonChanged(old, new, changed)
	if want := map[string][]string{"Store": {"Get"}}; !reflect.DeepEqual(methods, want) {
		t.Errorf("methods %v, want %v (Set changed its signature, Gone and Added are on one side; Quiet did not change; Inner is new)", methods, want)
	}
	if want := []string{"New"}; !reflect.DeepEqual(ctors, want) {
		t.Errorf("constructors %v, want %v", ctors, want)
	}
	if want := []string{"(*Store).Get"}; !reflect.DeepEqual(focus, want) {
		t.Errorf("focus %v, want %v", focus, want)
	}
	// An unexported method's change makes the type changed, without focus.
	methods, _, focus = commonChanged(old, new, [2]map[string]bool{{}, {"(*Quiet).grow": true}})
	if want := map[string][]string{"Quiet": {"Len"}}; !reflect.DeepEqual(methods, want) || len(focus) != 0 {
		t.Errorf("unexported change: methods %v focus %v, want %v and no focus", methods, focus, want)
	}
}
