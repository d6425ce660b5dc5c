// A suite's timer: static methods, a handle per measurement.
#pragma once
#include <string>

class Timer {
 public:
  static int Start();
  static double Stop(int handle, const std::string &what);
};
