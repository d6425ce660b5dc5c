// A project's timing macros, kept in one header: a macro that times the
// statement it is given, a begin/finish pair built on CUDA events, and a
// pair built on the host clock. None of their names says "timer".
#pragma once
#include <chrono>
#include <cuda_runtime.h>

extern cudaEvent_t sw_begin, sw_finish;

#define MEASURE(stmt, ms)                                   \
  do {                                                      \
    cudaEventRecord(sw_begin, 0);                           \
    stmt;                                                   \
    cudaEventRecord(sw_finish, 0);                          \
    cudaEventSynchronize(sw_finish);                        \
    cudaEventElapsedTime(&(ms), sw_begin, sw_finish);       \
  } while (0)

#define GPU_MARK_BEGIN() cudaEventRecord(sw_begin, 0)
#define GPU_MARK_FINISH(ms)                                 \
  do {                                                      \
    cudaEventRecord(sw_finish, 0);                          \
    cudaEventSynchronize(sw_finish);                        \
    cudaEventElapsedTime(&(ms), sw_begin, sw_finish);       \
  } while (0)

#define HOST_MARK(t) auto t = std::chrono::steady_clock::now()
#define HOST_SPAN(a, b) std::chrono::duration<double>((b) - (a)).count()

// Three steps, the elapsed time in a macro of its own.
#define REC_A(s) cudaEventRecord(sw_begin, (s));
#define REC_B(s) cudaEventRecord(sw_finish, (s)); cudaEventSynchronize(sw_finish);
#define SPAN_MS(p) cudaEventElapsedTime((p), sw_begin, sw_finish);

// Named for a timer, but its body says it records an event.
#define STOP_GPU_TIMER(ms)                                  \
  {                                                         \
    cudaEventRecord(sw_finish, 0);                          \
    cudaEventSynchronize(sw_finish);                        \
    cudaEventElapsedTime(&(ms), sw_begin, sw_finish);       \
  }

// Not a clock: a macro that only logs.
#define NOTE(msg) fprintf(stderr, "%s\n", msg)
