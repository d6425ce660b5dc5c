// A lattice field whose reader normalizes what it read on the GPU: the
// reader is plain C++ (I/O), the normalization a kernel in a CUDA file.
#pragma once
#include <string>

class Field {
 public:
  void read(const std::string &path);
  void normalize();
  void smooth();
  float *data = nullptr;
  int n = 0;
};
