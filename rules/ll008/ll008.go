// Package ll008 reports __managed__ variables defined beside kernels: the
// vendor documents that a module holding a managed variable is loaded
// eagerly, kernels and all, whatever CUDA_MODULE_LOADING says.
package ll008

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

//go:embed doc.md
var doc string

// Rule is LL008.
var Rule = &rule.Rule{
	ID:       "LL008",
	Name:     "managed-forces-eager",
	Severity: rule.Info,
	Since:    "0.1.0",
	Summary:  "a __managed__ variable makes its translation unit load eagerly with all its kernels (documented; not observed on driver 580)",
	Doc:      doc,
	// A managed variable spelled through a macro is recognised when the
	// macro's #define is in the file, so the file holds __managed__ too.
	Triggers: []string{"__managed__"},
	Run:      run,
}

func run(p *rule.Pass) {
	kernels := definedKernels(p.File)
	if len(kernels) == 0 {
		// Nothing to drag along: a module without kernels that loads
		// eagerly costs only its data, which the program asked for anyway.
		return
	}
	noun := "kernels"
	if len(kernels) == 1 {
		noun = "kernel"
	}
	first := kernels[0].Declarator.ChildByField("declarator")
	for _, v := range p.File.Variables {
		if v.Kind != cudaparse.QualManaged || !definedHere(v) {
			continue
		}
		name := declaredName(v.Node)
		if !name.Valid() {
			continue
		}
		p.Report(name, fmt.Sprintf("__managed__ variable %#q makes this translation unit load eagerly with its %d %s (documented behaviour; not observed on driver 580): move managed variables into a translation unit without kernels, or allocate with cudaMallocManaged",
			name.Text(), len(kernels), noun),
			rule.Related(first, "kernel loaded eagerly with it"))
	}
}

// definedKernels returns the __global__ functions the file defines, a
// function template once: its explicit specializations are not counted
// again, and explicit instantiations and prototypes define nothing here (a
// prototype names another module's kernel).
func definedKernels(f *cudaparse.File) []*cudaparse.Function {
	templates := map[string]bool{}
	for _, fn := range f.Functions {
		if fn.IsKernel() && fn.Template && !isSpecialization(fn) {
			templates[fn.Name] = true
		}
	}
	var out []*cudaparse.Function
	for _, fn := range f.Functions {
		if fn.IsKernel() && !(isSpecialization(fn) && templates[fn.Name]) {
			out = append(out, fn)
		}
	}
	return out
}

// isSpecialization reports whether fn is an explicit specialization,
// `template <> __global__ void k<float>(...)`: its declarator names the
// template with arguments.
func isSpecialization(fn *cudaparse.Function) bool {
	return fn.Template && strings.Contains(fn.QualifiedName, "<")
}

// definedHere reports whether the variable's declarator defines it in this
// translation unit. cudaparse does not mark storage classes, so extern is
// read from the tree here.
//
// An extern declaration without initializer (`extern __managed__ int x;`,
// or `extern "C" __managed__ int x;`, which is the same) only refers to a
// variable defined in another module (relocatable device code): that
// module loads eagerly, not this one. With an initializer it is a
// definition. Class members cannot carry memory-space qualifiers; only a
// declaration at namespace (or block) scope defines one.
func definedHere(v *cudaparse.Variable) bool {
	d := v.Node.Parent()
	if !d.Is("declaration") {
		return false
	}
	if v.Node.Is("init_declarator") {
		return true
	}
	if d.Parent().Is("linkage_specification") {
		return false // extern "C" without braces
	}
	for _, c := range d.Children() {
		if c.Is("storage_class_specifier") && c.Text() == "extern" {
			return false
		}
	}
	return true
}

// declaredName returns the name node a variable declarator declares: x for
// `x[4]`, `*x`, `x = 1`; `S::x` for a qualified definition.
func declaredName(d cudaparse.Node) cudaparse.Node {
	for d.Valid() {
		switch d.Kind() {
		case "identifier", "qualified_identifier":
			return d
		case "init_declarator", "array_declarator", "pointer_declarator", "reference_declarator",
			"attributed_declarator", "parenthesized_declarator":
			d = d.ChildByField("declarator")
		default:
			return cudaparse.Node{}
		}
	}
	return cudaparse.Node{}
}
