package cudaparse

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/lazylint/lazylint/knowledge"
)

// Device code across files: which device functions call which, and which
// memory they release, so that a rule can tell a wait released by its own
// kernel's code in another header from one that needs another kernel.

// DeviceSummary is what a __device__ or __global__ function of a file does
// that matters to other files: the device functions it calls (by name)
// and the memory it writes (Releases: origin keys, see OriginKey).
type DeviceSummary struct {
	Name     string   `json:"n"`
	Kernel   bool     `json:"k,omitempty"`
	Calls    []string `json:"c,omitempty"`
	Releases []string `json:"r,omitempty"`
}

// castNames are calls that only convert a pointer.
var castNames = map[string]bool{"reinterpret_cast": true, "static_cast": true, "const_cast": true, "__builtin_assume_aligned": true}

// OriginKey names the memory a pointer or lvalue expression designates in
// words another file can match: "call f" for memory a function f returns
// (&buf(spec, parity)[i], a pointer initialized from it), "field f" for a
// member f (spec->ready, &s.flags[i]). Local names, parameters and globals
// give "" (they do not name the same memory in another file). Pointer
// arithmetic, subscripts, casts and locals' single initializations are
// followed.
func OriginKey(n Node) string {
	for range 6 {
		n = n.Unparen()
		switch n.Kind() {
		case "pointer_expression", "subscript_expression":
			n = n.ChildByField("argument")
			continue
		case "binary_expression":
			n = n.ChildByField("left")
			continue
		case "cast_expression":
			n = n.ChildByField("value")
			continue
		case "call_expression":
			name := n.ChildByField("function").Name()
			args := n.ChildByField("arguments").NamedChildren()
			if castNames[name] && len(args) > 0 {
				n = args[0]
				continue
			}
			if name == "" {
				return ""
			}
			return "call " + name
		case "field_expression":
			return "field " + n.ChildByField("field").Text()
		case "identifier":
			defs := n.File().ReachingDefs(n)
			if len(defs) != 1 || !defs[0].Value.Valid() || defs[0].Op != DefInit && defs[0].Op != DefAssign {
				return ""
			}
			n = defs[0].Value
			continue
		}
		return ""
	}
	return ""
}

// deviceSummaries returns the file's device functions' summaries.
func (f *File) deviceSummaries() []DeviceSummary {
	var out []DeviceSummary
	for _, fn := range f.Functions {
		if fn.Space&(SpaceDevice|SpaceGlobal) == 0 || fn.Name == "" {
			continue
		}
		ds := DeviceSummary{Name: fn.Name, Kernel: fn.IsKernel()}
		seenCall, seenKey := map[string]bool{}, map[string]bool{}
		release := func(n Node) {
			if k := OriginKey(n); k != "" && !seenKey[k] {
				seenKey[k] = true
				ds.Releases = append(ds.Releases, k)
			}
		}
		for _, c := range f.CallsIn(fn) {
			switch {
			case knowledge.AtomicWrites[c.Name] && len(c.Args) > 0:
				if knowledge.NoOpAtomics[c.Name] && len(c.Args) == 2 {
					if v, ok := f.ConstValue(c.Args[1]); ok && v == 0 {
						continue // a read
					}
				}
				release(c.Args[0])
			case c.Callee.Is("field_expression") && knowledge.AtomicStoreMethods[c.Name]:
				release(c.Callee.ChildByField("argument"))
			case c.Name != "" && c.Name != fn.Name && !isCUDAName(c.Name) && !castNames[c.Name]:
				if !seenCall[c.Name] {
					seenCall[c.Name] = true
					ds.Calls = append(ds.Calls, c.Name)
				}
			}
		}
		fn.Body.Descendants(func(x Node) bool {
			switch x.Kind() {
			case "assignment_expression":
				release(x.ChildByField("left"))
			case "gnu_asm_expression":
				t := strings.ToLower(x.ChildByField("assembly_code").Text())
				if strings.Contains(t, "st.") || strings.Contains(t, "red.") || strings.Contains(t, "atom.") {
					for _, addr := range AsmAddressOperands(x) {
						release(addr)
					}
				}
			}
			return true
		})
		out = append(out, ds)
	}
	return out
}

// asmAddress matches an operand used as an address in PTX: [%1], [%1+4].
var asmAddress = regexp.MustCompile(`\[\s*%(\d+)`)

// AsmAddressOperands returns the operand expressions an asm statement uses
// as addresses (operands are numbered outputs first, then inputs).
func AsmAddressOperands(x Node) []Node {
	var operands []Node
	for _, field := range []string{"output_operands", "input_operands"} {
		for _, op := range x.ChildByField(field).NamedChildren() {
			operands = append(operands, op.ChildByField("value"))
		}
	}
	var out []Node
	for _, m := range asmAddress.FindAllStringSubmatch(x.ChildByField("assembly_code").Text(), -1) {
		if k, err := strconv.Atoi(m[1]); err == nil && k < len(operands) {
			out = append(out, operands[k])
		}
	}
	return out
}

// DeviceSummaries returns what the file's device functions call and
// release, for the files that share a translation unit with it.
func (f *File) DeviceSummaries() []DeviceSummary {
	if f.device == nil {
		f.device = f.deviceSummaries()
		if f.device == nil {
			f.device = []DeviceSummary{}
		}
	}
	return f.device
}

// UnitDevice returns the device summaries of the other files of the
// file's translation units (the sources that include it, and what they
// include: ProjectFacts.UnitDevice), whose code may release its waits.
// key, when not "", is the origin (OriginKey) the caller would like
// released there: asked of a file checked alone, it tells the engine
// which files of the units to parse (UnitWants).
func (f *File) UnitDevice(key string) []DeviceSummary {
	if key != "" && f.unitDevice == nil && !slices.Contains(f.unitWants, key) {
		f.unitWants = append(f.unitWants, key)
	}
	return f.unitDevice
}

// UnitWants returns the origins rules asked UnitDevice about, in order.
func (f *File) UnitWants() []string { return f.unitWants }
