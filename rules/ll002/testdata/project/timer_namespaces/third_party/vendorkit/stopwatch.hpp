// A bundled library's class of the same name in its own namespace: here
// reset() restarts the clock.
#pragma once
#include <chrono>

namespace vendorkit {

class Stopwatch {
 public:
  Stopwatch() { reset(); }
  void reset() { t0_ = std::chrono::steady_clock::now(); }
  double lap() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }

 private:
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace vendorkit
