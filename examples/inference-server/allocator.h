// Device memory arena for the inference server.
#pragma once
#include <cstddef>

namespace infer {

// Arena hands out slices of one big device allocation.
class Arena {
 public:
  // reserve_most takes almost all free device memory up front.
  void reserve_most();
  // reserve_with_headroom leaves room for kernels that load later.
  void reserve_with_headroom(size_t headroom_bytes);
  void *take(size_t bytes);

 private:
  char *base_ = nullptr;
  size_t size_ = 0;
  size_t used_ = 0;
};

}  // namespace infer
