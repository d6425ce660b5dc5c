package cudaparse

import (
	"iter"
	"math"
	"unsafe"

	"github.com/lazylint/lazylint/internal/spill"
)

// A summary the project keeps to the end of a run holds its functions
// packed once their steps are in a StepStore (MoveSteps): names as ids of
// the store's table, steps by reference, no pointer. A FunctionSummary is
// 120 bytes with three string headers and a slice header; a packed one is
// 36, and an array of them is not scanned by the collector. Sixteen copies
// of the 38-project corpus checked as one project held 53 MB of function
// records at their most live moment. Read a summary's functions through
// FunctionCount, FunctionAt and EachFunction: Functions is nil once they
// are packed.

// packedFunction is a FunctionSummary whose steps are in a store. Its
// numbers are as narrow as a function's are in practice (a summary with a
// function past them is not packed: fitsPacked), and its steps' reference
// is two halves, so that an array of them aligns to 4 bytes: 36 bytes,
// where 48 were 26 MB of sixteen copies of the 38-project corpus checked
// as one project at their most live moment.
type packedFunction struct {
	steps                      [2]uint32 // a spill.Ref: low half, high half
	name, qualifiedName, class uint32
	line                       int32
	length                     uint16 // EndLine - Line
	arity, params, timesParam  int16
	kinds                      StepKinds
	timesClock                 ClockKind
	flags                      packedFlags
}

// A packed function is at most 36 bytes: this fails to compile past that.
var _ [36 - unsafe.Sizeof(packedFunction{})]struct{}

// fitsPacked reports whether fn's numbers fit a packedFunction's.
func fitsPacked(fn *FunctionSummary) bool {
	fits16 := func(v int32) bool { return v >= math.MinInt16 && v <= math.MaxInt16 }
	return fn.EndLine >= fn.Line && int64(fn.EndLine)-int64(fn.Line) <= math.MaxUint16 &&
		fits16(fn.Arity) && fits16(fn.Params) && fits16(fn.TimesParam)
}

func (p *packedFunction) stepsRef() spill.Ref {
	return spill.Ref(uint64(p.steps[1])<<32 | uint64(p.steps[0]))
}

// packedFlags are a packed function's booleans.
type packedFlags uint8

const (
	packedVariant packedFlags = 1 << iota
	packedEntry
	packedTimed
	packedMember
	packedLocal
	packedReadsClock
	packedTimesKernel
)

func flagIf(b bool, f packedFlags) packedFlags {
	if b {
		return f
	}
	return 0
}

// packFunctions packs the summary's functions when every one's steps
// are in store (or it has none): a step list too large for the store's
// chunks stays in the heap, and so does its summary's functions.
func (s *FileSummary) packFunctions(store *StepStore) {
	if s.packed != nil || len(s.Functions) == 0 {
		return
	}
	for k := range s.Functions {
		if fn := &s.Functions[k]; fn.stored.store == nil && len(fn.Steps) > 0 || fn.stored.store != nil && fn.stored.store != store || !fitsPacked(fn) {
			return
		}
	}
	packed := make([]packedFunction, len(s.Functions))
	var ids [3]uint32
	for k := range s.Functions {
		fn := &s.Functions[k]
		store.names.IDs(ids[:0], []string{fn.Name, fn.QualifiedName, fn.Class})
		packed[k] = packedFunction{
			steps: [2]uint32{uint32(fn.stored.ref), uint32(fn.stored.ref >> 32)},
			name:  ids[0], qualifiedName: ids[1], class: ids[2],
			line: fn.Line, length: uint16(fn.EndLine - fn.Line),
			arity: int16(fn.Arity), params: int16(fn.Params), timesParam: int16(fn.TimesParam),
			kinds:      fn.storedKinds,
			timesClock: fn.TimesClock,
			flags: flagIf(fn.Variant, packedVariant) | flagIf(fn.Entry, packedEntry) | flagIf(fn.Timed, packedTimed) |
				flagIf(fn.Member, packedMember) | flagIf(fn.Local, packedLocal) | flagIf(fn.ReadsClock, packedReadsClock) |
				flagIf(fn.TimesKernel, packedTimesKernel),
		}
	}
	s.packed, s.packedIn, s.Functions = packed, store, nil
}

// FunctionCount is the number of the summary's functions.
func (s *FileSummary) FunctionCount() int {
	if s.packed != nil {
		return len(s.packed)
	}
	return len(s.Functions)
}

// FunctionAt returns the summary's function k, a copy where the functions
// are packed (its steps read from the store as a moved function's are).
func (s *FileSummary) FunctionAt(k int) FunctionSummary {
	if s.packed == nil {
		return s.Functions[k]
	}
	p := &s.packed[k]
	fn := FunctionSummary{
		Name:          s.packedIn.names.Name(p.name),
		QualifiedName: s.packedIn.names.Name(p.qualifiedName),
		Class:         s.packedIn.names.Name(p.class),
		Arity:         int32(p.arity), Params: int32(p.params), Line: p.line, EndLine: p.line + int32(p.length),
		TimesParam:  int32(p.timesParam),
		TimesClock:  p.timesClock,
		Variant:     p.flags&packedVariant != 0,
		Entry:       p.flags&packedEntry != 0,
		Timed:       p.flags&packedTimed != 0,
		Member:      p.flags&packedMember != 0,
		Local:       p.flags&packedLocal != 0,
		ReadsClock:  p.flags&packedReadsClock != 0,
		TimesKernel: p.flags&packedTimesKernel != 0,
	}
	if ref := p.stepsRef(); ref != 0 || p.kinds != 0 {
		fn.stored, fn.storedKinds = storedSteps{s.packedIn, ref}, p.kinds
	}
	return fn
}

// FunctionName returns the name of the summary's function k, without
// unpacking the rest of it.
func (s *FileSummary) FunctionName(k int) string {
	if s.packed == nil {
		return s.Functions[k].Name
	}
	return s.packedIn.names.Name(s.packed[k].name)
}

// FunctionLocal reports whether the summary's function k is visible only
// in its file (FunctionSummary.Local), without unpacking the rest of it:
// the link asks it of every candidate of a call.
func (s *FileSummary) FunctionLocal(k int) bool {
	if s.packed == nil {
		return s.Functions[k].Local
	}
	return s.packed[k].flags&packedLocal != 0
}

// FunctionKinds returns the kinds of the steps of the summary's function
// k (FunctionSummary.Kinds), without unpacking the rest of it.
func (s *FileSummary) FunctionKinds(k int) StepKinds {
	if s.packed == nil {
		return s.Functions[k].Kinds()
	}
	return s.packed[k].kinds
}

// EachFunction yields the summary's functions in order, with their
// indices. Where they are packed the function is a copy, valid until the
// loop's next iteration.
func (s *FileSummary) EachFunction() iter.Seq2[int, *FunctionSummary] {
	return func(yield func(int, *FunctionSummary) bool) {
		if s == nil {
			return
		}
		if s.packed == nil {
			for k := range s.Functions {
				if !yield(k, &s.Functions[k]) {
					return
				}
			}
			return
		}
		var fn FunctionSummary
		for k := range s.packed {
			fn = s.FunctionAt(k)
			if !yield(k, &fn) {
				return
			}
		}
	}
}
