// A class whose host-side steps live in a .cpp file and whose launchers
// live in a .cu file beside it.
#pragma once

class Booster {
 public:
  void Round(float *grad, int n);
  void Warm(float *grad, int n);
  void Rank(float *grad, int n);
  void Profile(float *grad, int n);

 private:
  void LaunchGradients(float *grad, int n);
  void LaunchHistogram(float *grad, int n);
  void LaunchRanking(float *grad, int n);
  float Loss(const float *grad, int n);
  void Prepare(float *grad, int n);
};

// A free function of the same name as a method: calls from methods of
// Booster reach the method, calls from elsewhere this one.
void LaunchRanking(float *grad, int n);
