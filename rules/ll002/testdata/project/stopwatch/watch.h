// A stopwatch of the project, shaped like cuda-samples' helper_timer.h:
// start and stop add sessions to a running total; the value reads return
// that total (or its mean per session), not a timestamp.
#pragma once
#include <sys/time.h>

struct Watch {
  double begun_ms;
  double total_ms;
  int sessions;
  bool running;
};

inline double wall_ms() {
  timeval tv;
  gettimeofday(&tv, nullptr);
  return tv.tv_sec * 1e3 + tv.tv_usec * 1e-3;
}

inline void sdkStartTimer(Watch **w) {
  (*w)->begun_ms = wall_ms();
  (*w)->running = true;
}

inline void sdkStopTimer(Watch **w) {
  (*w)->total_ms += wall_ms() - (*w)->begun_ms;
  (*w)->sessions++;
  (*w)->running = false;
}

inline float sdkGetTimerValue(Watch **w) {
  double t = (*w)->total_ms;
  if ((*w)->running) {
    timeval tv;
    gettimeofday(&tv, nullptr);
    t += tv.tv_sec * 1e3 + tv.tv_usec * 1e-3 - (*w)->begun_ms;
  }
  return (float)t;
}
