// Fast Walsh-Hadamard transform, shaped like the CUDA SDK's fastWalshTransform sample
// (001 Table 5.2's FWT, an MSHR-sensitive type-II workload: 3 kernels, CTAs of 256): the
// dyadic convolution of `data` with `kern` as  data = WHT(WHT(data) * WHT(kern)) / N.
// Written for this project from the algorithm (in-place WHT over N = 2^k floats):
//   fwt_global    two butterfly stages per launch in global memory (half-sizes 2*stride and
//                 stride, four elements per thread), for the stages too wide for one CTA;
//   fwt_shared    the last ten stages (half-sizes 512 .. 1) of each 1024-element chunk in
//                 shared memory, one CTA of 256 per chunk;
//   fwt_modulate  data[i] = data[i] * kern[i] * scale, scale = 1/N (a power of two).
// Each butterfly is one add and one subtract, stages from the widest down: the CPU reference
// repeats them in the same order, so outputs are exact.
#define CHUNK 1024
#define CTA 256

extern "C" __global__ void fwt_global(float* d, int stride) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // N/4 threads
  const int lo = i & (stride - 1);
  const int base = ((i - lo) << 2) + lo;
  const float a0 = d[base], a1 = d[base + stride], a2 = d[base + 2 * stride], a3 = d[base + 3 * stride];
  const float b0 = a0 + a2, b2 = a0 - a2, b1 = a1 + a3, b3 = a1 - a3;  // half-size 2*stride
  d[base] = b0 + b1;                                                   // half-size stride
  d[base + stride] = b0 - b1;
  d[base + 2 * stride] = b2 + b3;
  d[base + 3 * stride] = b2 - b3;
}

extern "C" __global__ void fwt_shared(float* d) {
  __shared__ float s[CHUNK];
  float* chunk = d + blockIdx.x * CHUNK;
  for (int k = threadIdx.x; k < CHUNK; k += CTA) s[k] = chunk[k];
  for (int half = CHUNK / 2; half >= 1; half >>= 1) {
    __syncthreads();
    for (int j = threadIdx.x; j < CHUNK / 2; j += CTA) {
      const int lo = j & (half - 1);
      const int p = ((j - lo) << 1) + lo;
      const float a = s[p], b = s[p + half];
      s[p] = a + b;
      s[p + half] = a - b;
    }
  }
  __syncthreads();
  for (int k = threadIdx.x; k < CHUNK; k += CTA) chunk[k] = s[k];
}

extern "C" __global__ void fwt_modulate(float* d, const float* __restrict__ kern, int n, float scale) {
  const int step = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) d[i] = d[i] * kern[i] * scale;
}
