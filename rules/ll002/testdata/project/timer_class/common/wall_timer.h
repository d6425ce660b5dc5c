// A timer class of the project, in a header of its own folder: it starts
// when it is declared, and Elapsed() reads the time since then.
#pragma once
#include <sys/time.h>

class WallTimer {
 public:
  WallTimer() { Restart(); }
  void Restart() { gettimeofday(&begun_, nullptr); }
  double Elapsed() const {
    timeval now;
    gettimeofday(&now, nullptr);
    return (now.tv_sec - begun_.tv_sec) + 1e-6 * (now.tv_usec - begun_.tv_usec);
  }

 private:
  timeval begun_;
};
