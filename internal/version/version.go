// Package version is the one source of lazylint's version: the CLI's
// `lazylint version` and `--version`, the language server's serverInfo, the
// SARIF tool driver, and the README's pre-commit and golangci snippets (a
// test keeps those equal to Version).
package version

import (
	"runtime/debug"
	"strings"
)

// Version is the release this tree is, or will be, tagged as (without the
// leading "v"). A release build may override it:
//
//	go build -ldflags "-X github.com/lazylint/lazylint/internal/version.Version=0.1.0"
var Version = "0.1.0"

// Tag is the git tag of Version ("v0.1.0").
func Tag() string { return "v" + strings.TrimPrefix(Version, "v") }

// Revision returns the VCS revision the binary was built from (shortened to
// 12 characters, with "+dirty" for a modified tree), or "" when the build did
// not record one (go build -buildvcs=false, go test, a module download).
func Revision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return revisionOf(info)
}

func revisionOf(info *debug.BuildInfo) string {
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return ""
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}

// String is Version with the revision when the build recorded one:
// "0.1.0" or "0.1.0 (rev 0123456789ab)".
func String() string {
	if rev := Revision(); rev != "" {
		return Version + " (rev " + rev + ")"
	}
	return Version
}
