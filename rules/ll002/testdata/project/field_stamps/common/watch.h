// A C stopwatch: the start and stop helpers each read the clock once, into
// a field of the watch they are handed; a third reads the interval.
#pragma once
#include <sys/time.h>

typedef struct {
  struct timeval begin;
  struct timeval end;
} stopwatch_t;

void stopwatch_start(stopwatch_t *w);
void stopwatch_stop(stopwatch_t *w);
double stopwatch_seconds(stopwatch_t *w);
