// The library's clock, chosen at build time. Its name says "timer", which
// is also how timer objects and start/stop functions are spelled: a file
// that calls it looks as if it read a clock of its own.
#include "solver.h"

#if defined(USE_TIMES)
#include <sys/times.h>
#include <unistd.h>

double solver_timer_(void)
{
    struct tms now;
    times(&now);
    return (double)(now.tms_utime + now.tms_stime) / sysconf(_SC_CLK_TCK);
}

#elif defined(_WIN32)
#include <time.h>

double solver_timer_(void) { return (double)clock() / CLOCKS_PER_SEC; }

#else
#include <mpi.h>

double solver_timer_(void)
{
    return MPI_Wtime();
}
#endif
