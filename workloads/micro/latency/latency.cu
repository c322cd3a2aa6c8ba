// Pointer-chase load latency (as Wong et al., ISPASS 2010, and Mei & Chu, TPDS 2017):
// one thread follows j = a[j] from `start` through a chain with one word per 128 B line.
// `warm` untimed steps first bring the lines into the caches (0 for cold DRAM lines; a
// full pass of a chain larger than the L2 leaves none of it there);
// then `steps` timed steps. A step is the load plus its address arithmetic (mul.wide +
// add), as in the published kernels. timing[slot] = cycles of the timed steps (plus a
// constant that two launches of different `steps` cancel).
extern "C" __global__ void chase(const unsigned* a, unsigned start, int warm, int steps, int slot,
                                 unsigned* result, unsigned* timing) {
  unsigned j = start;
  for (int i = 0; i < warm; ++i) j = a[j];
  result[2 * slot] = j;  // the store waits for j, so the clock starts after the warm-up
  unsigned t0 = clock();
  for (int i = 0; i < steps; ++i) j = a[j];
  result[2 * slot + 1] = j;  // ... and stops after the last timed load returned
  unsigned t1 = clock();
  timing[slot] = t1 - t0;
}
