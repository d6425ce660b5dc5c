// The library's stopwatch. Its constructor starts it (through start(),
// after a member initializer list); reset() zeroes and stops it without
// reading the clock; lap() reads the time since start().
#pragma once
#include <chrono>

namespace solverlib {

class Stopwatch {
 public:
  Stopwatch();
  explicit Stopwatch(int owner);
  void start();
  void stop();
  void reset();
  double lap() const;

 private:
  std::chrono::steady_clock::time_point begun_;
  double total_ = 0;
  bool running_ = false;
  int owner_;
};

}  // namespace solverlib
