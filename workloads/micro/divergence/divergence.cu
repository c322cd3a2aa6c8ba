// Branch divergence: one warp; lane l takes path l mod `paths` (paths a power of two), and
// each path is the same dependent chain of 8 x (mad, shr, xor), so with p paths the warp
// runs the chain p times, serialised by the SIMT stack. out (checked) = each lane's x;
// timing[slot] = cycles of `reps` repetitions after an untimed one.
extern "C" __global__ void diverge(unsigned seed, int paths, int reps, int slot, unsigned* out,
                                   unsigned* timing) {
  const unsigned my = threadIdx.x & (paths - 1);
  unsigned x = seed ^ threadIdx.x;
  unsigned t0 = 0;
  for (int r = 0; r <= reps; ++r) {  // repetition 0 is untimed: it fills the instruction cache
    if (r == 1) t0 = clock();
    for (unsigned p = 0; p < (unsigned)paths; ++p) {
      if (my == p) {
#pragma unroll
        for (int k = 0; k < 8; ++k) {
          x = x * 1664525u + 1013904223u + p;
          x ^= x >> 13;
        }
      }
    }
  }
  out[slot * blockDim.x + threadIdx.x] = x;  // waits for x: the clock stops after the last chain
  unsigned t1 = clock();
  timing[slot] = t1 - t0;
}
