package diffrun

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Kinds of figure a program prints.
const (
	KindTime   = "time"   // value in seconds
	KindMemory = "memory" // value in bytes
)

// Figure is a quantity with a unit that a program printed, e.g. the
// "0.318 ms" of "first launch: 0.318 ms".
type Figure struct {
	// Key identifies the figure across runs: the line with every number
	// replaced by '#', its occurrence among lines of that shape, and the
	// figure's place in the line.
	Key   string  `json:"key"`
	Kind  string  `json:"kind"`
	Value float64 `json:"value"` // seconds or bytes
	Text  string  `json:"text"`  // as printed
	Line  string  `json:"line"`
}

var (
	numberRE = regexp.MustCompile(`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`)
	// figureRE matches a number and its unit. Units are matched
	// case-insensitively, so "MB" and "Mb" read the same; the scale is
	// the same within a key, which is all the comparison needs.
	figureRE = regexp.MustCompile(`(?i)(?:^|[^\w.])([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*(nanoseconds?|nsecs?|ns|microseconds?|usecs?|us|µs|milliseconds?|msecs?|ms|seconds?|secs?|s|bytes?|kib|kb|mib|mb|gib|gb)\b`)
	// keyedFigureRE matches a number whose unit is in its key, the way
	// logs and JSON lines print them: "event_ms=0.28", "load_us: 12",
	// "\"ms\": 1.2", "firstLaunchMs=3". The key's unit is read by keyUnit.
	keyedFigureRE = regexp.MustCompile(`([A-Za-z_][\w.-]*)["']?\s*[:=]\s*["']?([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(?:[^\w.]|$)`)
	// camelUnitRE finds a unit at the end of a camelCase key (loadMs,
	// arenaMiB, waitSec).
	camelUnitRE = regexp.MustCompile(`[a-z0-9](Ns|Nsec|Us|Usec|Ms|Msec|Sec|Secs|Seconds|Bytes|KiB|KB|Kb|MiB|MB|Mb|GiB|GB|Gb)$`)
)

// keyUnit returns the unit at the end of a key ("event_ms" -> "ms", "ms" ->
// "ms", "loadMs" -> "ms"), or "" when the key names none. Only the last
// word counts, so "ms_count" or "bytes_per_elem" are no figures.
func keyUnit(key string) string {
	word := key
	if i := strings.LastIndexAny(key, "_-."); i >= 0 {
		word = key[i+1:]
	} else if m := camelUnitRE.FindStringSubmatch(key); m != nil {
		word = m[1]
	}
	word = strings.ToLower(word)
	if _, ok := unitScale[word]; ok {
		return word
	}
	return ""
}

// Hang signs: lines with which programs say they gave up waiting (a
// watchdog, a timeout of their own). A waiter with a watchdog turns a
// lazy-loading deadlock into a slow success, so such a line printed only
// under LAZY is read as a hang.
var hangPatterns = []string{
	"watchdog", "timed out", "timeout", "time out", "deadlock", "gave up waiting", "giving up", "stuck",
}

var unitScale = map[string]struct {
	kind  string
	scale float64
}{
	"ns": {KindTime, 1e-9}, "nsec": {KindTime, 1e-9}, "nsecs": {KindTime, 1e-9}, "nanosecond": {KindTime, 1e-9}, "nanoseconds": {KindTime, 1e-9},
	"us": {KindTime, 1e-6}, "µs": {KindTime, 1e-6}, "usec": {KindTime, 1e-6}, "usecs": {KindTime, 1e-6}, "microsecond": {KindTime, 1e-6}, "microseconds": {KindTime, 1e-6},
	"ms": {KindTime, 1e-3}, "msec": {KindTime, 1e-3}, "msecs": {KindTime, 1e-3}, "millisecond": {KindTime, 1e-3}, "milliseconds": {KindTime, 1e-3},
	"s": {KindTime, 1}, "sec": {KindTime, 1}, "secs": {KindTime, 1}, "second": {KindTime, 1}, "seconds": {KindTime, 1},
	"byte": {KindMemory, 1}, "bytes": {KindMemory, 1},
	"kb": {KindMemory, 1 << 10}, "kib": {KindMemory, 1 << 10},
	"mb": {KindMemory, 1 << 20}, "mib": {KindMemory, 1 << 20},
	"gb": {KindMemory, 1 << 30}, "gib": {KindMemory, 1 << 30},
}

