#include <ctime>
#include "timer.h"

Timer::Timer() {
  array = new double[4];
  for (int i = 0; i < 4; i++) array[i] = 0.0;
}

Timer::~Timer() { delete[] array; }

void Timer::stamp() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  previous_ = t.tv_sec + 1e-9 * t.tv_nsec;
}

void Timer::stamp(int which) {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  double current = t.tv_sec + 1e-9 * t.tv_nsec;
  array[which] += current - previous_;
  previous_ = current;
}
