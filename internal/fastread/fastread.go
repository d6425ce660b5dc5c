// Package fastread reads whole files with as few system calls as the
// platform allows. A warm run reads every file of the tree and little else,
// so the system calls around each read are a good part of its time.
package fastread

import "time"

// ReadFile returns the contents of the file at path and its modification
// time. Errors are *fs.PathError, as os.ReadFile's.
func ReadFile(path string) ([]byte, time.Time, error) {
	data, st, err := readFile(path)
	if err != nil {
		return data, time.Time{}, err
	}
	return data, time.Unix(0, st.Mtime), nil
}

// Stamp is what the system says of a file without reading it: a file
// whose stamp is the same as before has, short of a write within the
// file system's timestamp granularity, the same contents (git's index
// rests on the same). The zero Stamp is unknown: it matches nothing.
type Stamp struct {
	Size, Mtime, Ctime int64 // bytes; nanoseconds since 1970
	Ino, Dev           uint64
}

// Known reports whether the stamp says anything (the platform gives
// change times and inode numbers, and the file was a regular file).
func (s Stamp) Known() bool { return s.Ctime != 0 || s.Ino != 0 }

// ReadFileStamped is ReadFile with the stamp of the file as it was opened
// (before its bytes were read), unknown where the platform gives none.
func ReadFileStamped(path string) ([]byte, Stamp, error) { return readFile(path) }

// StampOf returns the stamp of the file at path (following symbolic
// links, as reading it does), unknown when it cannot be had.
func StampOf(path string) Stamp { return stampOf(path) }
