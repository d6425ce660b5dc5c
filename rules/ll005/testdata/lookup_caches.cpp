// Module caches that a runtime fills per device or per context the first
// time a kernel is looked up there: one image, loaded into every context by
// hand. The device or context is the current one, one made current here, or
// one the caller passes.
#include <cuda.h>
#include <cuda_runtime.h>
#include <array>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

// A member array per device, filled under a lock; the caller passes the
// device it found current. The slot is written through parentheses.
class JitBinary {
 public:
  CUfunction lookup(int which, const std::string &symbol) {
    std::lock_guard<std::mutex> hold(guard_);
    if (loaded_[which] == nullptr) {
      cuModuleLoadData(&(loaded_[which]), blob_.data());  // want LL005 "cuModuleLoadData fills a per-device module cache"
    }
    CUfunction fn = nullptr;
    cuModuleGetFunction(&fn, loaded_[which], symbol.c_str());
    return fn;
  }

 private:
  std::string blob_;
  std::array<CUmodule, 32> loaded_{};
  std::mutex guard_;
};

struct BoundKernel {
  JitBinary *owner;
  std::array<CUfunction, 32> per_device{};

  void call(void **args) {
    int here = 0;
    cudaGetDevice(&here);
    if (per_device[here] == nullptr) per_device[here] = owner->lookup(here, "body");
    cuLaunchKernel(per_device[here], 1, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr);
  }
};

// Through this->, keyed by the device cudaGetDevice reports.
struct Registry {
  CUmodule slots_[16] = {};
  const void *image_ = nullptr;

  CUmodule current() {
    int which;
    cudaGetDevice(&which);
    if (!this->slots_[which]) cuModuleLoadData(&this->slots_[which], image_);  // want LL005 "per-device module cache"
    return this->slots_[which];
  }
};

// A reference to a map's entry for the current context.
std::unordered_map<CUcontext, CUmodule> g_per_context;

CUmodule module_here(const char *path) {
  CUcontext cur;
  cuCtxGetCurrent(&cur);
  CUmodule &held = g_per_context[cur];
  if (held == NULL) cuModuleLoad(&held, path);  // want LL005 "cuModuleLoad fills a per-device module cache"
  return held;
}

// A pointer to a per-device entry, then its field; the device is made
// current on the way.
struct Entry {
  CUmodule module;
  CUfunction entry_point;
};

class Table {
 public:
  CUfunction get(int k) {
    Entry *e = &entries_[k];
    if (e->module == 0) {
      cudaSetDevice(k);
      cuModuleLoadData(&e->module, image_);  // want LL005 "per-device module cache"
      cuModuleGetFunction(&e->entry_point, e->module, "main_kernel");
    }
    return e->entry_point;
  }

 private:
  Entry entries_[8];
  const void *image_;
};

// find, then load into a local and emplace it under the context's key.
class ByContext {
 public:
  CUmodule get(CUcontext owner) {
    auto it = loaded_.find(owner);
    if (it != loaded_.end()) return it->second;
    cuCtxPushCurrent(owner);
    CUmodule m;
    cuModuleLoadDataEx(&m, ptx_, 0, nullptr, nullptr);  // want LL005 "cuModuleLoadDataEx fills a per-device module cache"
    cuCtxPopCurrent(nullptr);
    loaded_.emplace(owner, m);
    return m;
  }

 private:
  std::map<CUcontext, CUmodule> loaded_;
  const char *ptx_;
};

// count() == 0, then the map's subscript; the device ordinal gives the
// context to retain.
std::map<int, CUmodule> g_fat;
extern const unsigned char kFatbin[];

CUmodule fat_for(int ordinal) {
  if (g_fat.count(ordinal) == 0) {
    CUdevice d;
    CUcontext c;
    cuDeviceGet(&d, ordinal);
    cuDevicePrimaryCtxRetain(&c, d);
    cuCtxSetCurrent(c);
    cuModuleLoadFatBinary(&g_fat[ordinal], kFatbin);  // want LL005 "per-device module cache"
  }
  return g_fat[ordinal];
}

