/* C with the driver API: putenv's NAME=VALUE form, buffers filled with
 * strcpy and snprintf, and a main that configures the process in time. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CU_CALL(x) do { if ((x) != CUDA_SUCCESS) { fprintf(stderr, "%s\n", #x); exit(1); } } while (0)

static char eager_setting[] = "CUDA_MODULE_LOADING=EAGER";

static CUdevice open_device(int ordinal) {
  CUdevice dev;
  CU_CALL(cuInit(0));
  CU_CALL(cuDeviceGet(&dev, ordinal));
  return dev;
}

void late_putenv(void) {
  CU_CALL(cuInit(0));
  putenv("CUDA_MODULE_LOADING=EAGER"); /* want LL007 "putenv of CUDA_MODULE_LOADING after cuInit has no effect" */
}

void late_putenv_global(void) {
  CUdevice dev = open_device(0);
  (void)dev;
  putenv(eager_setting); /* want LL007 "after open_device \\(which calls CUDA\\)" */
}

void late_snprintf(const char *mode) {
  static char buf[64];
  CUcontext ctx;
  cuCtxGetCurrent(&ctx);
  snprintf(buf, sizeof buf, "CUDA_MODULE_DATA_LOADING=%s", mode);
  putenv(buf); /* want LL007 "CUDA_MODULE_DATA_LOADING after cuCtxGetCurrent" */
}

void late_strcpy_with_bad_value(void) {
  static char buf[64];
  cuInit(0);
  strcpy(buf, "CUDA_MODULE_LOADING=eager");
  putenv(buf); /* want LL007 "after cuInit has no effect" "\"eager\", which is not a loading mode.*write \"EAGER\"" */
}

void lowercase_first(void) {
  putenv("CUDA_MODULE_LOADING=lazy"); /* want LL007 "to \"lazy\", which is not a loading mode: CUDA expects LAZY, EAGER or DEFAULT" */
  cuInit(0);
}

void strcat_value(const char *mode) {
  static char buf[64];
  strcpy(buf, "CUDA_MODULE_LOADING=");
  strcat(buf, mode);
  putenv(buf); /* ok: the value comes from the caller, and no CUDA call runs before */
  cuInit(0);
}

void other_variables(void) {
  cuInit(0);
  putenv("CUDA_LAUNCH_BLOCKING=1"); /* ok: not a loading variable */
  putenv("CUDA_MODULE_LOADING_HINT=EAGER"); /* ok: a longer name is another variable */
}

void spawn_worker(char *const argv[]) {
  cuInit(0);
  if (fork() == 0) {
    putenv("CUDA_MODULE_LOADING=EAGER"); /* ok: the child execs a fresh program below */
    execv(argv[0], argv);
  }
}

void error_path_only(int ok) {
  if (!ok) {
    const char *msg;
    cuGetErrorString(CUDA_ERROR_NOT_INITIALIZED, &msg);
    fprintf(stderr, "%s\n", msg);
    exit(2);
  }
  putenv("CUDA_MODULE_LOADING=DEFAULT"); /* ok: cuGetErrorString needs no initialization, and that branch exits */
}

int main(int argc, char **argv) {
  putenv(argc > 1 ? "CUDA_MODULE_LOADING=EAGER" : "CUDA_MODULE_LOADING=LAZY"); /* ok: first thing in main, both values known */
  CUdevice dev = open_device(0);
  (void)dev;
  return 0;
}