// Error patterns, matched case-insensitively against each output line: the
// ways CUDA, its libraries and frameworks report that memory ran out or that
// a kernel image could not be loaded.
var (
	outOfMemoryPatterns = []string{
		"out of memory", "CUDA_ERROR_OUT_OF_MEMORY", "cudaErrorMemoryAllocation",
		"CUBLAS_STATUS_ALLOC_FAILED", "CUDNN_STATUS_ALLOC_FAILED", "CUFFT_ALLOC_FAILED",
		"CUSPARSE_STATUS_ALLOC_FAILED", "CURAND_STATUS_ALLOCATION_FAILED",
	}
	loadErrorPatterns = []string{
		"CUDA_ERROR_NO_BINARY_FOR_GPU", "cudaErrorNoKernelImageForDevice", "no kernel image is available",
		"CUDA_ERROR_INVALID_IMAGE", "cudaErrorInvalidKernelImage", "device kernel image is invalid",
		"CUDA_ERROR_INVALID_PTX", "cudaErrorInvalidPtx", "PTX JIT compil",
		"CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "cudaErrorUnsupportedPtxVersion",
		"CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", "cudaErrorSharedObjectInitFailed",
		"CUDA_ERROR_NOT_FOUND", "cudaErrorSymbolNotFound", "named symbol not found",
		"CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "cudaErrorJitCompilerNotFound",
	}
)

// noCUDAPatterns are the ways a program, CUDA's runtime and frameworks
// report that CUDA could not start at all: no driver, no device, a driver
// too old. A run that printed one and failed exercised no kernel.
var noCUDAPatterns = []string{
	"CUDA_ERROR_NO_DEVICE", "cudaErrorNoDevice", "no CUDA-capable device",
	"CUDA_ERROR_INSUFFICIENT_DRIVER", "cudaErrorInsufficientDriver", "CUDA driver version is insufficient",
	"CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "cudaErrorSystemDriverMismatch", "unsupported display driver / cuda driver combination",
	"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "cudaErrorCompatNotSupportedOnDevice",
	"cudaErrorDevicesUnavailable", "all CUDA-capable devices are busy or unavailable",
	"libcuda.so.1: cannot open shared object file", "libcuda.so: cannot open shared object file",
	"Found no NVIDIA driver", "NVIDIA driver on your system is too old", "CUDA driver initialization failed",
}

func containsFold(line string, patterns []string) bool {
	lower := strings.ToLower(line)
	for _, p := range patterns {
		if strings.Contains(lower, strings.ToLower(p)) {
			return true
		}
	}
	return false
}

// Limits on what one run's output contributes to its report.
const (
	maxLineBytes  = 4 << 10
	maxErrorLines = 20
	maxFigures    = 1000
	tailBytes     = 4 << 10
)

// outputScanner reads a program's output line by line as it comes and
// keeps what the report needs: error lines, figures and the tail.
type outputScanner struct {
	run     *Run
	shapes  map[string]int // line shape -> occurrences so far
	partial []byte         // an unfinished line
	tail    []byte
}

func newOutputScanner(run *Run) *outputScanner {
	return &outputScanner{run: run, shapes: map[string]int{}}
}

