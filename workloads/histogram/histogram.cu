// Histogram with atomics: per-CTA 256-bin histogram in shared memory (atom.shared.add),
// merged into the global histogram with atom.global.add. Integer, so exact.
#define HB 256
extern "C" __global__ void histogram256(int n, const unsigned* __restrict__ in,
                                        unsigned* bins) {
  __shared__ unsigned local[HB];
  for (int b = threadIdx.x; b < HB; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned v = in[i];
    atomicAdd(&local[(v ^ (v >> 8) ^ (v >> 16)) & (HB - 1)], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < HB; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}
