/*
 * lazylint probe trace: the injection library.
 *
 * The driver loads this library at cuInit when CUDA_INJECTION64_PATH names
 * it, and calls InitializeInjection. It subscribes to CUPTI callbacks and
 * activity records and writes, as JSON lines to
 * $LAZYLINT_TRACE_DIR/trace.<pid>.jsonl, per context: module loads, kernel
 * launches (name, stream, whether the kernel was loaded at ENTER, ENTER to
 * EXIT time, free memory around launches that load), device allocations
 * (cuMemAlloc, the stream-ordered and pool allocators, cuMemCreate), module
 * and library loads (their time and the free memory around them), launch
 * failures (the driver's, and the runtime's that never reach it), lazy-load
 * overhead records and kernel execution times.
 * Lines are written as they happen and flushed after each event that a
 * crash must not lose (loads, failures, modules), so a killed run keeps them.
 *
 * Only CUPTI is called from InitializeInjection. In callbacks the driver is
 * called for cuFuncIsLoaded, cuKernelGetFunction, cuStreamGetId and
 * cuMemGetInfo, none of which synchronizes; a thread-local guard keeps a
 * callback from recursing.
 */
#include <cuda.h>
#include <cupti.h> /* includes generated_cuda_meta.h (launch parameter structs) */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static FILE *out;
static pthread_mutex_t outMu = PTHREAD_MUTEX_INITIALIZER;
static int initialized;
static __thread int inCallback;
static CUpti_SubscriberHandle subscriber;

#define BUF_SIZE (4u << 20)

static long tid(void) { return (long)syscall(SYS_gettid); }

static uint64_t now(void) {
  uint64_t t = 0;
  cuptiGetTimestamp(&t);
  return t;
}

/* jsonString writes s as a JSON string. */
static void jsonString(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      fputc('\\', f);
      fputc(c, f);
    } else if (c < 0x20) {
      fprintf(f, "\\u%04x", c);
    } else {
      fputc(c, f);
    }
  }
  fputc('"', f);
}

static void freeMem(long long *freeBytes) {
  size_t fr = 0, tot = 0;
  *freeBytes = cuMemGetInfo(&fr, &tot) == CUDA_SUCCESS ? (long long)fr : -1;
}

/* launchInfo pulls the function and stream out of a launch's parameters. */
static int launchInfo(CUpti_CallbackId cbid, const void *params, CUfunction *f, CUstream *s) {
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    *f = ((const cuLaunchKernel_params *)params)->f;
    *s = ((const cuLaunchKernel_params *)params)->hStream;
    return 1;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    *f = ((const cuLaunchKernel_ptsz_params *)params)->f;
    *s = ((const cuLaunchKernel_ptsz_params *)params)->hStream;
    return 1;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: {
    const cuLaunchKernelEx_params *p = params;
    *f = p->f;
    *s = p->config ? p->config->hStream : 0;
    return 1;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
    const cuLaunchKernelEx_ptsz_params *p = params;
    *f = p->f;
    *s = p->config ? p->config->hStream : 0;
    return 1;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    *f = ((const cuLaunchCooperativeKernel_params *)params)->f;
    *s = ((const cuLaunchCooperativeKernel_params *)params)->hStream;
    return 1;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    *f = ((const cuLaunchCooperativeKernel_ptsz_params *)params)->f;
    *s = ((const cuLaunchCooperativeKernel_ptsz_params *)params)->hStream;
    return 1;
  }
  return 0;
}

/* Per-thread state between a launch's ENTER and EXIT (launches do not nest
 * on one thread). */
static __thread struct {
  uint64_t start;
  int loadState; /* 1 loaded, 0 unloaded, -1 unknown */
  int loadStateErr;
  long long freeBefore;
  unsigned long long streamId;
} pending;

static int loadState(CUfunction f, int *err) {
  CUfunctionLoadingState st;
  CUresult r = cuFuncIsLoaded(&st, f);
  if (r != CUDA_SUCCESS) {
    /* f may be a CUkernel cast to CUfunction (cudart does this). */
    CUfunction fn;
    if (cuKernelGetFunction(&fn, (CUkernel)f) == CUDA_SUCCESS)
      r = cuFuncIsLoaded(&st, fn);
  }
  *err = (int)r;
  if (r != CUDA_SUCCESS)
    return -1;
  return st == CU_FUNCTION_LOADING_STATE_LOADED ? 1 : 0;
}

