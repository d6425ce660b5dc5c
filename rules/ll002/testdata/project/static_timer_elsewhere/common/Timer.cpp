#include "Timer.h"
#include <sys/time.h>
#include <vector>

static std::vector<struct timeval> starts;

int Timer::Start() {
  struct timeval tv;
  gettimeofday(&tv, 0);
  starts.push_back(tv);
  return (int)starts.size() - 1;
}

double Timer::Stop(int handle, const std::string &what) {
  struct timeval tv;
  gettimeofday(&tv, 0);
  return (tv.tv_sec - starts[handle].tv_sec) + (tv.tv_usec - starts[handle].tv_usec) * 1e-6;
}
