#include "dense.h"
#include "device_ops.h"

template <typename Real>
Dense<Real>::Dense(int rows, int cols) {
  this->rows_ = rows;
  this->cols_ = cols;
}

template <typename Real>
void DenseBase<Real>::ClampBelow(Real floor_value) {
  gpu_clamp_below(data_, floor_value, rows_ * cols_);
}

template <typename Real>
void DenseBase<Real>::Rescale(Real factor) {
  gpu_rescale(data_, factor, rows_ * cols_);
}

template <typename Real>
void DenseBase<Real>::Fill(Real value) {
  gpu_fill(data_, value, rows_ * cols_);
}

void Histogram::Fill(float value) {
  int bin = static_cast<int>(value) & 63;
  bins_[bin]++;
}

template class DenseBase<float>;
template class Dense<float>;