// Write takes output bytes; it never fails.
func (s *outputScanner) Write(p []byte) (int, error) {
	n := len(p)
	s.tail = append(s.tail, p...)
	if len(s.tail) > 2*tailBytes {
		s.tail = append(s.tail[:0], s.tail[len(s.tail)-tailBytes:]...)
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.appendPartial(p)
			break
		}
		s.appendPartial(p[:i])
		s.line(string(s.partial))
		s.partial = s.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}

// appendPartial keeps at most maxLineBytes of a line: a figure or an error
// message sits at its start, and a megabyte line must not cost a megabyte.
func (s *outputScanner) appendPartial(p []byte) {
	if room := maxLineBytes - len(s.partial); room > 0 {
		s.partial = append(s.partial, p[:min(room, len(p))]...)
	}
}

// finish handles a last line without a newline and fills in the tail.
func (s *outputScanner) finish() {
	if len(s.partial) > 0 {
		s.line(string(s.partial))
		s.partial = nil
	}
	tail := s.tail
	if len(tail) > tailBytes {
		tail = tail[len(tail)-tailBytes:]
	}
	s.run.OutputTail = strings.ToValidUTF8(string(tail), "\uFFFD")
}

func (s *outputScanner) line(line string) {
	line = strings.ToValidUTF8(strings.TrimRight(line, "\r"), "\uFFFD")
	if containsFold(line, hangPatterns) && len(s.run.HangLines) < maxErrorLines {
		s.run.HangLines = append(s.run.HangLines, strings.TrimSpace(line))
	}
	oom := containsFold(line, outOfMemoryPatterns)
	load := containsFold(line, loadErrorPatterns)
	noCUDA := containsFold(line, noCUDAPatterns)
	if oom || load || noCUDA {
		s.run.OutOfMemory = s.run.OutOfMemory || oom
		s.run.LoadError = s.run.LoadError || load
		s.run.NoCUDA = s.run.NoCUDA || noCUDA
		if len(s.run.ErrorLines) < maxErrorLines {
			s.run.ErrorLines = append(s.run.ErrorLines, strings.TrimSpace(line))
		}
	}
	matches := figureRE.FindAllStringSubmatchIndex(line, -1)
	keyed := keyedFigureRE.FindAllStringSubmatchIndex(line, -1)
	if len(matches)+len(keyed) == 0 || len(s.run.Figures) >= maxFigures {
		return
	}
	shape := numberRE.ReplaceAllString(strings.TrimSpace(line), "#")
	occurrence := s.shapes[shape]
	s.shapes[shape]++
	taken := map[int]bool{} // start of each number read already
	for i, m := range matches {
		number, unit := line[m[2]:m[3]], strings.ToLower(line[m[4]:m[5]])
		scale, ok := unitScale[unit]
		if !ok || (scale.kind == KindMemory && strings.HasPrefix(line[m[5]:], "/")) {
			continue // not a unit, or a rate such as GB/s
		}
		v, err := strconv.ParseFloat(number, 64)
		if err != nil {
			continue
		}
		taken[m[2]] = true
		s.run.Figures = append(s.run.Figures, Figure{
			Key:   fmt.Sprintf("%s|%d|%d", shape, occurrence, i),
			Kind:  scale.kind,
			Value: v * scale.scale,
			Text:  strings.TrimSpace(line[m[2]:m[5]]),
			Line:  strings.TrimSpace(line),
		})
	}
	for i, m := range keyed {
		key, number := line[m[2]:m[3]], line[m[4]:m[5]]
		unit := keyUnit(key)
		if unit == "" || taken[m[4]] {
			continue
		}
		v, err := strconv.ParseFloat(number, 64)
		if err != nil {
			continue
		}
		scale := unitScale[unit]
		s.run.Figures = append(s.run.Figures, Figure{
			Key:   fmt.Sprintf("%s|%d|k%d", shape, occurrence, i),
			Kind:  scale.kind,
			Value: v * scale.scale,
			Text:  key + "=" + number,
			Line:  strings.TrimSpace(line),
		})
	}
}
