// Compute-bound: C = A * B (row-major, n x n, n a multiple of 16) with 16x16 tiles in
// shared memory.
#define TILE 16
__global__ void sgemm_tiled(int n, const float* __restrict__ a, const float* __restrict__ b,
                            float* __restrict__ c) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    as[ty][tx] = a[row * n + k0 + tx];
    bs[ty][tx] = b[(k0 + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc = fmaf(as[ty][k], bs[k][tx], acc);
    __syncthreads();
  }
  c[row * n + col] = acc;
}
