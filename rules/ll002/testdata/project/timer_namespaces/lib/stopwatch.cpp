#include "stopwatch.h"

namespace solverlib {

Stopwatch::Stopwatch() : Stopwatch(0) {}

Stopwatch::Stopwatch(int owner)
    : total_(0),
      owner_(owner)
{
  reset();
  start();
}

void Stopwatch::start() {
  begun_ = std::chrono::steady_clock::now();
  running_ = true;
}

void Stopwatch::stop() {
  total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - begun_).count();
  running_ = false;
}

void Stopwatch::reset() {
  total_ = 0;
  running_ = false;
}

double Stopwatch::lap() const {
  if (!running_) return total_;
  return total_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - begun_).count();
}

}  // namespace solverlib
