package engine

import (
	"path/filepath"
	"slices"
	"strings"
)

// filePaths are the run's source files' paths: each file's absolute path
// (the one it is read by) and the path findings show, kept by folder. A
// string a file spent its whole absolute path, shared by no other file:
// about 110 bytes a file of eight copies of the 38-project corpus (19 MB
// of 178,320 files, and 32 more a file for two string headers), where the
// folders are a tenth as many as the files. Here a file costs twelve
// bytes, and each base name is kept once (copies of a project, and the
// projects' own copies of a library, repeat them: sixteen copies of the
// corpus spelled 7 MB of base names, 0.4 MB of them different); its paths
// are built when asked for (a few times a file in a run).
type filePaths struct {
	// folders are the absolute folders, each once, with their trailing
	// separator.
	folders []string
	// folderOf and nameOf are by file: its folder, and its base name's
	// number; name k lies in names before nameEnd[k] and from the end of
	// name k-1.
	folderOf []uint32
	nameOf   []uint32
	nameEnd  []uint32
	names    string
	// shownCut is by file: how much of the absolute path the shown path
	// leaves out (most often the base folder), or otherShown when the
	// shown path is not the absolute one's end (a path outside the base
	// folder is shown as given: "../x.cu"); those are in others.
	shownCut []uint32
	others   map[int]string
}

const otherShown = ^uint32(0)

// newFilePaths keeps the paths of the files absolute[i], shown as
// shown(i, absolute[i]).
func newFilePaths(absolute []string, shown func(i int, abs string) string) *filePaths {
	p := &filePaths{folderOf: make([]uint32, len(absolute)), nameOf: make([]uint32, len(absolute)), shownCut: make([]uint32, len(absolute))}
	folderID := map[string]uint32{}
	nameID := map[string]uint32{}
	var names strings.Builder
	for i, abs := range absolute {
		folder := splitFolder(abs)
		id, ok := folderID[folder]
		if !ok {
			id = uint32(len(p.folders))
			folderID[folder] = id
			// Its own string: a slice of the path would keep the path.
			p.folders = append(p.folders, strings.Clone(folder))
		}
		p.folderOf[i] = id
		name := abs[len(folder):]
		n, ok := nameID[name]
		if !ok {
			n = uint32(len(p.nameEnd))
			nameID[name] = n
			names.WriteString(name)
			p.nameEnd = append(p.nameEnd, uint32(names.Len()))
		}
		p.nameOf[i] = n
		s := shown(i, abs)
		if strings.HasSuffix(abs, s) {
			p.shownCut[i] = uint32(len(abs) - len(s))
		} else {
			p.shownCut[i] = otherShown
			if p.others == nil {
				p.others = map[int]string{}
			}
			p.others[i] = s
		}
	}
	p.names = strings.Clone(names.String()) // of its size: the builder left room
	p.folders = slices.Clone(p.folders)     // of its size: append left room
	p.nameEnd = slices.Clone(p.nameEnd)
	return p
}

// splitFolder returns the folder of an absolute path, with its trailing
// separator ("" for a path with none).
func splitFolder(abs string) string {
	return abs[:strings.LastIndexByte(abs, filepath.Separator)+1]
}

// len is the number of files.
func (p *filePaths) len() int { return len(p.folderOf) }

// name is file i's base name.
func (p *filePaths) name(i int) string {
	k := p.nameOf[i]
	start := uint32(0)
	if k > 0 {
		start = p.nameEnd[k-1]
	}
	return p.names[start:p.nameEnd[k]]
}

// dir is file i's folder, as filepath.Dir gives it.
func (p *filePaths) dir(i int) string { return filepath.Clean(p.folders[p.folderOf[i]]) }

// abs is file i's absolute path.
func (p *filePaths) abs(i int) string { return p.folders[p.folderOf[i]] + p.name(i) }

// shown is the path file i's findings show.
func (p *filePaths) shown(i int) string {
	cut := p.shownCut[i]
	if cut == otherShown {
		return p.others[i]
	}
	folder := p.folders[p.folderOf[i]]
	if int(cut) >= len(folder) {
		return p.name(i)[int(cut)-len(folder):]
	}
	return folder[cut:] + p.name(i)
}

// isAbs reports whether file i's absolute path is s (building neither).
func (p *filePaths) isAbs(i int, s string) bool {
	folder, name := p.folders[p.folderOf[i]], p.name(i)
	return len(s) == len(folder)+len(name) && s[:len(folder)] == folder && s[len(folder):] == name
}

// isShown reports whether file i's shown path is s (building neither).
func (p *filePaths) isShown(i int, s string) bool {
	cut := p.shownCut[i]
	if cut == otherShown {
		return p.others[i] == s
	}
	folder, name := p.folders[p.folderOf[i]], p.name(i)
	if int(cut) >= len(folder) {
		return s == name[int(cut)-len(folder):]
	}
	folder = folder[cut:]
	return len(s) == len(folder)+len(name) && s[:len(folder)] == folder && s[len(folder):] == name
}
