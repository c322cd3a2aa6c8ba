// Arithmetic throughput on one SM (one CTA): every thread runs independent chains of
// __sinf (sin.approx.f32) or rsqrtf (rsqrt.approx.f32), 4 chains, or of fmaf, 8 chains,
// one untimed step (fills the instruction cache), then `iters` timed steps, so many warps keep the units busy. The figure is operations per
// cycle per SM. out (checked) = each thread's final values summed; timing[slot] = cycles
// of the loop (thread 0, between barriers).
extern "C" __global__ void sfu_sin(int iters, int slot, float* out, unsigned* timing) {
  float x0 = threadIdx.x * (1.0f / 512), x1 = x0 + 0.25f, x2 = x0 + 0.5f, x3 = x0 + 0.75f;
  unsigned t0 = 0;
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {  // pass 0: one untimed step brings the code in
    if (pass == 1) {
      __syncthreads();
      t0 = clock();
    }
    for (int i = 0; i < (pass ? iters : 1); ++i) {
      x0 = __sinf(x0); x1 = __sinf(x1); x2 = __sinf(x2); x3 = __sinf(x3);
    }
  }
  __syncthreads();
  unsigned t1 = clock();
  out[slot * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3;
  if (threadIdx.x == 0) timing[slot] = t1 - t0;
}

extern "C" __global__ void sfu_rsqrt(int iters, int slot, float* out, unsigned* timing) {
  float x0 = 1.0f + threadIdx.x * (1.0f / 512), x1 = x0 + 0.25f, x2 = x0 + 0.5f, x3 = x0 + 0.75f;
  unsigned t0 = 0;
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {  // pass 0: one untimed step brings the code in
    if (pass == 1) {
      __syncthreads();
      t0 = clock();
    }
    for (int i = 0; i < (pass ? iters : 1); ++i) {
      x0 = rsqrtf(x0); x1 = rsqrtf(x1); x2 = rsqrtf(x2); x3 = rsqrtf(x3);
    }
  }
  __syncthreads();
  unsigned t1 = clock();
  out[slot * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3;
  if (threadIdx.x == 0) timing[slot] = t1 - t0;
}

extern "C" __global__ void fp32_fma(int iters, int slot, float* out, unsigned* timing) {
  float x[8];
#pragma unroll
  for (int c = 0; c < 8; ++c) x[c] = threadIdx.x * (1.0f / 512) + c * 0.125f;
  unsigned t0 = 0;
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      __syncthreads();
      t0 = clock();
    }
    for (int i = 0; i < (pass ? iters : 1); ++i) {
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int c = 0; c < 8; ++c) x[c] = fmaf(x[c], 0.5f, 0.25f);
    }
  }
  __syncthreads();
  unsigned t1 = clock();
  float s = 0;
#pragma unroll
  for (int c = 0; c < 8; ++c) s += x[c];
  out[slot * blockDim.x + threadIdx.x] = s;
  if (threadIdx.x == 0) timing[slot] = t1 - t0;
}