// try_emplace keyed by (device, kernel name): one entry per device still.
std::map<std::pair<int, std::string>, CUmodule> g_pairs;

CUmodule pair_for(const std::string &name, const void *image) {
  int dev = 0;
  cudaGetDevice(&dev);
  auto [pos, fresh] = g_pairs.try_emplace(std::make_pair(dev, name), nullptr);
  if (fresh) cuModuleLoadData(&pos->second, image);  // want LL005 "per-device module cache"
  return pos->second;
}

// A helper that loads into the slot its caller gives.
static void load_into(CUmodule *out, const void *image) {
  cuModuleLoadData(out, image);  // want LL005 "per-device module cache"
}

struct Pool {
  CUmodule mods_[8] = {};
  const void *image_;

  CUmodule module() {
    CUdevice dev;
    cuCtxGetDevice(&dev);
    if (!mods_[dev]) load_into(&mods_[dev], image_);
    return mods_[dev];
  }
};

// A loader returns the module; the caller stores it per device.
static CUmodule build(const char *ptx) {
  CUmodule m = nullptr;
  cuModuleLoadData(&m, ptx);  // want LL005 "per-device module cache"
  return m;
}

CUmodule g_built[8];

CUmodule built_for(CUdevice dev, const char *ptx) {
  if (!g_built[dev]) g_built[dev] = build(ptx);
  return g_built[dev];
}

// A loader handed to a cache of the project's own, keyed by the context
// (a context object whose member is the CUcontext).
struct Scope {
  CUcontext handle;
  explicit Scope(void *user) { cuCtxGetCurrent(&handle); }
};

template <typename K, typename V>
struct LoadCache {
  template <typename F, typename... A>
  bool get_or_load(K key, V &out, F load, A... args);
};

LoadCache<CUcontext, CUmodule> g_loads;

static CUmodule load_text(void *user, const char *text) {
  CUmodule mod = nullptr;
  cuModuleLoadData(&mod, text);  // want LL005 "per-device module cache"
  return mod;
}

int prepare(void *user, const char *text) {
  Scope scope(user);
  CUmodule result;
  return g_loads.get_or_load(scope.handle, result, load_text, user, text) ? 0 : 1;
}

// find() == end() around the load, then insert of a pair made with the
// current device.
std::unordered_map<int, CUmodule> g_inserted;

CUmodule inserted_for_current(const void *image) {
  CUdevice dev;
  cuCtxGetDevice(&dev);
  auto it = g_inserted.find(dev);
  if (it == g_inserted.end()) {
    CUmodule fresh = nullptr;
    cuModuleLoadData(&fresh, image);  // want LL005 "per-device module cache"
    it = g_inserted.insert(std::make_pair(dev, fresh)).first;
  }
  return it->second;
}

// ---- Safe twins ----

// Keyed by kernel name only, in whatever context is current: one module per
// name, not one per device.
std::map<std::string, CUmodule> g_by_name;

CUmodule named(const std::string &name, const void *image) {
  if (!g_by_name.count(name)) cuModuleLoadData(&g_by_name[name], image);  // ok: keyed by name, not by device
  return g_by_name[name];
}

// A different image per device.
struct Images {
  CUmodule mods_[8] = {};
  const void *images_[8];

  CUmodule get() {
    int d;
    cudaGetDevice(&d);
    if (!mods_[d]) cuModuleLoadData(&mods_[d], images_[d]);  // ok: the image is the device's own
    return mods_[d];
  }
};

// One image per compute capability: the device's architecture picks it.
extern const void *kCubinForMajor[16];
CUmodule g_arch[8];

CUmodule by_arch(CUdevice dev) {
  if (g_arch[dev] == nullptr) {
    int major = 0;
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    const void *img = kCubinForMajor[major];
    cuModuleLoadData(&g_arch[dev], img);  // ok: one image per compute capability
  }
  return g_arch[dev];
}

// Compiled for the context it goes into.
void compile_for(CUcontext ctx, std::string *out);
std::unordered_map<CUcontext, CUmodule> g_compiled;

