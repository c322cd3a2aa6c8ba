// Batched dot products shaped like 004 Table 2's SCP (the SDK's scalarProd; issue 16
// point 6): one CTA of SP_THREADS per vector pair of n floats. Each thread accumulates
// a[i] * b[i] for i = tid, tid + SP_THREADS, ... (an fma chain), then the CTA adds the
// partial sums in a fixed shared-memory tree (stride 64, 32, ..., 1) and thread 0 writes
// the pair's result. The CPU reference repeats the chain and the tree exactly.
#define SP_THREADS 128

extern "C" __global__ void scalar_prod(int n, const float* __restrict__ a, const float* __restrict__ b,
                                       float* out) {
  __shared__ float partial[SP_THREADS];
  const long base = (long)blockIdx.x * n;
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += SP_THREADS) acc = fmaf(a[base + i], b[base + i], acc);
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = SP_THREADS / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
