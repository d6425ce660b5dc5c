#include <sys/time.h>
#include <vector>
#include "phase_clock.h"

static std::vector<double> starts;

static double seconds_of(const timeval &tv) { return tv.tv_sec + 1e-6 * tv.tv_usec; }

int PhaseClock::Begin() {
  timeval tv;
  gettimeofday(&tv, nullptr);
  starts.push_back(seconds_of(tv));
  return static_cast<int>(starts.size()) - 1;
}

double PhaseClock::End(int handle, const std::string &label) {
  timeval tv;
  gettimeofday(&tv, nullptr);
  return seconds_of(tv) - starts[handle];
}
