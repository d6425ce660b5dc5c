#include "dense/matrix.h"
#include "dense/launchers.h"

template <typename Real>
Real MatrixBase<Real>::RowMax() const {
  Real out;
  row_max(rows_, &out, data_);
  return out;
}

template <typename Real>
void MatrixBase<Real>::Scale(Real a) {
  scale(rows_ * cols_, data_, a);
}

template class MatrixBase<float>;
template class MatrixBase<double>;
