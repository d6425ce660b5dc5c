// The benchmark's clock, in GNU style: a blank before the parenthesis.
#include <stdio.h>
#include <sys/time.h>

double rtclock()
{
  struct timezone tzp;
  struct timeval tp;
  int stat = gettimeofday (&tp, &tzp);
  if (stat != 0) printf ("error from gettimeofday: %d", stat);
  return (tp.tv_sec + tp.tv_usec * 1.0e-6);
}
