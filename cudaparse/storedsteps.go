package cudaparse

import (
	"encoding/binary"
	"iter"

	"github.com/lazylint/lazylint/internal/intern"
	"github.com/lazylint/lazylint/internal/spill"
	"github.com/lazylint/lazylint/internal/varint"
)

// A large project's summaries hold millions of steps, each a Go value of
// about 110 bytes with its slices and strings: as values they were a quarter
// of a check's live heap on the 38-project corpus checked as one project,
// growing with the tree. Once a file's summary is made, MoveSteps encodes
// its functions' steps into a StepStore, which keeps them out of the
// heap's pointers and, past its memory budget, on disk; StepList decodes
// them each time they are read. The link reads a function's steps a few
// times (linking, its kernels, its callers' entry facts), so decoding
// costs less than the collections their values cost.

// StepStore holds encoded steps: their bytes in a spill.Store, their
// names (callees, qualifiers, kernels) once each in a table, so that a
// step is a few bytes and decoding allocates no string. A tree's names
// repeat (8 copies of a corpus have the names of one). Safe for
// concurrent use.
type StepStore struct {
	bytes *spill.Store
	names *intern.Table
}

// NewStepStore returns a store keeping its bytes in b (nil: no store,
// steps stay in the heap).
func NewStepStore(b *spill.Store) *StepStore {
	if b == nil {
		return nil
	}
	return &StepStore{bytes: b, names: intern.New("")}
}

// storedSteps names a function's steps in a store (none: store nil).
type storedSteps struct {
	store *StepStore
	ref   spill.Ref
}

// StepList returns the function's steps, from the store they were moved
// to. The slice is the caller's: a stored function returns a new one each
// call. A store that cannot read its file back (the disk failed under
// the run) gives no steps: the function then does nothing the link sees.
// A caller that only goes through the steps once uses AllSteps.
func (fs *FunctionSummary) StepList() []SummaryStep {
	st := fs.stored.store
	if st == nil {
		return fs.Steps
	}
	steps, ok := decodeSteps(st.bytes.Get(fs.stored.ref), st.names.Names())
	if !ok {
		return nil
	}
	return steps
}

// AllSteps yields the function's steps in order, with their indices,
// decoding each into one value (no slice of them is made): the step is
// valid until the loop's next iteration, its Keys and Far slices for
// good.
func (fs *FunctionSummary) AllSteps() iter.Seq2[int, *SummaryStep] {
	return func(yield func(int, *SummaryStep) bool) {
		st := fs.stored.store
		if st == nil {
			for i := range fs.Steps {
				if !yield(i, &fs.Steps[i]) {
					return
				}
			}
			return
		}
		eachStep(st.bytes.Get(fs.stored.ref), st.names.Names(), func(_, i int, s *SummaryStep) bool { return yield(i, s) })
	}
}

// Kinds returns the kinds of the function's steps, without decoding them
// (a function with no preload loop, or no call, is passed over so).
func (fs *FunctionSummary) Kinds() StepKinds {
	if fs.stored.store != nil {
		return fs.storedKinds
	}
	return kindsOf(fs.Steps)
}

// StepKinds is a set of step kinds.
type StepKinds uint16

// A StepKinds holds kinds 0 to 15: this fails to compile once the last
// kind is past that (a kind added after StepPreloadParam goes here too).
var _ [15 - StepPreloadParam]struct{}

// Has reports whether the set holds k.
func (s StepKinds) Has(k StepKind) bool { return s&(1<<k) != 0 }

// Without returns the set less the kinds.
func (s StepKinds) Without(kinds ...StepKind) StepKinds {
	for _, k := range kinds {
		s &^= 1 << k
	}
	return s
}

func kindsOf(steps []SummaryStep) StepKinds {
	var s StepKinds
	for i := range steps {
		s |= 1 << steps[i].Kind
	}
	return s
}

// MoveSteps moves the steps of the summary's functions into store (nil:
// they stay), then packs the functions (packedfunctions.go): read them
// through FunctionCount, FunctionAt and EachFunction. The summary must
// not be read concurrently while they move.
func (s *FileSummary) MoveSteps(store *StepStore) {
	if s == nil || store == nil {
		return
	}
	var buf []byte
	var names []string
	var ids []uint32
	for k := range s.Functions {
		fn := &s.Functions[k]
		// A function's names are most often the names other functions
		// call (and a tree's copies of a file define the same): each its
		// own string was 8 MB of sixteen copies of the 38-project corpus.
		store.names.Share(&fn.Name, &fn.QualifiedName, &fn.Class)
		if len(fn.Steps) == 0 || fn.stored.store != nil {
			continue
		}
		names = stepNames(names[:0], fn.Steps)
		ids = store.names.IDs(ids[:0], names)
		buf = appendSteps(buf[:0], fn.Steps, ids)
		if ref, ok := store.bytes.Put(buf); ok {
			fn.stored, fn.storedKinds, fn.Steps = storedSteps{store, ref}, kindsOf(fn.Steps), nil
		}
	}
	s.packFunctions(store)
}

