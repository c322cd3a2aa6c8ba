// Few CTAs with uneven work (the KAWS tail effect): CTA b iterates an integer mixing
// chain 1 + (b * 7) % 5 times as long as CTA 0, so a few CTAs finish long after the rest.
extern "C" __global__ void tailwork(int base_iters, const unsigned* __restrict__ seeds,
                                    unsigned* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int iters = base_iters * (1 + (blockIdx.x * 7) % 5);
  unsigned x = seeds[t];
  for (int k = 0; k < iters; ++k) {
    x = x * 1664525u + 1013904223u;
    x ^= x >> 13;
    x += (unsigned)k;
  }
  out[t] = x;
}
