package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/perfmut/perfmut/results"
)

// shardHead says where the merged report's map and noise come from.
type shardHead struct {
	dir, shard string // the first shard's directory and -shard k/n
	mapFrom    struct{ dir, shard string }
	// mapDiffer are the other shards whose maps differ from mapFrom's;
	// mapAgree those whose maps are the same (one map reused by -since).
	mapDiffer, mapAgree []string
	noiseOthers         []string // the other shards' machines, one line each
}

// hasMap reports whether rep holds a detectability map.
func hasMap(rep *results.Report) bool {
	return rep.FunctionMap != nil || len(rep.FunctionSensitivity) > 0
}

// shardName names a shard directory: "shard k/n (dir)", or dir.
func shardName(dir, shard string) string {
	if shard == "" {
		return dir
	}
	return fmt.Sprintf("shard %s (%s)", shard, dir)
}

// addMap merges rep's detectability map: shards of one campaign map the
// same baseline, so the merged report keeps the first shard's map (the
// first that has one), and notes whether the others' agree with it
// (each shard profiles the benchmarks itself unless all reused one map).
func (m *merger) addMap(dir string, rep *results.Report) {
	if !hasMap(rep) {
		return
	}
	h := &m.head
	if h.mapFrom.dir == "" {
		h.mapFrom.dir, h.mapFrom.shard = dir, rep.Settings.Shard
		m.merged.FunctionSensitivity, m.merged.FunctionMap, m.merged.ChangedFunctions = rep.FunctionSensitivity, rep.FunctionMap, rep.ChangedFunctions
		return
	}
	name := shardName(dir, rep.Settings.Shard)
	if reflect.DeepEqual(rep.FunctionSensitivity, m.merged.FunctionSensitivity) {
		h.mapAgree = append(h.mapAgree, name)
	} else {
		h.mapDiffer = append(h.mapDiffer, name)
	}
}

// addNoise notes rep's machine noise: the baseline samples behind each
// benchmark's spread are the shard's own and cannot be pooled from the
// reports, and shards may run on different machines, so the merged report
// keeps the first shard's noise and names the others' machines.
func (m *merger) addNoise(dir string, rep *results.Report) {
	if rep.Noise == nil {
		return
	}
	if m.merged.Noise == nil {
		m.merged.Noise = rep.Noise
		m.head.dir, m.head.shard = dir, rep.Settings.Shard
		return
	}
	m.head.noiseOthers = append(m.head.noiseOthers, shardName(dir, rep.Settings.Shard)+": "+rep.Noise.Machine.String())
}

// finishMapNoise copies the kept map's function-map.json (what -since
// reuses) into the merged directory and says in the merged report where
// its map and noise come from.
func (m *merger) finishMapNoise() error {
	h := m.head
	if h.mapFrom.dir != "" {
		err := copyFile(filepath.Join(h.mapFrom.dir, functionMapFile), filepath.Join(m.out, functionMapFile))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("copying the function sensitivity map: %w", err)
		}
		if m.merged.FunctionMap != nil {
			fm := *m.merged.FunctionMap
			fm.From = mapFromNote(h)
			m.merged.FunctionMap = &fm
		}
	}
	if len(h.noiseOthers) > 0 {
		m.merged.Warnings = append(m.merged.Warnings, fmt.Sprintf("noise: the benchmarks' spread and the machine's load are %s's; the other shards' machines: %s",
			shardName(h.dir, h.shard), strings.Join(h.noiseOthers, "; ")))
	}
	return nil
}

// mapFromNote says which shard's map a merged report keeps, and whether
// the other shards' agree.
func mapFromNote(h shardHead) string {
	note := shardName(h.mapFrom.dir, h.mapFrom.shard)
	if len(h.mapAgree) > 0 {
		note += fmt.Sprintf("; the same map in %s", strings.Join(h.mapAgree, ", "))
	}
	if len(h.mapDiffer) > 0 {
		note += fmt.Sprintf("; other factors in %s (each shard profiled the benchmarks itself)", strings.Join(h.mapDiffer, ", "))
	}
	return note
}
