// Counts work items; nothing here reads a clock, whatever the method names.
#pragma once

class Tally {
 public:
  void Start() { count_ = 0; open_ = true; }
  void Stop() { open_ = false; }
  double Total() const { return count_; }
  void Add(int n) { count_ += n; }

 private:
  double count_ = 0;
  bool open_ = false;
};
