// Named totals, and a scope timer that adds its block's time to one of
// them: it reads the clock only through the Totals it is given.
#pragma once
#include <chrono>
#include <map>
#include <string>

class Totals {
 public:
  void Start(const std::string &name) { begun_[name] = std::chrono::steady_clock::now(); }
  void Stop(const std::string &name) {
    sum_[name] += std::chrono::duration<double>(std::chrono::steady_clock::now() - begun_[name]).count();
  }

 private:
  std::map<std::string, std::chrono::steady_clock::time_point> begun_;
  std::map<std::string, double> sum_;
};

class ScopedTimer {
 public:
  ScopedTimer(const std::string &name, Totals &totals) : name_(name), totals_(totals) { totals.Start(name); }
  ~ScopedTimer() { totals_.Stop(name_); }

 private:
  std::string name_;
  Totals &totals_;
};

extern Totals run_totals;
