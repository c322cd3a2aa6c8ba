// fp32 matrix-vector product shaped like 004 Table 2's MV (issue 16 point 6): y = A x for a
// rows x cols column-major A, one thread per row (CTAs of 256), so a warp's load of one
// column is coalesced; the row's sum is an fma chain over the columns in order, which the
// CPU reference repeats exactly.
extern "C" __global__ void sgemv_colmajor(int rows, int cols, const float* __restrict__ a,
                                          const float* __restrict__ x, float* y) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.0f;
  for (int c = 0; c < cols; ++c) acc = fmaf(a[(long)c * rows + r], x[c], acc);
  y[r] = acc;
}
