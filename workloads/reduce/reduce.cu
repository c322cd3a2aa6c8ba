// Reduction with barriers and warp shuffles: every CTA of 256 threads sums a grid-stride
// slice, reduces in shared memory down to one warp, then with shfl.down, and writes one
// partial sum; a second launch of the same kernel over the partials gives the total. The
// order of additions is fixed, so the CPU reference repeats it exactly.
#define RD_THREADS 256
extern "C" __global__ void reduce_sum(int n, const float* __restrict__ in, float* out) {
  __shared__ float s[RD_THREADS];
  float acc = 0.f;
  for (int i = blockIdx.x * RD_THREADS + threadIdx.x; i < n; i += gridDim.x * RD_THREADS)
    acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int w = RD_THREADS / 2; w >= 32; w >>= 1) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    float v = s[threadIdx.x];
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
}
