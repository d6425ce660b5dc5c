// The project's clock: the only file that reads one.
#include <sys/time.h>

double seconds_now(void) {
  struct timeval tv;
  gettimeofday(&tv, 0);
  return tv.tv_sec + tv.tv_usec * 1e-6;
}
