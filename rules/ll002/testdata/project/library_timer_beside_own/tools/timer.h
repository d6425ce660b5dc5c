// A mini-app's own timer, in the global namespace: it shares its name with
// Kokkos's, which the exercises use.
#pragma once
#include <ctime>

class Timer {
 public:
  Timer();
  ~Timer();
  void stamp();
  void stamp(int which);
  double *array;

 private:
  double previous_;
};
