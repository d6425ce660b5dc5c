// Keys known by their name only: a member function given the device by
// callers in other files. The name (device, device_id, ctx, gpu...) is the
// last evidence the rule takes; a type, a query or a switch comes first.
#include <cuda.h>
#include <array>
#include <mutex>
#include <string>

// The load named as the first argument of a checking macro; the flag is
// looked up per device.
#define DRIVER_CHECKED(api, ...) check_driver(#api, api(__VA_ARGS__))
void check_driver(const char *what, CUresult rc);

class CheckedPerDevice {
 public:
  CUmodule module(int device) {
    auto fill = [&] {
      DRIVER_CHECKED(cuModuleLoadDataEx, &mods_[device], code_.data(), 0, nullptr, nullptr);  // want LL005 "cuModuleLoadDataEx .through DRIVER_CHECKED. fills a per-device module cache"
    };
    std::call_once(flags_->at(device), fill);
    return mods_[device];
  }

 private:
  std::string code_;
  std::array<std::once_flag, 8> *flags_;
  std::array<CUmodule, 8> mods_{};
};

// A table indexed by the kernel's number: no device in its name, type or
// origin.
class PerKernel {
 public:
  CUmodule module(int kernel) {
    if (!mods_[kernel]) cuModuleLoadData(&mods_[kernel], code_.data());  // ok: one slot per kernel
    return mods_[kernel];
  }

 private:
  std::string code_;
  std::array<CUmodule, 8> mods_{};
};