static void onLaunch(CUpti_CallbackId cbid, const CUpti_CallbackData *cb) {
  CUfunction f = 0;
  CUstream s = 0;
  if (!launchInfo(cbid, cb->functionParams, &f, &s))
    return;
  if (cb->callbackSite == CUPTI_API_ENTER) {
    pending.loadState = loadState(f, &pending.loadStateErr);
    pending.freeBefore = -1;
    if (pending.loadState != 1)
      freeMem(&pending.freeBefore);
    pending.streamId = 0;
    cuStreamGetId(s, &pending.streamId);
    pending.start = now();
    return;
  }
  uint64_t end = now();
  int result = cb->functionReturnValue ? (int)*(const CUresult *)cb->functionReturnValue : 0;
  long long freeAfter = -1;
  if (pending.loadState != 1)
    freeMem(&freeAfter);
  pthread_mutex_lock(&outMu);
  fprintf(out, "{\"ev\":\"launch\",\"api\":\"%s\",\"t0\":%llu,\"t1\":%llu,\"tid\":%ld,\"ctx\":%u,\"stream\":%llu,\"corr\":%u,\"loaded\":%d,\"load_state_err\":%d,\"free_before\":%lld,\"free_after\":%lld,\"result\":%d,\"name\":",
          cb->functionName, (unsigned long long)pending.start, (unsigned long long)end, tid(), cb->contextUid,
          pending.streamId, cb->correlationId, pending.loadState, pending.loadStateErr, pending.freeBefore, freeAfter, result);
  jsonString(out, cb->symbolName);
  fputs("}\n", out);
  /* The first launches are flushed one by one, so that a run killed in a
   * hang still shows them; later ones go out with the buffer. */
  static unsigned long launches;
  if (++launches <= 4096 || pending.loadState != 1 || result != 0)
    fflush(out);
  pthread_mutex_unlock(&outMu);
}

/* isAlloc says whether cbid is an allocation of device memory and, for
 * one, sets *bytes to the size it asks for. */
static int isAlloc(CUpti_CallbackId cbid, const void *params, size_t *bytes) {
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2:
    *bytes = ((const cuMemAlloc_v2_params *)params)->bytesize;
    return 1;
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync:
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz:
    /* the _ptsz parameters have the same layout */
    *bytes = ((const cuMemAllocAsync_params *)params)->bytesize;
    return 1;
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync:
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz:
    *bytes = ((const cuMemAllocFromPoolAsync_params *)params)->bytesize;
    return 1;
  case CUPTI_DRIVER_TRACE_CBID_cuMemCreate:
    *bytes = ((const cuMemCreate_params *)params)->size;
    return 1;
  }
  return 0;
}

static int isModuleLoad(CUpti_CallbackId cbid) {
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuModuleLoad:
  case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData:
  case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx:
  case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary:
  case CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData:
  case CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile:
    return 1;
  }
  return 0;
}

/* A call that takes device memory at once (an allocation) or that a
 * program measures as if it did (a module load): its time and the free
 * memory around it. Free memory before is only read for module loads (an
 * allocation's size says what it takes). */
static __thread struct {
  uint64_t start;
  long long freeBefore;
} pendingCall;

static void onMemoryCall(CUpti_CallbackId cbid, const CUpti_CallbackData *cb, const char *ev) {
  int module = isModuleLoad(cbid);
  if (cb->callbackSite == CUPTI_API_ENTER) {
    pendingCall.freeBefore = -1;
    if (module)
      freeMem(&pendingCall.freeBefore);
    pendingCall.start = now();
    return;
  }
  uint64_t end = now();
  int result = cb->functionReturnValue ? (int)*(const CUresult *)cb->functionReturnValue : 0;
  size_t bytes = 0;
  if (!module)
    isAlloc(cbid, cb->functionParams, &bytes);
  long long fr;
  freeMem(&fr);
  pthread_mutex_lock(&outMu);
  fprintf(out, "{\"ev\":\"%s\",\"api\":\"%s\",\"t0\":%llu,\"t1\":%llu,\"tid\":%ld,\"ctx\":%u,\"bytes\":%zu,\"free_before\":%lld,\"free_after\":%lld,\"result\":%d}\n",
          ev, cb->functionName, (unsigned long long)pendingCall.start, (unsigned long long)end, tid(), cb->contextUid,
          bytes, pendingCall.freeBefore, fr, result);
  fflush(out);
  pthread_mutex_unlock(&outMu);
}

