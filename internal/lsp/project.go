package lsp

import (
	"path/filepath"
	"strings"

	"github.com/lazylint/lazylint/internal/engine"
)

// Project-wide facts for the editor: a diagnostic in one file can rest on
// a launcher, a warm-up or a macro in another. The facts are built once in
// the background when the workspace root is known (a whole check of the
// workspace, through the cache), and again after each save; open
// documents are checked again when a build ends. Until the first build
// ends, documents are checked alone.

// buildProjectLocked starts a build of the workspace's facts, or marks the
// running one stale so that another follows it.
func (s *server) buildProjectLocked() {
	if s.opts == nil || s.opts.NoProject || s.closed {
		return
	}
	if s.projectBuilding {
		s.projectStale = true
		return
	}
	s.projectBuilding = true
	opts := *s.opts
	opts.Paths = []string{opts.BaseDir}
	opts.Progress = nil
	opts.NeedProject = true
	go func() {
		res := engine.Run(opts)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.projectBuilding = false
		if s.closed {
			return
		}
		s.project = res.Project
		s.logf("project facts: %d functions from %s (%d files linked, %d checked again)",
			res.Stats.ProjectFunctions, filepath.Clean(opts.BaseDir), res.Stats.LinkParsed, res.Stats.Rechecked)
		// Documents whose check the facts can change are checked again.
		for _, d := range s.docs {
			if !d.closed && !d.goFile && engine.ProjectAffects(res.Project, relPath(opts.BaseDir, d.path), []byte(d.text)) {
				s.scheduleLocked(d, 0)
			}
		}
		if s.projectStale {
			s.projectStale = false
			s.buildProjectLocked()
		}
	}()
}

// relPath is path relative to base when it lies below it, as the engine
// names files.
func relPath(base, path string) string {
	if rel, err := filepath.Rel(base, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return path
}
