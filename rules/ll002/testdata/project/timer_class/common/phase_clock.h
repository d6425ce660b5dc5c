// A timer of static methods that keeps its measurements by handle.
#pragma once
#include <string>

class PhaseClock {
 public:
  static int Begin();
  static double End(int handle, const std::string &label);
};
