// Events recorded through a wrapper of the driver's entry point (a program
// that loads the driver itself calls cuEventRecord through its own
// cuEventRecord_f), or inside macros, into ranges that a report function
// reads later: a per-launch profiler of the runtime's own kernels.
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

CUresult cuEventRecord_f(CUevent event, CUstream stream);
CUresult cuStreamWaitEvent_f(CUstream stream, CUevent event, unsigned flags);

struct Range {
    CUevent start, end;
    const char *name;
};
static std::vector<Range> g_ranges;

#define RANGE_BEGIN(s, label)                     \
    Range range_;                                 \
    range_.name = label;                          \
    cuEventCreate(&range_.start, 0);              \
    cuEventCreate(&range_.end, 0);                \
    cuEventRecord(range_.start, (CUstream)(s));
#define RANGE_END(s)                              \
    cuEventRecord(range_.end, (CUstream)(s));     \
    g_ranges.push_back(range_);

#define MARK_READY(ev, s) cuEventRecord(ev, (CUstream)(s))

__global__ void scatter(float *out, const float *in, int n) {}
__global__ void gather(float *out, const float *in, int n) {}
__global__ void fill(float *out, int n) {}

void scatter_profiled(float *out, const float *in, int n, cudaStream_t s) {
    Range r;
    r.name = "scatter";
    cuEventCreate(&r.start, 0);
    cuEventCreate(&r.end, 0);
    cuEventRecord_f(r.start, (CUstream)s);
    scatter<<<(n + 255) / 256, 256, 0, s>>>(out, in, n);  // want LL002 "scatter"
    cuEventRecord_f(r.end, (CUstream)s);
    g_ranges.push_back(r);
}

void gather_profiled(float *out, const float *in, int n, cudaStream_t s) {
    RANGE_BEGIN(s, "gather");
    gather<<<(n + 255) / 256, 256, 0, s>>>(out, in, n);  // want LL002 "gather"
    RANGE_END(s);
}

void fill_then_signal(float *out, int n, cudaStream_t s, cudaStream_t other, CUevent ready) {
    CUevent before;
    cuEventCreate(&before, 0);
    cuEventRecord_f(before, (CUstream)s);
    fill<<<(n + 255) / 256, 256, 0, s>>>(out, n);  // ok: events that order streams, not a measurement
    MARK_READY(ready, s);
    cuStreamWaitEvent_f((CUstream)other, ready, 0);
}

void report(float *ms) {
    for (const Range &r : g_ranges) {
        cudaEventElapsedTime(ms++, (cudaEvent_t)r.start, (cudaEvent_t)r.end);
    }
}
