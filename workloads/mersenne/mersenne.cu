// The CUDA SDK's MersenneTwister shape (001 Table 4.4's Merse: two kernels of 32 CTAs x 128):
// RandomGPU runs one small Mersenne twister per thread (the SDK's dcmt parameters: a state
// of MT_NN = 19 words, MT_MM = 9, per-generator matrix_a / mask_b / mask_c / seed), writing
// its n_per_rng outputs strided by the generator count; BoxMullerGPU turns consecutive
// pairs of each generator's stream into normal deviates in place. The twister is integer
// arithmetic and the uniform conversion exact, so the first kernel's output is bit-exact;
// Box-Muller uses logf / sqrtf / __sinf / __cosf (approximate on the GPU).
#define MT_MM 9
#define MT_NN 19
#define MT_UMASK 0xFFFFFFFEu
#define MT_LMASK 0x1u
#define MT_SHIFT0 12
#define MT_SHIFTB 7
#define MT_SHIFTC 15
#define MT_SHIFT1 18

struct MtParams {
  unsigned int matrix_a, mask_b, mask_c, seed;
};

extern "C" __global__ void mt_random(float* out, const MtParams* __restrict__ params, int rng_count, int n_per_rng) {
  const int threads = blockDim.x * gridDim.x;
  unsigned int mt[MT_NN];
  for (int rng = blockIdx.x * blockDim.x + threadIdx.x; rng < rng_count; rng += threads) {
    const MtParams p = params[rng];
    mt[0] = p.seed;
    for (int s = 1; s < MT_NN; ++s) mt[s] = 1812433253u * (mt[s - 1] ^ (mt[s - 1] >> 30)) + s;
    int s = 0;
    unsigned int next = mt[0];
    for (int k = 0; k < n_per_rng; ++k) {
      int s1 = s + 1, sm = s + MT_MM;
      if (s1 >= MT_NN) s1 -= MT_NN;
      if (sm >= MT_NN) sm -= MT_NN;
      const unsigned int cur = next;
      next = mt[s1];
      unsigned int x = (cur & MT_UMASK) | (next & MT_LMASK);
      x = mt[sm] ^ (x >> 1) ^ ((x & 1) ? p.matrix_a : 0u);
      mt[s] = x;
      s = s1;
      x ^= x >> MT_SHIFT0;  // tempering
      x ^= (x << MT_SHIFTB) & p.mask_b;
      x ^= (x << MT_SHIFTC) & p.mask_c;
      x ^= x >> MT_SHIFT1;
      out[rng + k * rng_count] = ((float)x + 1.0f) / 4294967296.0f;  // (0, 1]
    }
  }
}

extern "C" __global__ void mt_box_muller(float* data, int rng_count, int n_per_rng) {
  const int threads = blockDim.x * gridDim.x;
  for (int rng = blockIdx.x * blockDim.x + threadIdx.x; rng < rng_count; rng += threads)
    for (int k = 0; k < n_per_rng; k += 2) {
      float* u1 = &data[rng + k * rng_count];
      float* u2 = &data[rng + (k + 1) * rng_count];
      const float r = sqrtf(-2.0f * logf(*u1));
      const float phi = 6.28318530717958647692f * *u2;
      *u1 = r * __cosf(phi);
      *u2 = r * __sinf(phi);
    }
}
