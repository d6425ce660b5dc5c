// A simulation's user data carries its profiling timers as members; the
// timer reads MPI's wall clock in start() and stop() only.
#pragma once
#include <mpi.h>

class Timer {
 public:
  void start() { begin_ = MPI_Wtime(); }
  void stop() { total_ += MPI_Wtime() - begin_; }
  double total() const { return total_; }

 private:
  double begin_ = 0, total_ = 0;
};

class Tally {  // counts calls: reads no clock
 public:
  void start() { ++opened_; }
  void stop() { ++closed_; }
  int opened_ = 0, closed_ = 0;
};

struct UserData {
  int n;
  float *state;
  Timer t_advection;
  Timer t_reaction;
  Tally t_calls;
  void print_timers() const;
};
