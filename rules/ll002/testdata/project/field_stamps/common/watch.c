#include <string.h>
#include "watch.h"

void stopwatch_start(stopwatch_t *w) {
  memset(&w->end, 0, sizeof(w->end));
  gettimeofday(&w->begin, NULL);
}

void stopwatch_stop(stopwatch_t *w) { gettimeofday(&w->end, NULL); }

double stopwatch_seconds(stopwatch_t *w) {
  return (double)(w->end.tv_sec - w->begin.tv_sec) + (double)(w->end.tv_usec - w->begin.tv_usec) / 1e6;
}
