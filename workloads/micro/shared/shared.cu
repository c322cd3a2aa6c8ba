// Shared-memory bank conflicts: in iteration r lane l of every warp reads the words
// (l * stride + 512 r) mod 2048 + 32 k, k = 0..15. Multiples of 32 words keep the bank,
// so a power-of-two stride s <= 32 is an s-way conflict. The timed loads feed an empty
// asm (kept, but never waited for), so the LSU, not issue, bounds the loop; 16 warps
// keep it busy. The figure is cycles per warp access. sums (checked) = each thread's sum
// of its words of the last iteration, read again after the clock stops.
// timing[slot] = cycles of the timed loop (thread 0, between barriers), after one untimed
// iteration that fills the instruction cache.
#define WORDS 4096
extern "C" __global__ void bank(const unsigned* in, int stride, int iters, int slot, unsigned* sums,
                                unsigned* timing) {
  __shared__ unsigned s[WORDS];
  for (int i = threadIdx.x; i < WORDS; i += blockDim.x) s[i] = in[i];
  __syncthreads();
  const unsigned lane = threadIdx.x & 31;
  unsigned t0 = 0;
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {  // pass 0: one untimed iteration brings the code in
    if (pass == 1) {
      __syncthreads();
      t0 = clock();
    }
    for (int r = 0; r < (pass ? iters : 1); ++r) {
      const unsigned* p = s + ((lane * stride + 512u * r) & (WORDS / 2 - 1));
#pragma unroll
      for (int k = 0; k < 16; ++k) {
        unsigned v = p[32 * k];
        asm volatile("" ::"r"(v));
      }
    }
  }
  __syncthreads();
  unsigned t1 = clock();
  const unsigned* p = s + ((lane * stride + 512u * (iters - 1)) & (WORDS / 2 - 1));
  unsigned sum = 0;
  for (int k = 0; k < 16; ++k) sum += p[32 * k];
  sums[slot * blockDim.x + threadIdx.x] = sum;
  if (threadIdx.x == 0) timing[slot] = t1 - t0;
}
