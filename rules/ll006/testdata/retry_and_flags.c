/* C: retry loops, loops that always run, and flags that guard both the
 * initialization and the query. */
#include <cuda.h>
#include <stdio.h>
#include <unistd.h>

static int use_driver = 1;

int report_mode(void) {
  CUmoduleLoadingMode mode = CU_MODULE_EAGER_LOADING;
  if (use_driver)
    cuInit(0);
  if (use_driver)
    cuModuleGetLoadingMode(&mode); /* ok: the same condition guards cuInit above */
  return (int)mode;
}

int wait_for_driver(void) {
  CUmoduleLoadingMode mode;
  while (cuInit(0) != CUDA_SUCCESS) {
    sleep(1);
  }
  return cuModuleGetLoadingMode(&mode) == CUDA_SUCCESS; /* ok: a loop condition always runs */
}

int retry_forever(void) {
  CUmoduleLoadingMode mode;
  for (;;) {
    if (cuInit(0) == CUDA_SUCCESS)
      break;
  }
  return cuModuleGetLoadingMode(&mode); /* ok: for (;;) runs its body */
}

#define MAX_ATTEMPTS 3

int counted_retries(void) {
  CUmoduleLoadingMode mode;
  int attempt;
  for (attempt = 0; attempt < MAX_ATTEMPTS; ++attempt) {
    if (cuInit(0) == CUDA_SUCCESS)
      break;
    sleep(1);
  }
  return cuModuleGetLoadingMode(&mode); /* ok: the retry loop's first attempt always runs */
}

int at_least_once(int tries) {
  CUmoduleLoadingMode mode;
  CUresult st;
  do {
    st = cuInit(0);
  } while (st != CUDA_SUCCESS && --tries > 0);
  return cuModuleGetLoadingMode(&mode); /* ok: a do-while body runs at least once */
}

int probe(void) {
  CUmoduleLoadingMode mode;
  CUresult st = cuModuleGetLoadingMode(&mode); /* ok: probes on purpose, handles CUDA_ERROR_NOT_INITIALIZED */
  if (st == CUDA_ERROR_NOT_INITIALIZED)
    return -1;
  return (int)mode;
}

struct driver_table {
  CUresult (*cuInit)(unsigned int);
  CUresult (*cuModuleGetLoadingMode)(CUmoduleLoadingMode *);
};

int through_table(const struct driver_table *t) {
  CUmoduleLoadingMode mode;
  t->cuInit(0);
  return t->cuModuleGetLoadingMode(&mode) == CUDA_SUCCESS; /* ok: the table's cuInit ran first */
}

/* Each case calls one function with nothing before it, so that only the
 * function's own code decides. */
int main(int argc, char **argv) {
  static struct driver_table table;
  (void)argv;
  switch (argc) {
  case 1: return report_mode();
  case 2: return wait_for_driver();
  case 3: return retry_forever();
  case 4: return counted_retries();
  case 5: return at_least_once(3);
  case 6: return probe();
  default: return through_table(&table);
  }
}