// stepNames appends the names of steps, in the order appendSteps writes
// them.
func stepNames(dst []string, steps []SummaryStep) []string {
	for i := range steps {
		dst = append(dst, steps[i].Callee, steps[i].Qualifier)
		dst = append(dst, steps[i].Keys...)
	}
	return dst
}

// appendSteps appends the encoding of steps to dst: the number of steps,
// then each step's fields as varints, its names as the ids (in the order
// of stepNames), and a slice's length plus one (0 for nil, so that
// decoding gives back nil and empty slices as they were).
func appendSteps(dst []byte, steps []SummaryStep, ids []uint32) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(steps)))
	next := 0
	id := func() uint64 {
		next++
		return uint64(ids[next-1])
	}
	for i := range steps {
		st := &steps[i]
		method := uint64(0)
		if st.Method {
			method = 1
		}
		dst = binary.AppendUvarint(dst, uint64(st.Kind)<<1|method)
		dst = binary.AppendUvarint(dst, uint64(st.Before))
		dst = binary.AppendUvarint(dst, uint64(st.ArgParams))
		dst = binary.AppendVarint(dst, int64(st.Line))
		dst = binary.AppendVarint(dst, int64(st.Param))
		dst = binary.AppendVarint(dst, int64(st.Arity))
		dst = binary.AppendUvarint(dst, id())
		dst = binary.AppendUvarint(dst, id())
		dst = appendLength(dst, st.Keys == nil, len(st.Keys))
		for range st.Keys {
			dst = binary.AppendUvarint(dst, id())
		}
		dst = appendLength(dst, st.Far == nil, len(st.Far))
		for _, j := range st.Far {
			dst = binary.AppendVarint(dst, int64(j))
		}
	}
	return dst
}

func appendLength(dst []byte, isNil bool, n int) []byte {
	if isNil {
		return binary.AppendUvarint(dst, 0)
	}
	return binary.AppendUvarint(dst, uint64(n)+1)
}

// stepReader decodes what appendSteps wrote; Bad is set at the first
// value that does not decode (a record cut short).
type stepReader struct {
	varint.Reader
	names []string
}

func (r *stepReader) name() string {
	id := r.Uvarint()
	if id >= uint64(len(r.names)) {
		r.Bad, r.Data = true, nil
		return ""
	}
	return r.names[id]
}

// length returns a slice's length and whether it was nil.
func (r *stepReader) length() (int, bool) {
	n := r.Uvarint()
	if n == 0 || n > uint64(len(r.Data))+1 {
		// Each element takes a byte at least: a longer length is a
		// record cut short.
		r.Bad = r.Bad || n != 0
		return 0, true
	}
	return int(n - 1), false
}

func decodeSteps(data []byte, names []string) ([]SummaryStep, bool) {
	var steps []SummaryStep
	ok := eachStep(data, names, func(n, _ int, st *SummaryStep) bool {
		if steps == nil {
			steps = make([]SummaryStep, 0, n)
		}
		steps = append(steps, *st)
		return true
	})
	if !ok {
		return nil, false
	}
	if steps == nil {
		steps = []SummaryStep{}
	}
	return steps, true
}

// eachStep decodes the steps of data one at a time into one value, and
// calls yield with the number of steps, the step's index and the value,
// until yield returns false. It reports false for data that does not
// decode whole (the steps before the fault were yielded).
func eachStep(data []byte, names []string, yield func(n, i int, st *SummaryStep) bool) bool {
	r := stepReader{Reader: varint.Reader{Data: data}, names: names}
	n := r.Uvarint()
	if r.Bad || n > uint64(len(data)) {
		return false
	}
	var st SummaryStep
	for i := range int(n) {
		kind := r.Uvarint()
		st = SummaryStep{Kind: StepKind(kind >> 1), Method: kind&1 != 0}
		st.Before = uint16(r.Uvarint())
		st.ArgParams = uint32(r.Uvarint())
		st.Line = int(r.Varint())
		st.Param = int(r.Varint())
		st.Arity = int(r.Varint())
		st.Callee = r.name()
		st.Qualifier = r.name()
		if keys, isNil := r.length(); !isNil {
			st.Keys = make([]string, keys)
			for k := range st.Keys {
				st.Keys[k] = r.name()
			}
		}
		if far, isNil := r.length(); !isNil {
			st.Far = make([]int32, far)
			for k := range st.Far {
				st.Far[k] = int32(r.Varint())
			}
		}
		if r.Bad {
			return false
		}
		if !yield(int(n), i, &st) {
			return true
		}
	}
	return len(r.Data) == 0
}
