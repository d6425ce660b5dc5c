#pragma once
// An array base class whose RowMax reads on the host: same method name,
// another class, in a header the timing file includes.
template <typename Real> class HostArray {
 public:
  Real RowMax() const {
    Real best = data_[0];
    for (int i = 1; i < n_; i++) best = data_[i] > best ? data_[i] : best;
    return best;
  }

 protected:
  Real *data_ = nullptr;
  int n_ = 0;
};

template <typename Real> class MatrixBase {
 public:
  Real RowMax() const;
  void Scale(Real a);

 protected:
  Real *data_ = nullptr;
  int rows_ = 0, cols_ = 0;
};

template <typename Real> class Matrix : public MatrixBase<Real> {
 public:
  Matrix(int rows, int cols);
};
