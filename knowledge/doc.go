// Package knowledge is what lazylint knows about the CUDA runtime and driver
// APIs, and about the libraries and habits of code around them, as plain
// data: which calls launch or load a kernel, allocate or query device
// memory, load a module, read a clock, write memory atomically, set the
// loading mode.
//
// It is the one place for such lists. The rules, the cgo analyzers, the
// prefilters and the project step all read it, so that they cannot drift
// apart (the analyzers once knew 5 allocators where LL001 knew 13). It
// imports nothing but the standard library and no cgo, so that every layer
// may depend on it (staticcheck's knowledge package is the model).
//
// Where a list records a measured behaviour, the comment says where it was
// measured; shared/hazards.md in the workplace holds the measurements.
package knowledge
