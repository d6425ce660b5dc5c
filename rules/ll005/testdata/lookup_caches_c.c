/* C runtimes that keep a module per device or per context and load it the
   first time a kernel is wanted there. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_GPUS 16

/* An array of per-device records; a pointer to the current device's. */
struct gpu_slot {
  CUmodule mod;
  CUfunction fn;
};
static struct gpu_slot g_slots[MAX_GPUS];

CUfunction slot_function(const void *image) {
  CUdevice here;
  struct gpu_slot *s;
  cuCtxGetDevice(&here);
  s = &g_slots[here];
  if (s->mod == NULL) {
    cuModuleLoadData(&s->mod, image); /* want LL005 "cuModuleLoadData fills a per-device module cache" */
    cuModuleGetFunction(&s->fn, s->mod, "reduce");
  }
  return s->fn;
}

/* The record's field, straight through the array. */
struct dev_state {
  CUcontext ctx;
  CUmodule module;
};
static struct dev_state g_state[MAX_GPUS];
static const char *g_path = "reduce.cubin";

CUmodule state_module(int n) {
  if (!g_state[n].module) {
    cuCtxSetCurrent(g_state[n].ctx);
    cuModuleLoad(&g_state[n].module, g_path); /* want LL005 "cuModuleLoad fills a per-device module cache" */
  }
  return g_state[n].module;
}

/* A list of (context, module) pairs searched for the current context. */
struct loaded {
  CUcontext owner;
  CUmodule mod;
  struct loaded *next;
};
static struct loaded *g_loaded;

CUmodule module_in_current(const void *image) {
  CUcontext cur;
  struct loaded *p;
  cuCtxGetCurrent(&cur);
  for (p = g_loaded; p != NULL; p = p->next)
    if (p->owner == cur) return p->mod;
  p = (struct loaded *)malloc(sizeof *p);
  p->owner = cur;
  cuModuleLoadData(&p->mod, image); /* want LL005 "per-device module cache" */
  p->next = g_loaded;
  g_loaded = p;
  return p->mod;
}

/* A record per context, passed in by the caller; its own context is made
   current before the load. */
struct device_rec {
  CUcontext ctx;
  CUmodule mod;
};

int ensure_loaded(struct device_rec *r, const void *image) {
  if (r->mod) return 0;
  cuCtxPushCurrent(r->ctx);
  cuModuleLoadData(&r->mod, image); /* want LL005 "per-device module cache" */
  cuCtxPopCurrent(NULL);
  return 0;
}

/* ---- Safe twins ---- */

/* The path names the device's architecture: one image per compute
   capability. */
static CUmodule g_arch_mods[MAX_GPUS];

CUmodule arch_module(CUdevice dev) {
  char path[64];
  int major, minor;
  if (g_arch_mods[dev]) return g_arch_mods[dev];
  cuDeviceComputeCapability(&major, &minor, dev);
  snprintf(path, sizeof path, "reduce_sm%d%d.cubin", major, minor);
  cuModuleLoad(&g_arch_mods[dev], path); /* ok: one image per architecture */
  return g_arch_mods[dev];
}

/* One slot per kernel in the current context. */
static CUmodule g_by_kernel[8];
static const void *g_image;

CUmodule kernel_module(int kernel) {
  if (!g_by_kernel[kernel]) cuModuleLoadData(&g_by_kernel[kernel], g_image); /* ok: keyed by kernel, not by device */
  return g_by_kernel[kernel];
}

/* A program object that loads its own module once; no context in sight. */
struct program {
  const void *image;
  CUmodule mod;
};

CUmodule program_module(struct program *prog) {
  if (!prog->mod) cuModuleLoadData(&prog->mod, prog->image); /* ok: one module per program */
  return prog->mod;
}

/* A list keyed by kernel name only. */
struct named {
  const char *name;
  CUmodule mod;
  struct named *next;
};
static struct named *g_named;

CUmodule module_named(const char *name, const void *image) {
  struct named *q;
  for (q = g_named; q != NULL; q = q->next)
    if (q->name == name) return q->mod;
  q = (struct named *)malloc(sizeof *q);
  q->name = name;
  cuModuleLoadData(&q->mod, image); /* ok: keyed by name */
  q->next = g_named;
  g_named = q;
  return q->mod;
}

/* Compiled for the context it goes into (its architecture); a later check
   reads the buffer through its address. */
struct buffer {
  char *data;
  size_t len;
};
int build_for(CUcontext ctx, struct buffer *out);
int buffer_failed(struct buffer *b);

struct built {
  CUcontext owner;
  CUmodule mod;
  struct built *next;
};
static struct built *g_built;

CUmodule built_module(CUcontext ctx) {
  struct buffer bin = {0};
  struct built *b;
  for (b = g_built; b; b = b->next)
    if (b->owner == ctx) return b->mod;
  if (build_for(ctx, &bin) != 0) return NULL;
  if (buffer_failed(&bin)) return NULL;
  b = (struct built *)calloc(1, sizeof *b);
  b->owner = ctx;
  cuModuleLoadData(&b->mod, bin.data); /* ok: built for this context */
  b->next = g_built;
  g_built = b;
  return b->mod;
}
