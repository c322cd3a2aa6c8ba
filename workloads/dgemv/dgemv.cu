// Double precision: y = alpha * A x + beta * y with column-major A (rows x cols), one row
// per thread, so every load of A is coalesced across the warp.
extern "C" __global__ void dgemv(int rows, int cols, double alpha, const double* __restrict__ a,
                                 const double* __restrict__ x, double beta, double* y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  double acc = 0.0;
  for (int c = 0; c < cols; ++c) acc = fma(a[(long)c * rows + r], x[c], acc);
  y[r] = alpha * acc + beta * y[r];
}
