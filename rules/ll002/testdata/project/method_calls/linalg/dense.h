// A dense matrix on the device: the operations are methods of the base
// class, defined in dense.cc; the derived class only owns the storage.
#pragma once

template <typename Real>
class DenseBase {
 public:
  void ClampBelow(Real floor_value);
  void Rescale(Real factor);
  void Fill(Real value);
  int Rows() const { return rows_; }

 protected:
  Real *data_ = nullptr;
  int rows_ = 0, cols_ = 0;
};

template <typename Real>
class Dense : public DenseBase<Real> {
 public:
  Dense(int rows, int cols);
};

// Counts samples into bins on the host; shares a method name with the
// matrix, and launches nothing.
class Histogram {
 public:
  void Fill(float value);

 private:
  int bins_[64] = {};
};
