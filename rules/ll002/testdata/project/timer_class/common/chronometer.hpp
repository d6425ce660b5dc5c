// A stopwatch class whose methods are defined in chronometer.cpp.
#pragma once

class Chronometer {
 public:
  Chronometer();
  void Start();
  void Stop();
  double Total();

 private:
  double began_, total_;
};
