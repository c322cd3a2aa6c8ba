// Double precision + dynamic shared memory: 7-point 1D stencil whose tile (blockDim.x + 6
// doubles, halo included) lives in extern __shared__ memory sized by the launch's
// shared_bytes; weights in __constant__ memory. Borders are clamped.
__constant__ double kWeights[7] = {0.03125, 0.09375, 0.1875, 0.375, 0.1875, 0.09375, 0.03125};

extern "C" __global__ void dstencil(int n, const double* __restrict__ in, double* out) {
  extern __shared__ double tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x + 3;
  tile[t] = in[min(i, n - 1)];
  if (threadIdx.x < 3) {
    tile[threadIdx.x] = in[max(i - 3, 0)];                         // left halo
    tile[t + blockDim.x] = in[min(i + (int)blockDim.x, n - 1)];    // right halo
  }
  __syncthreads();
  if (i >= n) return;
  double acc = 0.0;
#pragma unroll
  for (int k = 0; k < 7; ++k) acc = fma(kWeights[k], tile[threadIdx.x + k], acc);
  out[i] = acc;
}