static void onResource(CUpti_CallbackId cbid, const CUpti_ResourceData *rd) {
  const char *what = NULL;
  switch (cbid) {
  case CUPTI_CBID_RESOURCE_CONTEXT_CREATED: what = "context"; break;
  case CUPTI_CBID_RESOURCE_MODULE_LOADED: what = "module_loaded"; break;
  case CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING: what = "module_unload"; break;
  default: return;
  }
  uint32_t ctxID = 0;
  if (rd->context)
    cuptiGetContextId(rd->context, &ctxID);
  long long fr = -1;
  CUmoduleLoadingMode mode = 0;
  if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED)
    freeMem(&fr);
  if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED && cuModuleGetLoadingMode(&mode) != CUDA_SUCCESS)
    mode = 0;
  pthread_mutex_lock(&outMu);
  fprintf(out, "{\"ev\":\"%s\",\"t0\":%llu,\"tid\":%ld,\"ctx\":%u,\"free_after\":%lld", what, (unsigned long long)now(), tid(), ctxID, fr);
  if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
    fprintf(out, ",\"loading_mode\":\"%s\"", mode == CU_MODULE_LAZY_LOADING ? "lazy" : mode == CU_MODULE_EAGER_LOADING ? "eager" : "unknown");
  else {
    const CUpti_ModuleResourceData *m = rd->resourceDescriptor;
    fprintf(out, ",\"module\":%u,\"cubin_bytes\":%zu", m->moduleId, m->cubinSize);
  }
  fputs("}\n", out);
  fflush(out);
  pthread_mutex_unlock(&outMu);
}

/* onRuntimeLaunch records a runtime launch (cudaLaunchKernel, <<<>>>,
 * cudaLaunchKernelExC, ...) that returned an error. Under lazy loading
 * cudart loads the kernel before it calls the driver's launch, so a load
 * that fails for memory never reaches cuLaunchKernel: only the runtime
 * call shows it. Launch callbacks are told apart by their symbol name,
 * which CUPTI sets only for launches, so no version's callback ids are
 * named here. */
static void onRuntimeLaunch(const CUpti_CallbackData *cb) {
  if (cb->callbackSite != CUPTI_API_EXIT || !cb->symbolName || !cb->functionName || !strstr(cb->functionName, "aunch"))
    return;
  int result = cb->functionReturnValue ? *(const int *)cb->functionReturnValue : 0;
  if (result == 0)
    return;
  long long fr;
  freeMem(&fr);
  pthread_mutex_lock(&outMu);
  fprintf(out, "{\"ev\":\"launch_error\",\"api\":\"%s\",\"t0\":%llu,\"tid\":%ld,\"ctx\":%u,\"free_after\":%lld,\"result\":%d,\"name\":",
          cb->functionName, (unsigned long long)now(), tid(), cb->contextUid, fr, result);
  jsonString(out, cb->symbolName);
  fputs("}\n", out);
  fflush(out);
  pthread_mutex_unlock(&outMu);
}

static void CUPTIAPI callback(void *user, CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const void *data) {
  (void)user;
  if (inCallback || !out)
    return;
  inCallback = 1;
  size_t bytes;
  if (dom == CUPTI_CB_DOMAIN_RESOURCE)
    onResource(cbid, data);
  else if (dom == CUPTI_CB_DOMAIN_RUNTIME_API)
    onRuntimeLaunch(data);
  else if (dom == CUPTI_CB_DOMAIN_DRIVER_API && isModuleLoad(cbid))
    onMemoryCall(cbid, data, "module_call");
  else if (dom == CUPTI_CB_DOMAIN_DRIVER_API && isAlloc(cbid, ((const CUpti_CallbackData *)data)->functionParams, &bytes))
    onMemoryCall(cbid, data, "alloc");
  else if (dom == CUPTI_CB_DOMAIN_DRIVER_API)
    onLaunch(cbid, data);
  inCallback = 0;
}

static void CUPTIAPI bufferRequested(uint8_t **buf, size_t *size, size_t *maxRecords) {
  *buf = aligned_alloc(8, BUF_SIZE);
  *size = *buf ? BUF_SIZE : 0;
  *maxRecords = 0;
}