CUmodule compiled(CUcontext ctx) {
  auto found = g_compiled.find(ctx);
  if (found != g_compiled.end()) return found->second;
  std::string binary;
  compile_for(ctx, &binary);
  CUmodule m;
  cuModuleLoadData(&m, binary.data());  // ok: built for this context
  g_compiled[ctx] = m;
  return m;
}

// The library API where the driver has it; the cache is the fallback.
CUmodule g_old[8];
CUlibrary g_lib;

CUmodule with_library(int dev, const void *image, bool has_library) {
  if (has_library) {
    cuLibraryLoadData(&g_lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
    return nullptr;
  }
  if (!g_old[dev]) cuModuleLoadData(&g_old[dev], image);  // ok: fallback for drivers before CUDA 12.0
  return g_old[dev];
}

// One module held by the object: not one per device.
class Single {
 public:
  CUmodule get() {
    if (!module_) cuModuleLoadData(&module_, image_);  // ok: one module
    return module_;
  }

 private:
  CUmodule module_ = nullptr;
  const void *image_;
};

// A loader handed to a cache keyed by a name: not per context.
LoadCache<std::string, CUmodule> g_named_loads;

static CUmodule load_named(const char *text) {
  CUmodule mod = nullptr;
  cuModuleLoadData(&mod, text);  // ok: the cache is keyed by name
  return mod;
}

int prepare_named(const std::string &key, const char *text) {
  CUmodule result;
  return g_named_loads.get_or_load(key, result, load_named, text) ? 0 : 1;
}

// The driver opened by hand: its entry points are looked up by name, and a
// shim of the file forwards to the pointer.
void *driver_symbol(const char *name);

static CUresult load_data_shim(CUmodule *out, const void *image) {
  using Fn = CUresult (*)(CUmodule *, const void *);
  Fn fn = reinterpret_cast<Fn>(driver_symbol("cuModuleLoadData"));
  return fn(out, image);
}

class PerContextImage {
 public:
  CUresult get(CUcontext c, CUmodule *out) {
    auto hit = table_.find(c);
    if (hit != table_.end()) {
      *out = hit->second;
      return CUDA_SUCCESS;
    }
    CUresult rc = load_data_shim(&table_[c], image_);  // want LL005 "cuModuleLoadData .through load_data_shim. fills a per-device module cache"
    *out = table_[c];
    return rc;
  }

 private:
  const void *image_;
  std::map<const CUcontext, CUmodule> table_;
};

// Once per device, through std::call_once and a flag per device; the
// device's primary context is made current inside.
class OncePerDevice {
 public:
  CUfunction function(int device) {
    auto load = [&]() {
      CUdevice d;
      CUcontext primary;
      cuDeviceGet(&d, device);
      cuDevicePrimaryCtxRetain(&primary, d);
      cuCtxSetCurrent(primary);
      cuModuleLoadData(&mods_[device], code_.c_str());  // want LL005 "per-device module cache"
      cuModuleGetFunction(&fns_[device], mods_[device], "entry");
    };
    std::call_once(flags_[device], load);
    return fns_[device];
  }

 private:
  std::string code_;
  std::array<std::once_flag, 8> flags_;
  std::array<CUmodule, 8> mods_{};
  std::array<CUfunction, 8> fns_{};
};


// A string key made of the context's address: still one entry per
// context.
std::string address_of(CUcontext c);
std::map<std::string, CUmodule> g_by_text;

static CUmodule load_keyed(const std::string &key, const std::string &cubin) {
  auto found = g_by_text.find(key);
  if (found != g_by_text.end()) return found->second;
  CUmodule m = nullptr;
  cuModuleLoadData(&m, cubin.data());  // want LL005 "per-device module cache"
  g_by_text.emplace(key, m);
  return m;
}

CUmodule load_for_current(const std::string &kernel, const std::string &cubin) {
  CUcontext c;
  cuCtxGetCurrent(&c);
  const std::string key = kernel + "@" + address_of(c);
  return load_keyed(key, cubin);
}
