// Named stage totals, summed over the run and printed at exit.
#pragma once
#include <chrono>
#include <map>
#include <string>

class StageTimer {
 public:
  void Start(const std::string &stage) { begun_[stage] = std::chrono::steady_clock::now(); }
  void Stop(const std::string &stage) {
    total_[stage] += std::chrono::duration<double>(std::chrono::steady_clock::now() - begun_[stage]).count();
  }
  ~StageTimer();

 private:
  std::map<std::string, std::chrono::steady_clock::time_point> begun_;
  std::map<std::string, double> total_;
};

extern StageTimer stage_timer;
