// Irregular: sparse matrix-vector product, CSR, one row per thread (scalar kernel), so
// rows of different length diverge and x is gathered.
extern "C" __global__ void spmv_csr(int rows, const int* __restrict__ row_ptr,
                                    const int* __restrict__ cols,
                                    const float* __restrict__ vals,
                                    const float* __restrict__ x, float* y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0.f;
  for (int e = row_ptr[r]; e < row_ptr[r + 1]; ++e) sum += vals[e] * x[cols[e]];
  y[r] = sum;
}
