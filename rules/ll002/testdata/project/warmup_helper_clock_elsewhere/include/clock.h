// The project's wall clock.
#pragma once
#include <sys/time.h>

inline double wall_seconds() {
  struct timeval tv;
  gettimeofday(&tv, 0);
  return tv.tv_sec + tv.tv_usec * 1e-6;
}
