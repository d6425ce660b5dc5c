// What the host does between a waiter's launch and its release: only a
// kernel that still has to load makes the wait hang.
#include <cuda_runtime.h>

__global__ void hold_queue(const volatile int *gate) {
  while (*gate == 0) {  // ok: between each launch and the release only loaded kernels run
  }
}
__global__ void fill(float *x) { x[threadIdx.x] = 0.0f; }

// A stream blocker owned by an object: hold() launches and returns with the
// kernel still spinning; main decides what runs before open().
struct Blocker {
  int *device_gate;
  volatile int host_gate;
  void hold(cudaStream_t s) {
    host_gate = 0;
    hold_queue<<<1, 1, 0, s>>>(device_gate);
  }
  void open() { host_gate = 1; }
};

int main() {
  float *x;
  cudaMalloc(&x, 256 * sizeof(float));
  fill<<<1, 256>>>(x);  // loaded here, before anything waits
  cudaDeviceSynchronize();
  Blocker first, second;
  first.hold(0);
  second.hold(0);         // the waiter's own kernel: loaded by the first launch
  fill<<<1, 256>>>(x);    // loaded before the waiter was launched
  void *scratch;
  cudaMalloc(&scratch, 1024);  // allocations load nothing
  first.open();
  second.open();
  cudaDeviceSynchronize();
  return 0;
}

__global__ void wait_ticket(volatile unsigned *ticket) {
  while (*ticket == 0u) {  // want LL003 "kernel wait_ticket spins on ticket"
  }
}
__global__ void stamp(unsigned *out) { out[0] = 7u; }

void stamp_once(unsigned *out) { stamp<<<1, 1>>>(out); }

void start_ticket(unsigned *ticket_dev, cudaStream_t s) { wait_ticket<<<1, 1, 0, s>>>(ticket_dev); }

void serve(unsigned *ticket_dev, volatile unsigned *ticket, unsigned *out, cudaStream_t s) {
  start_ticket(ticket_dev, s);
  stamp_once(out);  // stamp loads while wait_ticket, started by the call above, spins
  *ticket = 1u;
  cudaStreamSynchronize(s);
}

// Preloading inside the window comes too late (measured on an H100: the
// preload returns at once, the kernel launched after it runs only when the
// waiter gives up).
__global__ void wait_go(volatile int *go, long long budget) {
  long long t0 = clock64();
  while (*go == 0) {  // want LL003 "kernel wait_go spins on go .*as a timeout"
    if (clock64() - t0 > budget) break;
  }
}
__global__ void copy_rows(int *dst, const int *src) { dst[threadIdx.x] = src[threadIdx.x]; }

void copy_with_occupancy(int *dst, const int *src, cudaStream_t s) {
  int blocks = 0, threads = 0;
  cudaOccupancyMaxPotentialBlockSize(&blocks, &threads, copy_rows);
  copy_rows<<<blocks, threads, 0, s>>>(dst, src);
}

void timed_copy(int *go_mapped, int *dst, const int *src, cudaStream_t s) {
  *go_mapped = 0;
  wait_go<<<1, 1, 0, s>>>(go_mapped, 10000000);
  copy_with_occupancy(dst, src, s);
  *go_mapped = 1;
  cudaStreamSynchronize(s);
}

// The releasing kernel was queued (and so loaded) before the waiter.
__global__ void await_segment(volatile int *segment_ready) {
  while (*segment_ready == 0) {  // ok: its releaser was launched before it
  }
}
__global__ void publish_segment(int *segment_ready) { *segment_ready = 1; }

void gather_then_compute(int *ready, cudaStream_t copy_stream, cudaStream_t compute_stream) {
  publish_segment<<<1, 1, 0, copy_stream>>>(ready);
  await_segment<<<1, 1, 0, compute_stream>>>(ready);
  publish_segment<<<1, 1, 0, copy_stream>>>(ready);  // launched again: loaded already
  cudaDeviceSynchronize();
}

// A network or proxy releases the credit: nothing of this program loads.
__global__ void wait_credit(volatile unsigned long long *consumer_index, unsigned long long want) {
  while (*consumer_index < want) {  // ok: the NIC advances the index; the host only posts work
  }
}

extern "C" int nic_post_descriptor(void *queue, const void *desc);

void send_with_credit(unsigned long long *ci, void *queue, const void *desc, cudaStream_t s) {
  wait_credit<<<1, 1, 0, s>>>(ci, 4);
  nic_post_descriptor(queue, desc);
  cudaStreamSynchronize(s);
}

// Recorded into a graph: the waiter runs only when the graph is launched,
// and every kernel the capture recorded was loaded at capture time.
#include <cuda/atomic>

__global__ void start_line(cuda::atomic<int> const *go) {
  while (go->load(cuda::memory_order_acquire) == 0) {  // ok: launched inside a stream capture
  }
}
__global__ void workload(float *y) { y[threadIdx.x] *= 2.0f; }

void replay_together(cuda::atomic<int> *go, float *y, cudaStream_t s, int reps) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  start_line<<<1, 1, 0, s>>>(go);
  for (int r = 0; r < reps; ++r) {
    workload<<<1, 32, 0, s>>>(y);  // recorded, and loaded now, not while start_line spins
  }
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  cudaGraphLaunch(exec, s);
  go->store(1, cuda::memory_order_release);
  cudaStreamSynchronize(s);
}

__global__ void start_line_late(cuda::atomic<int> const *go) {
  while (go->load(cuda::memory_order_acquire) == 0) {  // want LL003 "kernel start_line_late spins on go"
  }
}
__global__ void epilogue(float *y) { y[0] = 1.0f; }

void replay_then_epilogue(cuda::atomic<int> *go, float *y, cudaStream_t s, cudaStream_t t) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  start_line_late<<<1, 1, 0, s>>>(go);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  cudaGraphLaunch(exec, s);
  epilogue<<<1, 1, 0, t>>>(y);  // loads while the graph's start_line_late spins
  go->store(1, cuda::memory_order_release);
  cudaStreamSynchronize(s);
}

// Launched in another file, and nothing here releases it: the finding says
// that what runs before its release is out of sight (info).
__global__ void wait_elsewhere(volatile int *flag) {
  while (*flag == 0) {  // want LL003 "kernel wait_elsewhere spins on flag .*this file does not launch it.*cannot see"
  }
}

// Launched in another file, and released by a kernel of this file that
// has to load while it spins: the measured deadlock.
__global__ void wait_for_partner(volatile int *handoff) {
  while (*handoff == 0) {  // want LL003 "kernel wait_for_partner spins on handoff .*a releaser that still has to load"
  }
}
__global__ void partner(int *handoff) { *handoff = 1; }

// Its launcher returns with it spinning, to callers in other files; the
// kernel of this file that writes its flag was launched before it.
__global__ void wait_after_init(volatile int *slots) {
  while (slots[0] == 0) {  // want LL003 "kernel wait_after_init spins on slots .*callers out of sight.*cannot see"
  }
}
__global__ void clear_slots(int *slots) { slots[threadIdx.x] = 0; }

static void launch_waiter(int *slots, cudaStream_t s) { wait_after_init<<<1, 1, 0, s>>>(slots); }

void start_pipeline(int *slots, cudaStream_t s) {
  clear_slots<<<1, 32, 0, s>>>(slots);
  launch_waiter(slots, s);
}