static void CUPTIAPI bufferCompleted(CUcontext ctx, uint32_t streamId, uint8_t *buf, size_t size, size_t valid) {
  (void)ctx;
  (void)streamId;
  (void)size;
  CUpti_Activity *rec = NULL;
  pthread_mutex_lock(&outMu);
  while (out && cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS) {
    if (rec->kind == CUPTI_ACTIVITY_KIND_OVERHEAD) {
      const CUpti_ActivityOverhead3 *o = (const CUpti_ActivityOverhead3 *)rec;
      fprintf(out, "{\"ev\":\"overhead\",\"overhead_kind\":%u,\"object_kind\":%u,\"t0\":%llu,\"t1\":%llu,\"corr\":%u",
              (unsigned)o->overheadKind, (unsigned)o->objectKind, (unsigned long long)o->start, (unsigned long long)o->end, o->correlationId);
      if (o->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || o->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS)
        fprintf(out, ",\"tid\":%u", o->objectId.pt.threadId);
      else
        fprintf(out, ",\"ctx\":%u,\"stream\":%u", o->objectId.dcs.contextId, o->objectId.dcs.streamId);
      fputs("}\n", out);
    } else if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
      fprintf(out, "{\"ev\":\"kernel\",\"t0\":%llu,\"t1\":%llu,\"ctx\":%u,\"stream\":%u,\"corr\":%u,\"name\":",
              (unsigned long long)k->start, (unsigned long long)k->end, k->contextId, k->streamId, k->correlationId);
      jsonString(out, k->name);
      fputs("}\n", out);
    }
  }
  size_t dropped = 0;
  cuptiActivityGetNumDroppedRecords(ctx, streamId, &dropped);
  if (out && dropped)
    fprintf(out, "{\"ev\":\"dropped\",\"records\":%zu}\n", dropped);
  if (out)
    fflush(out);
  pthread_mutex_unlock(&outMu);
  free(buf);
}

static void finish(void) {
  cuptiActivityFlushAll(1);
  pthread_mutex_lock(&outMu);
  if (out) {
    fprintf(out, "{\"ev\":\"end\",\"t0\":%llu}\n", (unsigned long long)now());
    fflush(out);
  }
  pthread_mutex_unlock(&outMu);
}

static void fail(const char *what, CUptiResult r) {
  const char *msg = "";
  cuptiGetResultString(r, &msg);
  if (out) {
    fprintf(out, "{\"ev\":\"error\",\"what\":\"%s\",\"code\":%d,\"message\":", what, (int)r);
    jsonString(out, msg);
    fputs("}\n", out);
    fflush(out);
  }
}

int InitializeInjection(void) {
  static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&mu);
  if (initialized) {
    pthread_mutex_unlock(&mu);
    return 1;
  }
  initialized = 1;
  const char *dir = getenv("LAZYLINT_TRACE_DIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/trace.%d.jsonl", dir && *dir ? dir : ".", (int)getpid());
  out = fopen(path, "w");
  if (!out) {
    pthread_mutex_unlock(&mu);
    return 0;
  }
  fprintf(out, "{\"ev\":\"start\",\"t0\":%llu,\"pid\":%d,\"cupti_version\":", (unsigned long long)now(), (int)getpid());
  uint32_t v = 0;
  cuptiGetVersion(&v);
  fprintf(out, "%u}\n", v);
  CUptiResult r = cuptiSubscribe(&subscriber, callback, NULL);
  if (r != CUPTI_SUCCESS) {
    fail("cuptiSubscribe", r); /* another tool holds the one subscriber slot */
    pthread_mutex_unlock(&mu);
    return 1;
  }
  if ((r = cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE)) != CUPTI_SUCCESS)
    fail("cuptiEnableDomain(RESOURCE)", r);
  if ((r = cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API)) != CUPTI_SUCCESS)
    fail("cuptiEnableDomain(RUNTIME_API)", r);
  static const CUpti_CallbackId cbids[] = {
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2,
      CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync, CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync, CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuMemCreate,
      CUPTI_DRIVER_TRACE_CBID_cuModuleLoad, CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData,
      CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx, CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary,
      CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData, CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile,
  };
  for (size_t i = 0; i < sizeof cbids / sizeof cbids[0]; i++)
    if ((r = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbids[i])) != CUPTI_SUCCESS)
      fail("cuptiEnableCallback", r);
  if ((r = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted)) != CUPTI_SUCCESS)
    fail("cuptiActivityRegisterCallbacks", r);
  if ((r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_OVERHEAD)) != CUPTI_SUCCESS)
    fail("cuptiActivityEnable(OVERHEAD)", r);
  if (!getenv("LAZYLINT_TRACE_NO_KERNELS") && (r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) != CUPTI_SUCCESS)
    fail("cuptiActivityEnable(CONCURRENT_KERNEL)", r);
  atexit(finish);
  fflush(out);
  pthread_mutex_unlock(&mu);
  return 1;
}
