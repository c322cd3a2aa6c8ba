// Batched FFT shaped like 004 Table 2's FFT (issue 16 point 6): CTAs of 64 threads, each
// CTA one 128-point complex FFT (radix-2, decimation in time) in shared memory, so a grid
// of 128 CTAs transforms 16384 points with 8192 threads (digest Z39: Table 2's count).
// Each thread loads two points into bit-reversed positions, then per stage computes one
// butterfly (twiddle from a precomputed table of exp(-2 pi i k / 128), k < 64) with a
// barrier between stages. Compiled with -fmad=false: each product and sum is rounded
// alone, so the CPU reference repeats the arithmetic bit for bit.
// PTX: tools/regen-ptx.sh -f "-O3 -fmad=false" workloads/fft/fft.cu
//      (nvcc -ptx -arch=compute_75 -O3 -fmad=false, CUDA 13.0).
#define FFT_N 128
#define FFT_LOG2 7

extern "C" __global__ void fft128(const float2* __restrict__ in, const float2* __restrict__ twiddle,
                                  float2* out) {
  __shared__ float2 buf[FFT_N];
  const int t = threadIdx.x;
  const int base = blockIdx.x * FFT_N;
  buf[__brev(t) >> (32 - FFT_LOG2)] = in[base + t];
  buf[__brev(t + FFT_N / 2) >> (32 - FFT_LOG2)] = in[base + t + FFT_N / 2];
  __syncthreads();
  for (int s = 0; s < FFT_LOG2; ++s) {
    const int half = 1 << s;
    const int pos = t & (half - 1);
    const int i = ((t >> s) << (s + 1)) + pos;
    const int j = i + half;
    const float2 w = twiddle[pos << (FFT_LOG2 - 1 - s)];
    const float2 u = buf[i], b = buf[j];
    const float vx = b.x * w.x - b.y * w.y;
    const float vy = b.x * w.y + b.y * w.x;
    buf[i] = make_float2(u.x + vx, u.y + vy);
    buf[j] = make_float2(u.x - vx, u.y - vy);
    __syncthreads();
  }
  out[base + t] = buf[t];
  out[base + t + FFT_N / 2] = buf[t + FFT_N / 2];
}
