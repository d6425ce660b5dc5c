#include <time.h>
#include "chronometer.hpp"

static double monotonic_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

Chronometer::Chronometer() : began_(0), total_(0) {}

void Chronometer::Start() { began_ = monotonic_seconds(); }

void Chronometer::Stop() { total_ += monotonic_seconds() - began_; }

double Chronometer::Total() { return total_; }
